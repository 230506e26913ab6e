/**
 * What each provider itself sent, assembled from a recorded native stream into the shape the
 * provider expects back on the next request: Anthropic content blocks, Responses output items,
 * Gemini parts, Chat assistant messages. The round-trip tests compare re-input against these.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { listFixtureFiles, loadFixture } from "../normalize/fixture-corpus.test-support.js";
import type { FacetName } from "../normalize/index.js";
import { isRecord } from "../json-guards.js";

type Json = Record<string, unknown>;

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
    if (isRecord(doc) && Array.isArray(doc.native)) out.push({ name: `conformance/normalize/${facet}/${f}`, facet, chunks: doc.native });
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
    if (!isRecord(c)) continue;
    if (c.type === "message_start") {
      flush();
      current = new Map();
      const content = isRecord(c.message) && Array.isArray(c.message.content) ? c.message.content : [];
      content.forEach((b, i) => isRecord(b) && current!.set(-1000 + i, { block: { ...b }, json: "", stopped: true }));
    } else if (c.type === "content_block_start" && current && isRecord(c.content_block) && typeof c.index === "number") {
      current.set(c.index, { block: { ...c.content_block }, json: "", stopped: false });
    } else if (c.type === "content_block_delta" && current && typeof c.index === "number" && isRecord(c.delta)) {
      const t = current.get(c.index);
      if (!t) continue;
      const d = c.delta;
      if (d.type === "text_delta") t.block.text = String(t.block.text ?? "") + String(d.text);
      else if (d.type === "thinking_delta") t.block.thinking = String(t.block.thinking ?? "") + String(d.thinking);
      else if (d.type === "signature_delta") t.block.signature = String(t.block.signature ?? "") + String(d.signature);
      else if (d.type === "input_json_delta") t.json += String(d.partial_json);
      else if (d.type === "citations_delta")
        t.block.citations = [...(Array.isArray(t.block.citations) ? t.block.citations : []), d.citation];
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
    if (!isRecord(c)) continue;
    if (c.type === "response.created") flush();
    if (c.type === "response.output_item.done" && isRecord(c.item))
      response.push({ index: typeof c.output_index === "number" ? c.output_index : response.length, item: c.item });
  }
  flush();
  return out;
}

/** True when the stream ends without a terminal event (INV-FLUSH keeps what had arrived). */
export function truncated(chunks: unknown[]): boolean {
  const finished = (c: unknown): boolean => {
    if (!isRecord(c)) return false;
    if (
      c.type === "response.completed" ||
      c.type === "response.incomplete" ||
      c.type === "response.failed" ||
      c.type === "error" ||
      c.type === "message_stop"
    )
      return true;
    if (isRecord(c.error)) return true;
    const choices = Array.isArray(c.choices) ? c.choices : Array.isArray(c.candidates) ? c.candidates : [];
    return choices.some((x) => isRecord(x) && ((x.finish_reason ?? null) !== null || (x.finishReason ?? null) !== null));
  };
  const last = [...chunks].reverse().findIndex(finished);
  if (last === -1) return true;
  // Anthropic/Responses: a later response that never closed is truncated too.
  const tail = chunks.slice(chunks.length - last);
  return tail.some((c) => isRecord(c) && (c.type === "message_start" || c.type === "response.created"));
}

