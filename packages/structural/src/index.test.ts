import { expect, it } from "vitest";
import * as api from "./index.js";

it("pins the public export list", () => {
  expect(Object.keys(api).sort()).toEqual(
    [
      "StructuralError",
      "StructuralParser",
      "applyStagedEdit",
      "astEditTool",
      "astGrepTool",
      "compilePattern",
      "createResolveTool",
      "createStructuralParser",
      "dylinkSection",
      "findLanguage",
      "findMatches",
      "languageForPath",
      "languageIds",
      "languages",
      "loadGrammar",
      "matchSource",
      "nodeFileOperations",
      "parseMetaVariable",
      "resolveTool",
      "rewriteFile",
      "searchFiles",
      "stagedEditsKey",
      "structuralParserKey",
      "structuralTools",
      "webTreeSitterVersion",
    ].sort(),
  );
});
