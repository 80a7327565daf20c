#!/usr/bin/env node
// The CLI lives in dist/ once built: `pnpm --filter @tools/harness-demo run build`.
import "../dist/cli.js";
