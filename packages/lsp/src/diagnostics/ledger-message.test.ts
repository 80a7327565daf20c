import type { Diagnostic } from "vscode-languageserver-protocol";
import { describe, expect, it } from "vitest";
import { ledgerMessage } from "./ledger-message.js";

function from(source: string, message: string): Diagnostic {
  return { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, source, message };
}

describe("ledgerMessage", () => {
  it("keys pyright's inferred unions and Unknown types alike, whatever was inferred", () => {
    const once = from("Pyright", 'Operator "+" not supported for types "Unknown | Literal[0]" and "int"');
    const again = from(
      "Pyright",
      'Operator "+" not supported for types "Unknown | Literal[0] | None" and "int"',
    );
    expect(ledgerMessage(once)).toBe(ledgerMessage(again));
    expect(ledgerMessage(once)).toBe('Operator "+" not supported for types "…" and "int"');
    expect(ledgerMessage(from("basedpyright", 'Type of "x" is "list[Unknown]"'))).toBe('Type of "x" is "…"');
  });

  it("keeps names, declared types and other servers' messages as printed", () => {
    const attribute = from("Pyright", 'Cannot access attribute "sock" for class "Transport"');
    expect(ledgerMessage(attribute)).toBe(attribute.message);
    const declared = from("Pyright", 'Type "int" is not assignable to declared type "str"');
    expect(ledgerMessage(declared)).toBe(declared.message);
    const tsc = from("typescript", "Type 'string | number' is not assignable to type 'number'.");
    expect(ledgerMessage(tsc)).toBe(tsc.message);
    // A declared union is a type the code wrote: two of them are two errors.
    const optionalInt = from("Pyright", 'Argument of type "int | None" cannot be assigned to parameter "x"');
    const optionalStr = from("Pyright", 'Argument of type "str | None" cannot be assigned to parameter "x"');
    expect(ledgerMessage(optionalInt)).not.toBe(ledgerMessage(optionalStr));
    // The text between two quoted parts is never taken for one.
    const between = from("Pyright", '"a" is Unknown | "b"');
    expect(ledgerMessage(between)).toBe(between.message);
  });
});
