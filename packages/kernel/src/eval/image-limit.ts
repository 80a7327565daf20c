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

/** Why an image is not shown: larger than the size limit, or past the count limit of the cell. */
export type OverImageLimit = "too large" | "too many";

/** Bytes as a person reads them: "5 MB", "1.5 MB", "48 KB", "900 bytes". */
export function describeBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb) return `${Number((bytes / mb).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/**
 * The line the result shows in place of an image over the limits (`bytes`: decoded), saying which
 * limit: `[image/png, 17,258,313 bytes, not shown: over the size limit of 5 MB per image]`.
 */
export function overImageLimitText(
  mimeType: string,
  bytes: number,
  why: OverImageLimit,
  limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">,
): string {
  const limit =
    why === "too large"
      ? `over the size limit of ${describeBytes(limits.maxImageBytes)} per image`
      : `over the limit of ${limits.maxImages} image${limits.maxImages === 1 ? "" : "s"} per cell`;
  return `[${mimeType}, ${bytes.toLocaleString("en-US")} bytes, not shown: ${limit}]\n`;
}

/** The result's closing note on the images left out: `tooLarge` of them over the size limit, the rest over the count. */
export function leftOutImagesText(
  total: number,
  tooLarge: number,
  limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">,
): string {
  const tooMany = total - tooLarge;
  const size = `over the size limit of ${describeBytes(limits.maxImageBytes)} per image`;
  const count = `over the limit of ${limits.maxImages} image${limits.maxImages === 1 ? "" : "s"} per cell`;
  const why = tooMany === 0 ? size : tooLarge === 0 ? count : `${tooLarge} ${size}, ${tooMany} ${count}`;
  return `… ${total} image${total === 1 ? " was" : "s were"} left out (${why}).`;
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
  admit(encoded: string, size: () => number): "repeat" | "shown" | OverImageLimit {
    const key = createHash("sha256").update(encoded).digest("base64");
    if (this.seen.has(key)) return "repeat";
    this.seen.add(key);
    if (size() > this.limits.maxImageBytes) return "too large";
    if (this.shown >= this.limits.maxImages) return "too many";
    this.shown++;
    return "shown";
  }

  /** clear_output(): the images shown so far no longer count; repeats stay known. */
  clearShown(): void {
    this.shown = 0;
  }
}
