// The public API of @tools/structural. Every export is named here; nothing else is public.
// No web-tree-sitter type is part of it: that package's declarations need @types/emscripten,
// which would fail a consumer's type check with skipLibCheck off (members that hand out trees
// are @internal and stripped from the published .d.ts).

export { StructuralError } from "./errors/structural-error.js";
export type { StructuralErrorCode } from "./errors/structural-error.js";

export { findLanguage, languageForPath, languageIds, languages } from "./grammars/languages.js";
export type { LanguageSpec } from "./grammars/languages.js";
export { dylinkSection } from "./grammars/load-grammar.js";
export { webTreeSitterVersion } from "./grammars/web-tree-sitter-version.js";

export { StructuralParser, createStructuralParser, structuralParserKey } from "./parser/structural-parser.js";
export type { StructuralParserOptions } from "./parser/structural-parser.js";

export type { CompiledPattern, PatternNode } from "./pattern/pattern-node.js";
export { parseMetaVariable } from "./pattern/metavariable.js";
export type { MetaVariable } from "./pattern/metavariable.js";

export type { CapturedText, StructuralMatch, TestedBy, TreeMatches } from "./match/find-matches.js";
export { matchSource } from "./match/match-source.js";

export { searchFiles } from "./search/search.js";
export type {
  FileMatches,
  IgnoredByRule,
  IgnoredSummary,
  IgnoreRuleRef,
  SearchOptions,
  SearchOutcome,
} from "./search/search.js";

export { rewriteFile } from "./rewrite/rewrite-file.js";
export type { FileRewrite, Replacement } from "./rewrite/rewrite-file.js";

export { stagedEditsKey } from "./staging/staged-edits.js";
export type { StagedEdit, StagedEdits, StagedFile } from "./staging/staged-edits.js";
export { applyStagedEdit, nodeFileOperations } from "./staging/apply-edit.js";
export type { FileOperations } from "./staging/apply-edit.js";

export { astGrepTool } from "./tools/ast-grep-tool.js";
export { astEditTool } from "./tools/ast-edit-tool.js";
export { createResolveTool, resolveTool } from "./tools/resolve-tool.js";
export { structuralTools } from "./tools/structural-tools.js";
