import type { TourSection } from "./tour-step.js";

/**
 * Parts 2 and 3 of the tour (lsp status, definition/hover/references, diagnostics on write,
 * lsp_rename) plug in here once @tools/lsp is wired in `create-demo-run.ts`.
 */
export const lspTourSections: readonly TourSection[] = [];
