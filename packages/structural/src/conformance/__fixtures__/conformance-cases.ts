import { bashCases, rubyCases, solidityCases, swiftCases } from "./bash-ruby-swift-solidity-cases.js";
import { cCases, cppCases, csharpCases, javaCases } from "./c-family-cases.js";
import type { ConformanceCase } from "./conformance-case.js";
import { dartCases } from "./dart-cases.js";
import { javaDecoratorCases, pythonDecoratorCases, typescriptDecoratorCases } from "./decorator-cases.js";
import { interpolationCases } from "./interpolation-cases.js";
import { cssCases, jsonCases, phpCases } from "./json-css-php-cases.js";
import { pythonCases } from "./python-cases.js";
import { goCases, rustCases } from "./rust-go-cases.js";
import { javascriptCases, tsxCases, typescriptCases } from "./typescript-cases.js";
import { truncatedFileCases } from "./truncated-file-cases.js";
import { wrappedFragmentCases } from "./wrapped-fragment-cases.js";

/** Every conformance case, by language. */
export const conformanceCases: readonly ConformanceCase[] = [
  ...dartCases,
  ...pythonCases,
  ...rustCases,
  ...goCases,
  ...cCases,
  ...cppCases,
  ...csharpCases,
  ...javaCases,
  ...typescriptCases,
  ...tsxCases,
  ...javascriptCases,
  ...jsonCases,
  ...cssCases,
  ...phpCases,
  ...bashCases,
  ...rubyCases,
  ...swiftCases,
  ...solidityCases,
  ...javaDecoratorCases,
  ...typescriptDecoratorCases,
  ...pythonDecoratorCases,
  ...interpolationCases,
  ...wrappedFragmentCases,
  ...truncatedFileCases,
];
