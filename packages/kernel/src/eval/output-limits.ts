/** Bounds of what one cell returns. */
export interface OutputLimits {
  /** Most characters of text over the whole cell; default 20 000. */
  readonly maxChars: number;
  /** Most lines of text over the whole cell; default 400. */
  readonly maxLines: number;
  /** Most images per cell; default 8. */
  readonly maxImages: number;
  /** Largest image kept, in bytes of its base64 (what the model gets); default 5 MB. */
  readonly maxImageBytes: number;
}

/** Defaults of {@link OutputLimits}. */
export const defaultOutputLimits: OutputLimits = {
  maxChars: 20_000,
  maxLines: 400,
  maxImages: 8,
  maxImageBytes: 5 * 1024 * 1024,
};
