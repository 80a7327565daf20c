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

/** Why an image is not shown: larger than a size limit, or past the count limit of the cell. */
export type OverImageLimit = "too large" | "too many";

/**
 * The longest side, in pixels, of an image the result shows. Anthropic's API refuses a request
 * holding an image with a side over 8000 pixels ("At least one of the image dimensions exceed max
 * allowed size: 8000 pixels"), and the image stays in the conversation, so every later request
 * fails too. A figure drawn wide (`figsize=(120, 2)`) is that in a few KB.
 */
export const maxImageSide = 8000;

/** The length of `bytes` as base64, which is what the model gets (and what its API's size limit counts). */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** The width and height of a PNG or JPEG, read from its header; undefined when it is neither or cut short. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // PNG: the signature, then the IHDR chunk (length, "IHDR", width, height).
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(12) === 0x49484452) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  // JPEG: the segments after SOI up to a start of frame (SOF0–SOF15 but DHT, JPG and DAC).
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] ?? 0;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    }
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

/** Bytes as a person reads them: "5 MB", "1.5 MB", "48 KB", "900 bytes". */
export function describeBytes(bytes: number): string {
  const mb = 1024 * 1024;
  if (bytes >= mb) return `${Number((bytes / mb).toFixed(1))} MB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KB`;
  return `${bytes} bytes`;
}

/** Which size limit `bytes` (an image, decoded) is over, said as the result says it; undefined when none. */
function overSizeLimit(bytes: Uint8Array, limits: Pick<OutputLimits, "maxImageBytes">): string | undefined {
  const encoded = base64Length(bytes.length);
  if (encoded > limits.maxImageBytes) {
    return `over the size limit of ${describeBytes(limits.maxImageBytes)} per image (${encoded.toLocaleString("en-US")} bytes as base64, as the model gets it)`;
  }
  const size = imageSize(bytes);
  if (size !== undefined && Math.max(size.width, size.height) > maxImageSide) {
    return `over the size limit of ${maxImageSide} pixels a side (${size.width}×${size.height})`;
  }
  return undefined;
}

/**
 * The line the result shows in place of an image over the limits (`bytes`: decoded), saying which
 * limit: `[image/png, 17,258,313 bytes, not shown: over the size limit of 5 MB per image (…)]`.
 */
export function overImageLimitText(
  mimeType: string,
  bytes: Uint8Array,
  why: OverImageLimit,
  limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">,
): string {
  const limit =
    why === "too large"
      ? (overSizeLimit(bytes, limits) ??
        `over the size limit of ${describeBytes(limits.maxImageBytes)} per image`)
      : `over the limit of ${limits.maxImages} image${limits.maxImages === 1 ? "" : "s"} per cell`;
  return `[${mimeType}, ${bytes.length.toLocaleString("en-US")} bytes, not shown: ${limit}]\n`;
}

/** The result's closing note on the images left out: `tooLarge` of them over a size limit, the rest over the count. */
export function leftOutImagesText(
  total: number,
  tooLarge: number,
  limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">,
): string {
  const tooMany = total - tooLarge;
  const size = `over the size limits of ${describeBytes(limits.maxImageBytes)} per image as base64 and ${maxImageSide} pixels a side`;
  const count = `over the limit of ${limits.maxImages} image${limits.maxImages === 1 ? "" : "s"} per cell`;
  const why = tooMany === 0 ? size : tooLarge === 0 ? count : `${tooLarge} ${size}, ${tooMany} ${count}`;
  const advice = [
    ...(tooLarge > 0 ? ["draw smaller images (a smaller figure size or dpi), or save them to files"] : []),
    ...(tooMany > 0
      ? ["show fewer images per cell (close the ones not needed, or show the rest in later cells)"]
      : []),
  ];
  return `… ${total} image${total === 1 ? " was" : "s were"} left out (${why}); ${advice.join("; ")}.`;
}

/**
 * Which images of a cell its result shows: the first `maxImages` different ones of at most
 * `maxImageBytes` bytes each as base64 and {@link maxImageSide} pixels a side. A repeat of an image seen before is dropped (a figure returned as
 * the last expression arrives twice: result and end-of-cell display); any other image is over the
 * limit. The collector and the JavaScript executor's output budget both decide with it, so the
 * executor sends exactly the images the result shows.
 */
export class ImageLimit {
  /** Digests of the images seen: a cell drawing thousands of figures must not keep every one. */
  private readonly seen = new Set<string>();
  private shown = 0;

  constructor(private readonly limits: Pick<OutputLimits, "maxImages" | "maxImageBytes">) {}

  /** What becomes of the image `encoded` (base64); `decoded` gives its bytes, asked for unless a repeat. */
  admit(encoded: string, decoded: () => Uint8Array): "repeat" | "shown" | OverImageLimit {
    const key = createHash("sha256").update(encoded).digest("base64");
    if (this.seen.has(key)) return "repeat";
    this.seen.add(key);
    if (overSizeLimit(decoded(), this.limits) !== undefined) return "too large";
    if (this.shown >= this.limits.maxImages) return "too many";
    this.shown++;
    return "shown";
  }

  /** clear_output(): the images shown so far no longer count; repeats stay known. */
  clearShown(): void {
    this.shown = 0;
  }
}
