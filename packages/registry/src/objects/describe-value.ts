/**
 * A wrong value as a message names it: "null", "undefined", "an array", "a string", "a number";
 * an object (a Map, a class instance, or a plain one where it is not what was asked) as `object`
 * says, "an object of another kind" unless the message knows better.
 */
export function describeValue(value: unknown, object = "an object of another kind"): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  if (type === "object") return object;
  return `${/^[aeiou]/.test(type) ? "an" : "a"} ${type}`;
}
