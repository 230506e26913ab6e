/**
 * Framework facets (`make bench`, or `node bench/run.mjs frameworks`):
 * 1. native events/s of each framework facet over its committed recordings (record/recordings);
 * 2. on the same run and the same recorded provider bytes, agjson's `anthropic` and
 *    `openai-responses` facets against the Vercel AI SDK's own stream parsing (`streamText` over
 *    @ai-sdk/anthropic / @ai-sdk/openai with a `fetch` returning the recorded SSE body). Both are fed
 *    the bytes as a `ReadableStream`, so both cross the same async boundary. The ratio is AI SDK time
 *    / agjson time (above 1: agjson is faster). Times are wall clock, best of several passes;
 *    nothing here asserts a time. Run from the repository root.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { streamText } from "ai";
import { createChunkReader, createNormalizer, isFacetName, readNativeChunks, type FacetName } from "../src/normalize/index.js";

const PASSES = 5;
const MIN_PASS_MS = 200;
const RECORDINGS = join(process.cwd(), "record/recordings");
const PROVIDERS = join(process.cwd(), "fixtures/providers");

/** Best-of-passes time of one unit of work, in ms per call. */
async function time(work: () => Promise<number> | number): Promise<{ msPerCall: number; units: number }> {
  let best = Infinity;
  let units = 0;
  for (let p = 0; p < PASSES; p++) {
    let calls = 0;
    units = 0;
    const start = performance.now();
    while (performance.now() - start < MIN_PASS_MS) {
      units += await work();
      calls++;
    }
    best = Math.min(best, (performance.now() - start) / calls);
    units /= calls;
  }
  return { msPerCall: best, units };
}

// 1. Native events/s per framework facet.
if (existsSync(RECORDINGS)) {
  console.log("framework facet   recordings   native events   events/s (normalize, push+flush)");
  for (const facet of readdirSync(RECORDINGS).sort()) {
    if (!isFacetName(facet)) continue;
    const streams = readdirSync(join(RECORDINGS, facet))
      .filter((f) => f.endsWith(".native.ndjson"))
      .map((f) => readNativeChunks(readFileSync(join(RECORDINGS, facet, f), "utf8")));
    const total = streams.reduce((n, s) => n + s.length, 0);
    const { msPerCall } = await time(() => {
      for (const chunks of streams) {
        const n = createNormalizer(facet);
        for (const c of chunks) n.push(c);
        n.flush();
      }
      return total;
    });
    console.log(
      `${facet.padEnd(17)} ${String(streams.length).padStart(10)}   ${String(total).padStart(13)}   ${Math.round((total / msPerCall) * 1000)
        .toLocaleString("en-US")
        .padStart(12)}`,
    );
  }
}

// 2. agjson facets vs the AI SDK's own parsing, on the same SSE bytes.
/** The SSE body Anthropic and OpenAI Responses send (`event: <type>` + `data: <chunk>`). */
function sseOf(file: string): string {
  const lines = readFileSync(join(PROVIDERS, file), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "");
  return lines.map((l) => `event: ${String(JSON.parse(l).type)}\ndata: ${l}\n\n`).join("");
}

function byteStream(bytes: Uint8Array): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

async function agjsonRun(facet: FacetName, bytes: Uint8Array): Promise<number> {
  const n = createNormalizer(facet);
  const reader = createChunkReader();
  const decoder = new TextDecoder();
  let events = 0;
  const source = byteStream(bytes).getReader();
  for (let r = await source.read(); !r.done; r = await source.read()) {
    for (const c of reader.push(decoder.decode(r.value, { stream: true }))) events += n.push(c).length;
  }
  for (const c of reader.end()) events += n.push(c).length;
  return events + n.flush().length;
}

async function aiSdkRun(facet: FacetName, bytes: Uint8Array): Promise<number> {
  const fetch = async (): Promise<Response> => new Response(byteStream(bytes), { headers: { "content-type": "text/event-stream" } });
  const model =
    facet === "anthropic"
      ? createAnthropic({ apiKey: "x", fetch })("claude-sonnet-4-5")
      : createOpenAI({ apiKey: "x", fetch }).responses("gpt-5.1");
  const result = streamText({ model, prompt: "x", maxRetries: 0 });
  let parts = 0;
  for await (const _ of result.fullStream) parts++;
  return parts;
}

const SAME_BYTES: Array<[FacetName, string]> = [
  ["anthropic", "anthropic/anthropic-web-search-tool.1.chunks.txt"],
  ["anthropic", "anthropic/anthropic-text.chunks.txt"],
  ["openai-responses", "openai-responses/openai-web-search-tool.1.chunks.txt"],
  ["openai-responses", "openai-responses/azure-text.1.chunks.txt"],
];
console.log("\nsame recorded bytes, fed as a ReadableStream      agjson ms   AI SDK ms   ratio (AI SDK / agjson)");
for (const [facet, file] of SAME_BYTES) {
  const bytes = new TextEncoder().encode(sseOf(file));
  await aiSdkRun(facet, bytes); // warm both paths before timing
  await agjsonRun(facet, bytes);
  const ours = await time(() => agjsonRun(facet, bytes));
  const theirs = await time(() => aiSdkRun(facet, bytes));
  console.log(
    `${`${facet} ${file.split("/")[1]}`.padEnd(50)} ${ours.msPerCall.toFixed(3).padStart(9)}   ${theirs.msPerCall.toFixed(3).padStart(9)}   ${(theirs.msPerCall / ours.msPerCall).toFixed(2).padStart(6)}`,
  );
}
