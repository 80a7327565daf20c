import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { formatFinding, type Finding } from "./finding.js";
import { parseGoVet } from "./parse-go-vet.js";

/** Real checker output recorded into src/__fixtures__/checker-output (see its README). */
const recorded = (name: string) =>
  readFileSync(join(import.meta.dirname, "..", "__fixtures__", "checker-output", name), "utf8");
const lines = (findings: Finding[]) => findings.map((f) => formatFinding(f, (path) => path));

describe("parseGoVet", () => {
  it("go vet: analyzer findings are warnings, vet: type errors are errors, paths from the root", () => {
    expect(lines(parseGoVet(recorded("go-vet.txt"), "/tmp/govet"))).toEqual([
      '/tmp/govet/main.go:6:2 warning fmt.Printf format %d has arg "three" of wrong type string',
      '/tmp/govet/broken/broken.go:4:18 error cannot use "three" (untyped string constant) as int value in variable declaration',
      "/tmp/govet/sub/sub.go:5:13 warning Copy passes lock by value: sync.Mutex",
      "/tmp/govet/sub/sub.go:6:9 warning return copies lock value: sync.Mutex",
    ]);
  });
});
