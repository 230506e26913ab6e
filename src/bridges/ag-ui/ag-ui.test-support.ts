/**
 * What the AG-UI bridge tests share: every recorded AgEvent stream the project has (the reduce
 * conformance streams, the normalized provider corpus, the samples) and the two checks the real AG-UI
 * packages make — `EventSchemas` on each event and `verifyEvents` on the whole stream.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { verifyEvents } from "@ag-ui/client";
import { EventSchemas } from "@ag-ui/core/schemas";
import { from, lastValueFrom, toArray } from "rxjs";
import type { AgBlock } from "../../../generated/lenient-types.js";
import type { AgLenientReduceResult } from "../../reduce/index.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { isKnownBlock, isKnownOutcome } from "../../../generated/schema-facts.js";
import { listFixtureFiles, loadFixture } from "../../normalize/fixture-corpus.test-support.js";
import { normalizeAll, readNativeChunks } from "../../normalize/index.js";
import { validateEvent } from "../../validate/index.js";
import type { AgUiEvent } from "./vocabulary.js";

export const REPO = join(dirname(fileURLToPath(import.meta.url)), "../../..");

function walk(dir: string, suffix: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path, suffix));
    else if (entry.name.endsWith(suffix)) out.push(path);
  }
  return out.sort();
}

/** One recorded AgEvent stream, its events validated (lenient, known types) as the bridge's callers must. */
export interface RecordedStream {
  name: string;
  events: AgLenientEvent[];
}

function valid(raw: unknown[]): AgLenientEvent[] {
  const out: AgLenientEvent[] = [];
  for (const x of raw) {
    const v = validateEvent(x, { posture: "lenient" });
    if (v.ok && v.known) out.push(v.event);
  }
  return out;
}

/** Every recorded AgEvent stream: conformance/reduce, fixtures/providers normalized, samples/. */
export function recordedStreams(): RecordedStream[] {
  const streams: RecordedStream[] = [];
  for (const file of walk(join(REPO, "conformance/reduce"), ".json")) {
    const fixture: unknown = JSON.parse(readFileSync(file, "utf8"));
    if (typeof fixture === "object" && fixture !== null && "events" in fixture && Array.isArray(fixture.events)) {
      streams.push({ name: relative(REPO, file), events: valid(fixture.events) });
    }
  }
  for (const file of listFixtureFiles()) {
    const fx = loadFixture(file);
    streams.push({ name: `fixtures/providers/${file}`, events: normalizeAll(fx.facet, fx.chunks) });
  }
  streams.push({
    name: "samples/chat-with-tool.ndjson",
    events: valid(readNativeChunks(readFileSync(join(REPO, "samples/chat-with-tool.ndjson"), "utf8"))),
  });
  streams.push({
    name: "samples/anthropic-weather.chunks.txt",
    events: normalizeAll("anthropic", readNativeChunks(readFileSync(join(REPO, "samples/anthropic-weather.chunks.txt"), "utf8"))),
  });
  return streams;
}

/** The recorded AG-UI streams (fixtures/agui), BOM stripped, one per turn file. */
export function recordedAgUiStreams(): { name: string; events: unknown[] }[] {
  return walk(join(REPO, "fixtures/agui"), ".json").map((file) => ({
    name: relative(REPO, file),
    events: readNativeChunks(readFileSync(file, "utf8")),
  }));
}

/** Each event that `@ag-ui/core`'s EventSchemas refuses, with the first issue. */
export function schemaFailures(events: readonly AgUiEvent[]): { index: number; type: string; issue: string }[] {
  const out: { index: number; type: string; issue: string }[] = [];
  events.forEach((ev, index) => {
    const r = EventSchemas.safeParse(ev);
    if (!r.success) out.push({ index, type: ev.type, issue: JSON.stringify(r.error.issues[0]) });
  });
  return out;
}

/** Runs the stream through `@ag-ui/client`'s verifyEvents; resolves to its error message, or undefined. */
export async function verifyFailure(events: readonly AgUiEvent[]): Promise<string | undefined> {
  try {
    await lastValueFrom(from(events).pipe(verifyEvents(), toArray()), { defaultValue: [] });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/**
 * What issue 19 says a round trip must keep (text, tool calls and results, reasoning, state,
 * interrupts), read off a fold: ids, block boundaries and AgJSON-only fields left out.
 */
export function kept(result: AgLenientReduceResult) {
  const blocks = result.messages.flatMap((m) => m.content).filter(isKnownBlock);
  const text = (bs: AgBlock[]) => bs.map((b) => (isKnownBlock(b) && b.type === "text" ? b.text : "")).join("");
  return {
    text: result.messages.map((m) => text(m.content)).join(""),
    toolCalls: blocks.flatMap((b) => (b.type === "tool-call" ? [{ toolCallId: b.toolCallId, name: b.name, input: b.input }] : [])),
    toolResults: blocks.flatMap((b) => (b.type === "tool-result" ? [{ toolCallId: b.toolCallId, text: text(b.content) }] : [])),
    reasoning: blocks.flatMap((b) => (b.type === "reasoning" ? [{ text: b.text ?? "", opaque: b.opaque?.value }] : [])),
    state: result.state,
    asks: result.turns.flatMap((t) =>
      t.outcome !== undefined && isKnownOutcome(t.outcome) && t.outcome.type === "paused"
        ? t.outcome.asks.map((a) => ({ askId: a.askId, toolCallId: a.toolCallId, message: a.message }))
        : [],
    ),
  };
}
