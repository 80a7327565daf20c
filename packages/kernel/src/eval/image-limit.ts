import { createHash } from "node:crypto";
import type { MimeBundle } from "../client/kernel-output.js";
import type { OutputLimits } from "./output-limits.js";

/** The image of a mime bundle: the first of PNG and JPEG it has, base64 as Jupyter sends it. */
export function bundleImage(data: MimeBundle): { mimeType: string; encoded: string } | undefined {
  for (const mimeType of ["image/png", "image/jpeg"]) {
    const encoded = data[mimeType];
    if (typeof encoded === "string") return { mimeType, encoded };
  }
  return undefined;
}

/** The line the result shows in place of an image over the limits (`bytes`: decoded). */
export function overImageLimitText(mimeType: string, bytes: number): string {
  return `[image ${mimeType}, ${bytes} bytes, not shown: over the image limit]\n`;
}

/**
 * Which images of a cell its result shows: the first `maxImages` different ones of at most
 * `maxImageBytes` bytes each. A repeat of an image seen before is dropped (a figure returned as
 * the last expression arrives twice: result and end-of-cell display); any other image is over the
 * limit. The collector and the JavaScript executor's output budget both decide with it, so the
 * executor sends exactly the images the result shows.
 */
export class ImageLimit {
  /** Digests of the images seen: a cell drawing thousands of figures must not keep every one. */
  private readonly seen = new Set<string>();
  private shown = 0;

  constructor(private readonly limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">) {}

  /** What becomes of the image `encoded` (base64); `size` gives its decoded bytes, asked for unless a repeat. */
  admit(encoded: string, size: () => number): "repeat" | "shown" | "over" {
    const key = createHash("sha256").update(encoded).digest("base64");
    if (this.seen.has(key)) return "repeat";
    this.seen.add(key);
    if (size() > this.limits.maxImageBytes || this.shown >= this.limits.maxImages) return "over";
    this.shown++;
    return "shown";
  }

  /** clear_output(): the images shown so far no longer count; repeats stay known. */
  clearShown(): void {
    this.shown = 0;
  }
}
