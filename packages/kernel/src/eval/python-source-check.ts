import { KernelError } from "../kernel-error.js";

// A NUL, or a UTF-16 surrogate without its other half (JSON's "\ud800" escape gives one).
const unsendable = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses Python code the kernel cannot take, before it is sent: ipykernel fails on it inside its
 * message handler and never answers the request. A NUL is not allowed in Python source
 * (`compile()` raises ValueError); an unpaired surrogate travels in our JSON as an escape, but has
 * no UTF-8 form, so ipykernel can neither compile the cell nor send it back in execute_input.
 * Throws `INVALID_CODE` naming the character and where it is.
 */
export function assertSendablePython(code: string): void {
  const found = unsendable.exec(code);
  if (!found) return;
  const before = code.slice(0, found.index);
  const line = before.split("\n").length;
  const column = found.index - before.lastIndexOf("\n");
  const where = `line ${line}, column ${column}`;
  const unit = found[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
  const message =
    found[0] === "\0"
      ? `the cell contains a NUL character (U+0000) at ${where}, which Python source cannot hold. Write it as the escape '\\x00' inside a string literal, or remove it.`
      : `the cell contains an unpaired UTF-16 surrogate (U+${unit}) at ${where}: half of a character, with no UTF-8 form, so Python cannot read the cell. Write the character itself, or the escape '\\u${unit.toLowerCase()}' inside a string literal.`;
  throw new KernelError({
    code: "INVALID_CODE",
    message: `${message} The cell was not run; the kernel and its state are unchanged.`,
    data: { line, column },
  });
}
