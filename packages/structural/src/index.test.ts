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
      "createResolveTool",
      "createStructuralParser",
      "dylinkSection",
      "findLanguage",
      "languageForPath",
      "languageIds",
      "languages",
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
