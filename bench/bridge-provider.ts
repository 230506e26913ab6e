// Provider source benchmark (`make bench`): what fronting a raw provider API costs per turn
// — re-input building the request, the wire framer, the facet's normalization, the fold that keeps
// the thread — over a loopback provider answering a recorded stream, as ratios to two baselines
// measured on the same run: the HTTP transport alone (POST, read the SSE body to its end) and the
// facet alone over the same SSE text (parsed by the normalize module's reader, then normalized). What
// is left over is the source's own work: the request, framing bytes as they arrive, the fold, and one
// async-iterator step per event.
// By hand, from the repository root (the recordings are read from there): node bench/run.mjs bridge-provider
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import type { AgInput } from "../generated/types.js";
import { createProviderSource } from "../src/bridges/provider/index.js";
import { normalizeAll, readNativeChunks } from "../src/normalize/index.js";

const RECORDINGS = [
  ["anthropic", "anthropic/anthropic-compaction.1.chunks.txt"],
  ["openai-responses", "openai-responses/openai-shell-container-multiturn.1.chunks.txt"],
] as const;
const RUNS = 60;

async function median(runs: number, fn: () => Promise<void>): Promise<number> {
  for (let i = 0; i < 5; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

for (const [from, file] of RECORDINGS) {
  const chunks = readNativeChunks(readFileSync(join(process.cwd(), "fixtures/providers", file), "utf8"));
  const body = Buffer.from(
    chunks.map((c) => `event: ${(c as { type?: string }).type ?? "message"}\ndata: ${JSON.stringify(c)}\n\n`).join(""),
  );
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

  const transportMs = await median(RUNS, async () => {
    const reader = (await fetch(url, { method: "POST", body: "{}" })).body!.getReader();
    while (!(await reader.read()).done);
  });
  let events = 0;
  const sseText = body.toString("utf8");
  const normalizeMs = await median(RUNS, async () => {
    events = normalizeAll(from, readNativeChunks(sseText)).length;
  });
  const source = createProviderSource({ from, url, model: "bench" });
  let turn = 0;
  const sourceMs = await median(RUNS, async () => {
    // A fresh thread per run: the request is one user message, as a first turn's is.
    const input: AgInput = {
      protocol: "agjson",
      version: "1.0.0-draft.1",
      kind: "start",
      threadId: `th${turn}`,
      turnId: `t${turn++}`,
      messages: [{ id: "u", role: "user", content: [{ type: "text", text: "hi" }] }],
    };
    for await (const _ of source.run(input, new AbortController().signal));
  });
  server.close();
  console.log(`${from} (${file}): ${chunks.length} chunks, ${(body.byteLength / 1024).toFixed(0)} KiB SSE, ${events} AgEvents per turn`);
  console.log(`  transport alone: ${transportMs.toFixed(2)} ms; SSE text → chunks → facet alone: ${normalizeMs.toFixed(2)} ms`);
  console.log(
    `  provider source: ${sourceMs.toFixed(2)} ms/turn, ${Math.round(events / (sourceMs / 1000)).toLocaleString("en")} AgEvents/s; ratio to transport + facet ${(sourceMs / (transportMs + normalizeMs)).toFixed(2)}x`,
  );
}
