import { expect, it } from "vitest";
import { byteSize } from "./byte-size.js";

it("writes a byte count in the largest binary unit it reaches, with one decimal at most", () => {
  expect(byteSize(2 * 1024 * 1024)).toBe("2 MiB");
  expect(byteSize(17.5 * 1024 * 1024)).toBe("17.5 MiB");
  expect(byteSize(16 * 1024 * 1024 + 1)).toBe("16 MiB");
  expect(byteSize(256 * 1024)).toBe("256 KiB");
  expect(byteSize(1500)).toBe("1.5 KiB");
  expect(byteSize(500)).toBe("500 bytes");
  expect(byteSize(1)).toBe("1 byte");
});
