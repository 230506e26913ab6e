/**
 * Re-input throughput (`make bench`): a 1,000-message conversation (user questions,
 * assistant turns with reasoning + text + a tool call, tool results — a recorded turn per
 * provider repeated) converted to each target's request by agjson, side by side in the same run
 * with the Vercel AI SDK converting the same conversation: `generateText` up to the request body,
 * with a `fetch` that captures the body and answers at once (no network). Prints ms per
 * conversation and the ratio AI SDK / agjson. Times are wall-clock best of several passes; nothing
 * here asserts a time.
 *
 * Run alone: node bench/run.mjs reinput   (options after --: --passes N)
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel } from "ai";
import type { AgMessage } from "../generated/lenient-types.js";
import { normalizeAll, readNativeChunks, type FacetName } from "../src/normalize/index.js";
import { reduce } from "../src/reduce/index.js";
import { toModelMessages } from "../src/reinput/ai-sdk-messages.test-support.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "../src/reinput/index.js";

const args = process.argv.slice(2);
const at = args.indexOf("--passes");
const PASSES = at >= 0 ? Number(args[at + 1]) : 5;
const SIZE = 1000;

/** A recorded turn repeated (ids made unique) until the conversation holds SIZE messages. */
function conversation(facet: FacetName, file: string): AgMessage[] {
  const chunks = readNativeChunks(readFileSync(join(process.cwd(), "fixtures/providers", file), "utf8"));
  const turn = reduce(normalizeAll(facet, chunks)).result.messages.slice(0, 1);
  const out: AgMessage[] = [];
  for (let i = 0; out.length < SIZE; i++) {
    out.push({ id: `q${i}`, role: "user", content: [{ type: "text", text: `Question ${i}?` }] });
    for (const m of turn) {
      const content = m.content.map((b) => (b.type === "tool-call" ? { ...b, toolCallId: `${b.toolCallId}_${i}` } : b));
      out.push({ ...m, id: `${m.id}_${i}`, content });
      const calls = content.flatMap((b) => (b.type === "tool-call" && b.providerExecuted !== true ? [b] : []));
      if (calls.length > 0)
        out.push({
          id: `r${i}`,
          role: "tool",
          content: calls.map((c) => ({ type: "tool-result", toolCallId: c.toolCallId, content: [{ type: "text", text: "22°C" }] })),
        });
    }
  }
  out.push({ id: "last", role: "user", content: [{ type: "text", text: "Thanks." }] });
  return out;
}

async function best(fn: () => unknown | Promise<unknown>): Promise<number> {
  let min = Infinity;
  for (let p = 0; p < PASSES; p++) {
    const t = performance.now();
    await fn();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const capture: typeof fetch = async () =>
  new Response('{"error":{"message":"bench"}}', { status: 500, headers: { "content-type": "application/json" } });
const anthropic = createAnthropic({ apiKey: "bench", baseURL: "http://127.0.0.1:9/v1", fetch: capture });
const openai = createOpenAI({ apiKey: "bench", baseURL: "http://127.0.0.1:9/v1", fetch: capture });
const google = createGoogleGenerativeAI({ apiKey: "bench", baseURL: "http://127.0.0.1:9/v1beta", fetch: capture });

const CASES: Array<{
  target: string;
  facet: FacetName;
  file: string;
  ours: (m: AgMessage[]) => unknown;
  model: LanguageModel;
  options?: Record<string, Record<string, boolean>>;
}> = [
  {
    target: "anthropic",
    facet: "anthropic",
    file: "anthropic/anthropic-json-tool.1.chunks.txt",
    ours: (m) => toAnthropic(m),
    model: anthropic("claude-sonnet-4-5"),
  },
  {
    target: "openai-responses",
    facet: "openai-responses",
    file: "openai-responses/azure-reasoning-encrypted-content.1.chunks.txt",
    ours: (m) => toOpenAIResponses(m),
    model: openai.responses("gpt-5"),
    options: { openai: { store: false } },
  },
  {
    target: "openai-chat",
    facet: "openai-chat",
    file: "openai-chat/openai-text.chunks.txt",
    ours: (m) => toOpenAIChat(m),
    model: openai.chat("gpt-4o"),
  },
  {
    target: "gemini",
    facet: "gemini",
    file: "google/google-tool-call.chunks.txt",
    ours: (m) => toGemini(m),
    model: google("gemini-2.5-flash"),
  },
];

console.log(`re-input of a ${SIZE}-message conversation, best of ${PASSES} (ms; ratio = AI SDK / agjson)`);
for (const c of CASES) {
  const messages = conversation(c.facet, c.file);
  const { instructions, messages: modelMessages } = toModelMessages(messages);
  const oursMs = await best(() => c.ours(messages));
  const theirsMs = await best(() =>
    generateText({
      model: c.model,
      messages: modelMessages,
      maxRetries: 0,
      ...(instructions ? { instructions } : {}),
      ...(c.options ? { providerOptions: c.options } : {}),
    }).catch(() => undefined),
  );
  console.log(
    `${c.target.padEnd(17)} agjson ${oursMs.toFixed(2).padStart(8)} ms   AI SDK ${theirsMs.toFixed(2).padStart(8)} ms   ratio ${(theirsMs / oursMs).toFixed(1)}x   (${messages.length} messages)`,
  );
}
