// Acceptance of every committed framework recording (record/recordings/<facet>/, docs/record.md):
// the facet of the same name turns the native stream into events that are strict-valid (§0.2),
// meet the §5.0 invariants, fold without error or resync, close each turn exactly once, and agree
// with what the framework itself reported in <name>.final.json — final text, tool calls (name,
// arguments, results) and stop reason. Reads only committed files: no framework is installed here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgBlock, AgMessage } from "../generated/lenient-types.js";
import { isKnownBlock } from "../generated/schema-facts.js";
import type { AgLenientEvent } from "../generated/types.js";
import { isFacetName, normalizeAll, readNativeChunks } from "../src/normalize/index.js";
import { checkStream } from "../src/normalize/stream-check.test-support.js";
import { jsonEqual, reduce, type AgLenientReduceResult } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";

const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), "../record/recordings");

/** The framework's own report (docs/record.md "final.json"). */
interface FinalReport {
  text: string | null;
  toolCalls: { id: string; name?: string; arguments: unknown; result: unknown; isError?: boolean }[];
  stop: "done" | "paused" | "error" | "aborted";
  stopReason: unknown;
  error?: { name: string; message: string };
  framework?: { artifacts?: { artifactId: string; name?: string; text: string }[] };
}

interface Recording {
  facet: string;
  name: string;
  native: string;
  final: FinalReport;
}

function recordings(): Recording[] {
  if (!existsSync(RECORDINGS)) return [];
  return readdirSync(RECORDINGS)
    .sort()
    .flatMap((facet) =>
      readdirSync(join(RECORDINGS, facet))
        .filter((f) => f.endsWith(".native.ndjson"))
        .sort()
        .map((f) => {
          const name = f.slice(0, -".native.ndjson".length);
          const final: FinalReport = JSON.parse(readFileSync(join(RECORDINGS, facet, `${name}.final.json`), "utf8"));
          return { facet, name, native: readFileSync(join(RECORDINGS, facet, f), "utf8"), final };
        }),
    );
}

