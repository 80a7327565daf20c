import type { TourStep } from "./tour-step.js";
import { harnessTourSteps } from "./harness-steps.js";

/**
 * The tour, in order: each package's steps as a list. A package that lands adds one import and
 * one spread here (`...lspTourSteps`).
 */
export const tourSteps: readonly TourStep[] = [...harnessTourSteps];
