import { describe, expect, it } from "vitest";
import { OpenViews } from "./open-views.js";

describe("OpenViews", () => {
  it("computes once per text, again when the text changes, and keeps nothing of a closed document", () => {
    const views = new OpenViews<string>();
    let made = 0;
    const make = (text: string) => {
      made++;
      return text.toUpperCase();
    };
    expect(views.get("file:///a.ts", "a", make)).toBe("A");
    expect(views.get("file:///a.ts", "a", make)).toBe("A");
    expect(made).toBe(1);
    expect(views.get("file:///a.ts", "a2", make)).toBe("A2");
    expect(made).toBe(2);
    for (let index = 0; index < 100; index++) views.get(`file:///f${index}.ts`, "x", make);
    expect(views.size).toBe(101);
    // Each document closed: its entry goes.
    for (let index = 0; index < 100; index++) views.forget(`file:///f${index}.ts`);
    views.forget("file:///a.ts");
    expect(views.size).toBe(0);
  });
});