function textOf(blocks: readonly AgBlock[]): string {
  return blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

/** The final text as the fold holds it: the text of the last assistant message that has any. */
function finalText(folded: AgLenientReduceResult): string | null {
  const withText = folded.messages.filter((m: AgMessage) => m.role === "assistant" && m.content.some((b) => b.type === "text"));
  const last = withText[withText.length - 1];
  return last ? textOf(last.content) : null;
}

/**
 * The text the framework reports, as the fold holds it. The Claude Agent SDK's `result` is the text
 * of its last `assistant` frame; after its non-streaming fallback it sends one frame per block, so
 * that is the answer's last text block (the whole answer is checked in framework-recordings-fallback).
 */
function reportedText(facet: string, folded: AgLenientReduceResult, reported: string | null): string | null {
  const whole = finalText(folded);
  if (facet !== "claude-agent-sdk" || whole === reported) return whole;
  const last = folded.messages.filter((m: AgMessage) => m.role === "assistant" && m.content.some((b) => b.type === "text")).at(-1);
  const texts = (last?.content ?? []).filter((b) => b.type === "text");
  return texts.length > 1 ? textOf(texts.slice(-1)) : whole;
}

/** A tool result's payload equals what the framework fed back: its text, its JSON, or its structured content. */
function resultMatches(block: Extract<AgBlock, { type: "tool-result" }>, expected: unknown): boolean {
  if (expected === null || expected === undefined) return true;
  if (block.structuredContent !== undefined && jsonEqual(block.structuredContent, expected)) return true;
  const text = textOf(block.content);
  if (typeof expected === "string") return text === expected;
  try {
    if (text !== "" && jsonEqual(JSON.parse(text), expected)) return true;
  } catch {
    // not JSON text: compare the data blocks below
  }
  return block.content.some((b) => b.type === "data" && jsonEqual(b.data, expected));
}

function stopOf(folded: AgLenientReduceResult): string | undefined {
  const outcome = folded.turns[folded.turns.length - 1]?.outcome;
  if (!outcome) return undefined;
  return { success: "done", paused: "paused", error: "error", aborted: "aborted", rejected: "aborted" }[outcome.type];
}

const all = recordings();

describe("framework recordings (record/recordings)", () => {
  it("there are recordings to check", () => {
    expect(all.length).toBeGreaterThan(0);
  });

  for (const rec of all) {
    describe(`${rec.facet}/${rec.name}`, () => {
      const facet = rec.facet;
      if (!isFacetName(facet)) {
        it("has a facet of the same name", () => expect(isFacetName(facet), `no facet '${facet}'`).toBe(true));
        return;
      }
      const events: AgLenientEvent[] = normalizeAll(facet, readNativeChunks(rec.native));
      const folded = reduce(events);

      it("every event strict-valid, §5.0 invariants hold, folds without error or resync", () => {
        expect(
          events.flatMap((e) => {
            const v = validateEvent(e, { posture: "strict" });
            return v.ok ? [] : [`seq ${e.seq} ${e.type}: ${v.errors[0]?.message ?? "?"}`];
          }),
        ).toEqual([]);
        expect(checkStream(events)).toEqual([]);
        expect(folded.errors).toEqual([]);
        expect(folded.needsResync).toBe(false);
      });

      it("each turn closes exactly once", () => {
        // §5.0 INV-TURN: every opened turn closes once; `subagent.start` is the sole nested-turn opener (§4).
        const starts = events.filter((e) => e.type === "turn.start" || e.type === "subagent.start").map((e) => e.turnId);
        const closes = events
          .filter((e) => e.type === "turn.done" || e.type === "turn.error" || e.type === "turn.abort")
          .map((e) => e.turnId);
        expect(starts.length).toBeGreaterThan(0);
        expect([...closes].sort()).toEqual([...starts].sort());
      });

      it("final text, tool calls and stop reason equal what the framework reported", () => {
        // An aborted or failed run reports no final text though some streamed: only a reported text is compared.
        if (rec.final.text !== null || rec.final.stop === "done")
          expect(reportedText(facet, folded.result, rec.final.text)).toBe(rec.final.text);
        const blocks = folded.result.messages.flatMap((m) => m.content);
        for (const call of rec.final.toolCalls) {
          const started = blocks.find((b) => b.type === "tool-call" && b.toolCallId === call.id);
          expect(started, `tool call ${call.id} (${call.name})`).toBeDefined();
          if (started?.type !== "tool-call") continue;
          // A call streamed with no name yet (ADK partialArgs cut short) reports none; tool.start's name is required, so "".
          expect(started.name).toBe(call.name ?? "");
          expect(jsonEqual(started.input, call.arguments ?? {}), `arguments of ${call.id}`).toBe(true);
          const done = blocks.find((b) => b.type === "tool-result" && b.toolCallId === call.id);
          if (call.result === null) continue;
          expect(done, `result of ${call.id}`).toBeDefined();
          if (done !== undefined && isKnownBlock(done) && done.type === "tool-result")
            expect(resultMatches(done, call.result), `result of ${call.id}: ${JSON.stringify(done.content)}`).toBe(true);
        }
        expect(stopOf(folded.result)).toBe(rec.final.stop);
        if (rec.final.error) {
          const outcome = folded.result.turns[folded.result.turns.length - 1]?.outcome;
          // The turn.error message is the wire's own; an SDK client may wrap it when it throws
          // (Claude: "Claude Code returned an error result: <errors[0]>"), so the thrown text must contain it.
          const message = outcome?.type === "error" ? outcome.message : undefined;
          expect(message, "the turn's error message").toBeTruthy();
          expect(rec.final.error.message).toContain(message);
        }
        for (const art of rec.final.framework?.artifacts ?? []) {
          const folded_ = folded.result.artifacts.filter((a) => a.artifactId === art.artifactId);
          // §8 item 11: one artifact per id, holding what the framework holds (an append:false update replaced it, D13).
          expect(folded_.length, `artifact ${art.artifactId}`).toBe(1);
          expect(textOf(folded_[0]!.parts)).toBe(art.text);
        }
      });
    });
  }
});
