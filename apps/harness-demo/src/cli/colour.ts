/** Paints text for a terminal, or leaves it plain when the output is not one. */
export interface Painter {
  red(text: string): string;
  green(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

function wrap(open: number, close: number): (text: string) => string {
  return (text) => `\u001b[${open}m${text}\u001b[${close}m`;
}

/** ANSI colours when `enabled` (stdout is a TTY and NO_COLOR is unset), plain text otherwise. */
export function painter(enabled: boolean): Painter {
  if (!enabled) {
    const plain = (text: string) => text;
    return { red: plain, green: plain, bold: plain, dim: plain };
  }
  return { red: wrap(31, 39), green: wrap(32, 39), bold: wrap(1, 22), dim: wrap(2, 22) };
}

/** Whether colour should be used on this stream. */
export function colourWanted(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && process.env["NO_COLOR"] === undefined;
}