/** Gemini: the model parts of every response in order (text fragments as streamed, calls assembled). */
export function geminiNativeParts(chunks: unknown[]): Json[] {
  const out: Json[] = [];
  let open: { args: Json; part: Json; path?: string } | undefined;
  const setPath = (args: Json, path: string, value: unknown, append: boolean): void => {
    const keys = [...path.replace(/^\$/, "").matchAll(/\.([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[1] !== undefined ? m[1] : Number(m[2])));
    let node: Record<string | number, unknown> = args;
    keys.forEach((k, i) => {
      if (i === keys.length - 1) {
        const prior = node[k];
        node[k] = append && typeof prior === "string" && typeof value === "string" ? prior + value : value;
      } else {
        if (typeof node[k] !== "object" || node[k] === null) node[k] = typeof keys[i + 1] === "number" ? [] : {};
        node = node[k] as Record<string | number, unknown>;
      }
    });
  };
  for (const c of chunks) {
    if (!isRecord(c) || !Array.isArray(c.candidates)) continue;
    const cand = c.candidates[0];
    const parts = isRecord(cand) && isRecord(cand.content) && Array.isArray(cand.content.parts) ? cand.content.parts : [];
    for (const part of parts) {
      if (!isRecord(part)) continue;
      const fc = isRecord(part.functionCall) ? part.functionCall : undefined;
      if (
        fc &&
        (typeof fc.name === "string" || fc.willContinue === true) &&
        !Array.isArray(fc.partialArgs) &&
        typeof fc.name === "string"
      ) {
        const call: Json = { name: fc.name, args: isRecord(fc.args) ? fc.args : {} };
        if (typeof fc.id === "string") call.id = fc.id;
        const p: Json = { functionCall: call };
        if (part.thoughtSignature !== undefined) p.thoughtSignature = part.thoughtSignature;
        out.push(p);
        open = fc.willContinue === true ? { args: call.args as Json, part: p } : undefined;
      } else if (fc && Array.isArray(fc.partialArgs) && open) {
        for (const f of fc.partialArgs) {
          if (!isRecord(f) || typeof f.jsonPath !== "string") continue;
          const value = "stringValue" in f ? f.stringValue : "numberValue" in f ? f.numberValue : "boolValue" in f ? f.boolValue : null;
          setPath(open.args, f.jsonPath, value, open.path === f.jsonPath);
          open.path = f.willContinue === true ? f.jsonPath : undefined;
        }
        if (part.thoughtSignature !== undefined) open.part.thoughtSignature = part.thoughtSignature;
      } else if (fc) {
        if (part.thoughtSignature !== undefined && open) open.part.thoughtSignature = part.thoughtSignature;
        if (Object.keys(fc).length === 0) open = undefined;
      } else {
        open = undefined;
        out.push(part);
      }
    }
  }
  return out;
}

/** Chat: each response's assistant message (choice 0): content and assembled tool calls. */
export function chatNativeMessages(chunks: unknown[]): Json[] {
  const out: Json[] = [];
  let id: unknown;
  let current: { content: string; calls: Map<number, Json> } | undefined;
  const flush = (): void => {
    if (current)
      out.push({ content: current.content, tool_calls: [...current.calls.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v) });
    current = undefined;
  };
  for (const c of chunks) {
    if (!isRecord(c) || !Array.isArray(c.choices)) continue;
    if (c.id !== id && c.choices.length > 0) {
      flush();
      id = c.id;
    }
    const choice = c.choices.find((x) => isRecord(x) && (x.index ?? 0) === 0);
    if (!isRecord(choice) || !isRecord(choice.delta)) continue;
    current ??= { content: "", calls: new Map() };
    const d = choice.delta;
    if (typeof d.content === "string") current.content += d.content;
    // Mistral magistral streams content as typed parts; the answer is its text parts.
    else if (Array.isArray(d.content))
      for (const part of d.content)
        if (isRecord(part) && part.type === "text" && typeof part.text === "string") current.content += part.text;
    for (const tc of Array.isArray(d.tool_calls) ? d.tool_calls : []) {
      if (!isRecord(tc)) continue;
      const index = typeof tc.index === "number" ? tc.index : current.calls.size;
      const call = current.calls.get(index) ?? { id: undefined, name: undefined, arguments: "" };
      const fn = isRecord(tc.function) ? tc.function : {};
      if (typeof tc.id === "string") call.id = tc.id;
      if (typeof fn.name === "string") call.name = fn.name;
      if (typeof fn.arguments === "string") call.arguments = String(call.arguments) + fn.arguments;
      current.calls.set(index, call);
    }
  }
  flush();
  return out;
}
