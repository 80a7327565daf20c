/** A greeting for one person. */
export function greet(name: string): string {
  return `Hello, ${name}!`;
}

/** Greetings for several people, one per line. */
export function greetAll(names: readonly string[]): string {
  return names.map(greet).join("\n");
}
