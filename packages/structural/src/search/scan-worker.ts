// Worker-thread entry of the scan pool (see scan-pool.ts): parses and matches the files the main
// thread read and prefiltered, keeping its own tree cache by (path, content hash).
import { parentPort, workerData } from "node:worker_threads";
import { StructuralParser } from "../parser/structural-parser.js";
import { checkRewrite, type RewriteCheck } from "../rewrite/check-rewrites.js";
import { scanBytes, type FileScan } from "./scan-file.js";
import type {
  CheckRequest,
  CheckResponse,
  ScanRequest,
  ScanResponse,
  WorkerCache,
  WorkerRequest,
} from "./scan-pool.js";

const port = parentPort;
const cache = workerData as WorkerCache;
const parser = new StructuralParser({ ...cache, workers: 0 });

async function handle(request: ScanRequest): Promise<ScanResponse> {
  try {
    const spec = parser.spec(request.language);
    const scans: FileScan[] = [];
    const maxMatches = request.limits.maxMatches ?? Infinity;
    let found = 0;
    for (const file of request.files) {
      // Enough matches for the whole search: the rest of the batch is not needed.
      if (found >= maxMatches) break;
      const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      const scan = await scanBytes(parser, spec, request.pattern, file.path, bytes, {
        ...(file.share ? { share: file.share } : {}),
        // The whole bound (see the search's own loop): what a file gives must not depend on its batch.
        limits: request.limits,
      });
      scans.push(scan);
      found += scan.matches.length;
    }
    return { id: request.id, scans };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

async function check(request: CheckRequest): Promise<CheckResponse> {
  try {
    const spec = parser.spec(request.language);
    const checks: RewriteCheck[] = [];
    for (const file of request.files)
      checks.push({ path: file.path, sites: await checkRewrite(parser, spec, file) });
    return { id: request.id, checks };
  } catch (error) {
    return { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
}

// One request at a time, in arrival order (concurrent searches interleave their batches).
let queue: Promise<void> = Promise.resolve();
port?.on("message", (request: WorkerRequest) => {
  queue = queue.then(async () =>
    port.postMessage(request.kind === "check" ? await check(request) : await handle(request)),
  );
});
