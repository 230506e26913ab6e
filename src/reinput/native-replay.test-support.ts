/**
 * What each provider itself sent, assembled from a recorded native stream into the shape the
 * provider expects back on the next request: Anthropic content blocks, Responses output items,
 * Gemini parts, Chat assistant messages. The round-trip tests compare re-input against these.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listFixtureFiles, loadFixture } from "../normalize/fixture-corpus.js";
import type { FacetName } from "../normalize/index.js";

type Json = Record<string, unknown>;
const isObj = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x);

/** One recorded stream: where it came from, its facet, its native chunks. */
export interface RecordedStream {
  name: string;
  facet: FacetName;
  chunks: unknown[];
}

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** Every recorded stream of a facet: the provider corpus and the conformance normalize fixtures. */
export function recordedStreams(facet: FacetName): RecordedStream[] {
  const out: RecordedStream[] = [];
  for (const file of listFixtureFiles()) {
    const fx = loadFixture(file);
    if (fx.facet === facet) out.push({ name: `fixtures/providers/${file}`, facet, chunks: fx.chunks });
  }
  const dir = join(ROOT, "conformance/normalize", facet);
  for (const f of readdirSync(dir).sort()) {
    const doc: unknown = JSON.parse(readFileSync(join(dir, f), "utf8"));
    if (isObj(doc) && Array.isArray(doc.native)) out.push({ name: `conformance/normalize/${facet}/${f}`, facet, chunks: doc.native });
  }
  return out;
}

/** Anthropic: the content blocks of every response, in order, as the SDK accumulates them. */
export function anthropicNativeBlocks(chunks: unknown[]): Json[] {
  const out: Json[] = [];
  let current: Map<number, { block: Json; json: string; stopped: boolean }> | undefined;
  const flush = (): void => {
    if (!current) return;
    for (const [, b] of [...current.entries()].sort((a, b) => a[0] - b[0])) if (b.stopped || b.block.type === "tool_use") out.push(b.block);
    current = undefined;
  };
  for (const c of chunks) {
    if (!isObj(c)) continue;
    if (c.type === "message_start") {
      flush();
      current = new Map();
      const content = isObj(c.message) && Array.isArray(c.message.content) ? c.message.content : [];
      content.forEach((b, i) => isObj(b) && current!.set(-1000 + i, { block: { ...b }, json: "", stopped: true }));
    } else if (c.type === "content_block_start" && current && isObj(c.content_block) && typeof c.index === "number") {
      current.set(c.index, { block: { ...c.content_block }, json: "", stopped: false });
    } else if (c.type === "content_block_delta" && current && typeof c.index === "number" && isObj(c.delta)) {
      const t = current.get(c.index);
      if (!t) continue;
      const d = c.delta;
      if (d.type === "text_delta") t.block.text = String(t.block.text ?? "") + String(d.text);
      else if (d.type === "thinking_delta") t.block.thinking = String(t.block.thinking ?? "") + String(d.thinking);
      else if (d.type === "signature_delta") t.block.signature = String(t.block.signature ?? "") + String(d.signature);
      else if (d.type === "input_json_delta") t.json += String(d.partial_json);
      else if (d.type === "citations_delta") t.block.citations = [...(Array.isArray(t.block.citations) ? t.block.citations : []), d.citation];
      else if (d.type === "compaction_delta") t.block.content = String(t.block.content ?? "") + String(d.content);
    } else if (c.type === "content_block_stop" && current && typeof c.index === "number") {
      const t = current.get(c.index);
      if (!t) continue;
      t.stopped = true;
      if (t.json.trim() !== "") t.block.input = JSON.parse(t.json);
    } else if (c.type === "message_stop") flush();
  }
  flush();
  return out;
}

/** Responses: every output item of every response, as `response.output_item.done` carried it. */
export function responsesNativeItems(chunks: unknown[]): Json[] {
  const out: Json[] = [];
  let response: { index: number; item: Json }[] = [];
  // Items complete out of order; a response's output is in output_index order.
  const flush = (): void => {
    out.push(...response.sort((a, b) => a.index - b.index).map((x) => x.item));
    response = [];
  };
  for (const c of chunks) {
    if (!isObj(c)) continue;
    if (c.type === "response.created") flush();
    if (c.type === "response.output_item.done" && isObj(c.item)) response.push({ index: typeof c.output_index === "number" ? c.output_index : response.length, item: c.item });
  }
  flush();
  return out;
}

/** True when the stream ends without a terminal event (INV-FLUSH keeps what had arrived). */
export function truncated(chunks: unknown[]): boolean {
  const last = [...chunks].reverse().find(isObj);
  const type = last?.type;
  return !(type === "response.completed" || type === "response.incomplete" || type === "response.failed" || type === "error" || type === "message_stop");
}
