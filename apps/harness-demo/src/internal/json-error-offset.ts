/**
 * Where `text` stops being JSON: the 0-based offset (in UTF-16 code units, as `JSON.parse` counts)
 * of the first character that cannot continue a JSON text, `text.length` when the text ends too
 * early, or undefined when `text` is valid JSON. Needed because V8's own messages do not always
 * give the position and sometimes quote the input instead (which may hold a secret).
 */
export function jsonErrorOffset(text: string): number | undefined {
  let at = 0;
  const fail = (offset: number): never => {
    throw new JsonSyntaxAt(offset);
  };
  const space = () => {
    while (at < text.length && " \t\n\r".includes(text[at] ?? "")) at += 1;
  };
  const digits = (): number => {
    const start = at;
    while (at < text.length && (text[at] ?? "") >= "0" && (text[at] ?? "") <= "9") at += 1;
    return at - start;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[at] !== char) fail(at);
      at += 1;
    }
  };
  const string = () => {
    at += 1; // the opening quote
    for (;;) {
      const char = text[at];
      if (char === undefined) fail(at);
      else if (char === '"') {
        at += 1;
        return;
      } else if (char === "\\") {
        const escape = text[at + 1];
        if (escape === undefined) fail(at + 1);
        else if (escape === "u") {
          for (let i = 2; i < 6; i += 1) if (!/[0-9a-fA-F]/.test(text[at + i] ?? "")) fail(at + i);
          at += 6;
        } else if ('"\\/bfnrt'.includes(escape)) at += 2;
        else fail(at + 1);
      } else if (char < " ") fail(at);
      else at += 1;
    }
  };
  const number = () => {
    if (text[at] === "-") at += 1;
    if (text[at] === "0") at += 1;
    else if (digits() === 0) fail(at);
    if (text[at] === ".") {
      at += 1;
      if (digits() === 0) fail(at);
    }
    if (text[at] === "e" || text[at] === "E") {
      at += 1;
      if (text[at] === "+" || text[at] === "-") at += 1;
      if (digits() === 0) fail(at);
    }
  };
  const value = (): void => {
    space();
    const char = text[at];
    if (char === "{") {
      at += 1;
      space();
      if (text[at] === "}") {
        at += 1;
        return;
      }
      for (;;) {
        space();
        if (text[at] !== '"') fail(at);
        string();
        space();
        if (text[at] !== ":") fail(at);
        at += 1;
        value();
        space();
        if (text[at] === "}") {
          at += 1;
          return;
        }
        if (text[at] !== ",") fail(at);
        at += 1;
      }
    } else if (char === "[") {
      at += 1;
      space();
      if (text[at] === "]") {
        at += 1;
        return;
      }
      for (;;) {
        value();
        space();
        if (text[at] === "]") {
          at += 1;
          return;
        }
        if (text[at] !== ",") fail(at);
        at += 1;
      }
    } else if (char === '"') string();
    else if (char === "t") literal("true");
    else if (char === "f") literal("false");
    else if (char === "n") literal("null");
    else if (char === "-" || (char !== undefined && char >= "0" && char <= "9")) number();
    else fail(at);
  };
  try {
    value();
    space();
    if (at < text.length) fail(at);
    return undefined;
  } catch (error) {
    if (error instanceof JsonSyntaxAt) return Math.min(error.offset, text.length);
    throw error;
  }
}

class JsonSyntaxAt extends Error {
  constructor(readonly offset: number) {
    super(`not JSON at ${offset}`);
  }
}
