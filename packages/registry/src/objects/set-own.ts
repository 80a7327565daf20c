/** Sets a key as an own property, even one named `__proto__` (a model's argument, a schema key). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
