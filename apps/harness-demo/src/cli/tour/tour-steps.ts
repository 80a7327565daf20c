import { askTourSection } from "./ask-steps.js";
import { debugTourSection } from "./debug-steps.js";
import { fileToolsSection, toolListsSection } from "./harness-steps.js";
import { kernelTourSection } from "./kernel-steps.js";
import { lspTourSections } from "./lsp-steps.js";
import { structuralTourSection } from "./structural-steps.js";
import type { TourSection, TourStep } from "./tour-step.js";
import { vibeTourSection } from "./vibe-steps.js";

/**
 * The tour, in order: the eight parts of the issue, each a package's section. A package that
 * lands adds one import and one entry here.
 */
export const tourSections: readonly TourSection[] = [
  toolListsSection,
  ...lspTourSections,
  fileToolsSection,
  structuralTourSection,
  debugTourSection,
  kernelTourSection,
  askTourSection,
  vibeTourSection,
];

/** Every step of the tour, in order. */
export const tourSteps: readonly TourStep[] = tourSections.flatMap((section) => section.steps);
