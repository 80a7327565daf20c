import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 30_000,
    // Real adapters on two shared cores: one test file at a time keeps timings sane.
    fileParallelism: false,
  },
});
