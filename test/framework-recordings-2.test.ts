// The committed recordings of the Claude Agent SDK, LangGraph and ADK (record/recordings/<framework>/,
// made by record/record.mjs from the real frameworks, docs/record.md) normalized by the facet of the
// same name: every event strict-valid, the §5.0 invariants hold, reduce() folds without error or
// resync, each turn closes exactly once, and the fold agrees with what the framework itself reported
// in `<name>.final.json`: final text, tool calls (name, arguments, result) and how the run stopped.
// Reads only the repository; never needs record/node_modules.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { AgBlock, AgMessage } from "../generated/lenient-types.js";
import { isKnownOutcome } from "../generated/schema-facts.js";
import type { AgLenientEvent } from "../generated/types.js";
import { createNormalizer, readNativeChunks, type FacetName } from "../src/normalize/index.js";
import { interruptId, interruptOrdinal, langGraphXxh3 } from "../src/normalize/frameworks/langgraph-interrupt-id.js";
import { checkStream } from "../src/normalize/stream-check.test-support.js";
import { reduce, type AgLenientReduceResult } from "../src/reduce/index.js";
import { validateEvent } from "../src/validate/index.js";

const RECORDINGS = join(dirname(fileURLToPath(import.meta.url)), "..", "record", "recordings");
const FRAMEWORKS: FacetName[] = ["claude-agent-sdk", "langgraph", "adk"];

interface FinalToolCall {
  id?: string;
  name?: string;
  arguments: unknown;
  result: unknown;
  isError?: boolean;
}

interface Final {
  text: string | null;
  toolCalls: FinalToolCall[];
  stop: "done" | "paused" | "error" | "aborted";
  stopReason: unknown;
  framework?: { interruptPositions?: { id: string; position: number }[] };
}

function recordingsOf(framework: string): string[] {
  try {
    return readdirSync(join(RECORDINGS, framework))
      .filter((f) => f.endsWith(".native.ndjson"))
      .map((f) => f.slice(0, -".native.ndjson".length))
      .sort();
  } catch {
    return [];
  }
}

function normalize(framework: FacetName, text: string): AgLenientEvent[] {
  const n = createNormalizer(framework);
  const out: AgLenientEvent[] = [];
  for (const chunk of readNativeChunks(text)) out.push(...n.push(chunk));
  out.push(...n.flush());
  return out;
}

const textOf = (blocks: AgBlock[]): string => blocks.map((b) => (b.type === "text" ? b.text : "")).join("");

/** The last assistant message's text: what a user of the framework reads as its answer. */
function finalText(result: AgLenientReduceResult): string | null {
  const assistant = result.messages.filter((m: AgMessage) => m.role === "assistant" && textOf(m.content) !== "");
  const last = assistant[assistant.length - 1];
  return last ? textOf(last.content) : null;
}

/**
 * The text the framework reports, as the fold holds it. The Claude Agent SDK's `result` is the text
 * of its last `assistant` frame; after its non-streaming fallback it sends one frame per block, so
 * that is the answer's last text block (the whole answer is checked in framework-recordings-fallback).
 */
function reportedText(framework: FacetName, result: AgLenientReduceResult, reported: string | null): string | null {
  const whole = finalText(result);
  if (framework !== "claude-agent-sdk" || whole === reported) return whole;
  const last = result.messages.filter((m: AgMessage) => m.role === "assistant" && textOf(m.content) !== "").at(-1);
  const texts = (last?.content ?? []).filter((b) => b.type === "text");
  return texts.length > 1 ? textOf(texts.slice(-1)) : whole;
}

/** A tool result as the framework reported it: a string is the result's text, anything else its structured form. */
function resultMatches(reported: unknown, block: Extract<AgBlock, { type: "tool-result" }> | undefined): boolean {
  if (reported === null || reported === undefined) return block === undefined || block.outcome !== "ok";
  if (block === undefined) return false;
  const text = textOf(block.content);
  if (typeof reported === "string") return text === reported;
  if (Array.isArray(reported))
    return text === reported.map((p) => (typeof p === "object" && p !== null && "text" in p ? String(p.text) : "")).join("");
  if (block.structuredContent !== undefined) return JSON.stringify(block.structuredContent) === JSON.stringify(reported);
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(reported);
  } catch {
    return false;
  }
}

/**
 * D10 (§1.1, §5.0 INV-TURN, INV-FLUSH): a nested turn takes exactly one terminal (turn.done |
 * turn.error | turn.abort), which carries its outcome; `subagent.done` — the return notice pairing
 * `subagent.start` — comes at most once, right after that terminal, naming the same parent, and
 * only for a subagent that returned: a nested turn cut by its parent's end or the stream's end
 * (`turn.abort` parent-ended / stream-truncated) has none. Returns the violations.
 */
function nestedTurnViolations(events: AgLenientEvent[]): string[] {
  const out: string[] = [];
  const TERMINALS = new Set(["turn.done", "turn.error", "turn.abort"]);
  for (const start of events.filter((e): e is Extract<AgLenientEvent, { type: "subagent.start" }> => e.type === "subagent.start")) {
    const id = start.turnId;
    const terminals = events.map((e, i) => [e, i] as const).filter(([e]) => TERMINALS.has(e.type) && e.turnId === id);
    const dones = events.map((e, i) => [e, i] as const).filter(([e]) => e.type === "subagent.done" && e.turnId === id);
    if (terminals.length !== 1) {
      out.push(`${id}: ${terminals.length} terminals`);
      continue;
    }
    const [terminal, at] = terminals[0]!;
    const cut = terminal.type === "turn.abort" && (terminal.reason === "parent-ended" || terminal.reason === "stream-truncated");
    if (dones.length > 1) out.push(`${id}: ${dones.length} subagent.done`);
    if (cut && dones.length > 0) out.push(`${id}: cut (${terminal.type === "turn.abort" ? terminal.reason : ""}) yet subagent.done`);
    if (!cut && dones.length !== 1) out.push(`${id}: returned without subagent.done`);
    for (const [done, i] of dones) {
      if (i !== at + 1) out.push(`${id}: subagent.done at ${i}, not right after its terminal at ${at}`);
      if (done.type === "subagent.done" && done.parentTurnId !== start.parentTurnId)
        out.push(`${id}: subagent.done names parent ${done.parentTurnId}, subagent.start ${start.parentTurnId}`);
    }
  }
  return out;
}

const STOP_OF_OUTCOME: Record<string, Final["stop"]> = { success: "done", paused: "paused", error: "error", aborted: "aborted" };

describe("framework recordings (claude-agent-sdk, langgraph, adk)", () => {
  it("each framework has committed recordings", () => {
    for (const fw of FRAMEWORKS) expect(recordingsOf(fw).length, fw).toBeGreaterThanOrEqual(4);
  });

  for (const framework of FRAMEWORKS) {
    for (const name of recordingsOf(framework)) {
      it(`${framework}/${name}: valid, conformant, and equal to what the framework reported`, () => {
        const events = normalize(framework, readFileSync(join(RECORDINGS, framework, `${name}.native.ndjson`), "utf8"));
        const final = JSON.parse(readFileSync(join(RECORDINGS, framework, `${name}.final.json`), "utf8")) as Final;

        expect(events.filter((e) => !validateEvent(e, { posture: "strict" }).ok)).toEqual([]);
        expect(checkStream(events)).toEqual([]);
        const { result, errors, needsResync } = reduce(events);
        expect(errors).toEqual([]);
        expect(needsResync).toBe(false);

        expect(nestedTurnViolations(events)).toEqual([]);

        // Each turn closes exactly once (INV-TURN).
        const opened = events.filter((e) => e.type === "turn.start" || e.type === "subagent.start").map((e) => e.turnId);
        const closed = events
          .filter((e) => e.type === "turn.done" || e.type === "turn.error" || e.type === "turn.abort")
          .map((e) => e.turnId);
        expect([...closed].sort()).toEqual([...opened].sort());

        // A run that ended in error reports no final output (text null); its streamed text still folds.
        if (!(final.stop === "error" && final.text === null))
          expect(reportedText(framework, result, final.text)).toBe(final.text === "" ? null : final.text);

        // final.json lists the calls the framework ran; a provider-executed (server) tool ran at the provider.
        const calls = result.messages
          .flatMap((m) => m.content)
          .filter((b): b is Extract<AgBlock, { type: "tool-call" }> => b.type === "tool-call" && b.providerExecuted !== true);
        const results = new Map(
          result.messages
            .flatMap((m) => m.content)
            .filter((b): b is Extract<AgBlock, { type: "tool-result" }> => b.type === "tool-result")
            .map((b) => [b.toolCallId, b]),
        );
        // A call the framework recorded without a name (a malformed streamed call) is named "" on the wire.
        const reported = final.toolCalls;
        expect(calls.map((c) => c.name)).toEqual(reported.map((c) => c.name ?? ""));
        reported.forEach((c, i) => {
          const call = calls[i]!;
          expect(call.input, `${c.name} arguments`).toEqual(c.arguments ?? {});
          const block = results.get(call.toolCallId);
          expect(resultMatches(c.result, block), `${c.name} result ${JSON.stringify(c.result)} vs ${JSON.stringify(block)}`).toBe(true);
          if (c.isError === true) expect(["error", "denied"]).toContain(block?.outcome);
        });

        // The run's last top-level turn (a streaming-input query can run several).
        const root = result.turns.filter((t) => t.parentTurnId === undefined).at(-1);
        expect(STOP_OF_OUTCOME[root?.outcome?.type ?? ""], JSON.stringify(root?.outcome)).toBe(final.stop);

        // ADK: exactly the calls an event listed in `longRunningToolIds` start `longRunning` (§4 tool.start).
        if (framework === "adk") {
          const listed = new Set<string>();
          for (const chunk of readNativeChunks(readFileSync(join(RECORDINGS, framework, `${name}.native.ndjson`), "utf8"))) {
            const ids = (chunk as { longRunningToolIds?: unknown } | null)?.longRunningToolIds;
            if (Array.isArray(ids)) for (const id of ids) listed.add(String(id));
          }
          const starts = events.filter((e): e is Extract<AgLenientEvent, { type: "tool.start" }> => e.type === "tool.start");
          expect(starts.map((s) => [s.toolCallId, s.longRunning === true])).toEqual(
            starts.map((s) => [s.toolCallId, listed.has(s.toolCallId)]),
          );
        }

        // LangGraph: each pending interrupt is one ask, and a lone one's positional ordinal is the
        // number of resume values its task consumed — LangGraph's own `__resume__` write (§7 Resume
        // binding, §8 item 6, §10 item 11).
        const positions = final.framework?.interruptPositions;
        if (positions !== undefined) {
          const outcome = root?.outcome;
          const asks = outcome !== undefined && isKnownOutcome(outcome) && outcome.type === "paused" ? outcome.asks : [];
          // D14: the LangGraph id rides the ask's metadata; a positional askId is that id and the ordinal.
          expect(asks.map((a) => a.metadata?.["langgraph/interruptId"])).toEqual(positions.map((p) => p.id));
          if (positions.length === 1) {
            expect(asks.map((a) => [a.resumeBinding, a.ordinal])).toEqual([["positional", positions[0]!.position]]);
            expect(asks.map((a) => a.askId)).toEqual([`${positions[0]!.id}:${positions[0]!.position}`]);
          }
        }
      });
    }
  }
});

// The recordings are only evidence if the run was offline (docs/record.md "Offline"). The Claude Agent
// SDK runs a native binary with an environment of its own, out of netguard.cjs's reach; the harness
// therefore traces the run's whole process tree. Its self-test starts such a child (a Node without
// NODE_OPTIONS): its loopback connect must appear in the trace, and its connect to 192.0.2.1 must
// fail the run. Needs strace (Linux); record/node_modules is not needed.
const HAS_STRACE = spawnSync("strace", ["-V"]).status === 0;
describe("record harness: every process a framework spawns is observed", () => {
  it.skipIf(!HAS_STRACE)("a subprocess outside the Node preload is traced, and its off-loopback connect fails the run", () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), "..");
    const run = spawnSync(process.execPath, [join(root, "record", "record.mjs"), "--self-test"], { encoding: "utf8", timeout: 60_000 });
    expect(run.stderr).toMatch(/record: self-test ok/);
    expect(run.status).toBe(0);
  });
});

// D10 over every snapshot of the three facets, recorded and hand-written: the nested-turn rule
// holds, and the snapshots exercise both sides of it (a returned subagent, a cut one).
const CONFORMANCE = join(dirname(fileURLToPath(import.meta.url)), "..", "conformance", "normalize");
describe("D10: a nested turn's one terminal, and subagent.done only when it returned", () => {
  const all: { name: string; events: AgLenientEvent[] }[] = FRAMEWORKS.flatMap((fw) =>
    readdirSync(join(CONFORMANCE, fw))
      .filter((f) => f.endsWith(".json"))
      .map((f) => ({
        name: `${fw}/${f}`,
        events: (JSON.parse(readFileSync(join(CONFORMANCE, fw, f), "utf8")) as { expect: AgLenientEvent[] }).expect,
      })),
  );
  it("holds on every snapshot", () => {
    expect(all.flatMap(({ name, events }) => nestedTurnViolations(events).map((v) => `${name}: ${v}`))).toEqual([]);
  });
  it("the snapshots cover a returned subagent and subagents cut by their parent and by the stream's end", () => {
    const seen = new Set(
      all.flatMap(({ events }) =>
        events.flatMap((e) =>
          e.type === "subagent.done"
            ? ["returned"]
            : e.type === "turn.abort" && events.some((s) => s.type === "subagent.start" && s.turnId === e.turnId)
              ? [e.reason]
              : [],
        ),
      ),
    );
    expect([...seen].sort()).toEqual(["parent-ended", "returned", "stream-truncated"]);
  });
});

// LangGraph derives a task's n-th interrupt id from its namespace and n (§7 Resume binding); the
// facet recomputes it to read the ordinal off the id. The port must agree with the library's own
// hash bit for bit on every input length (its 0–16, 17–128, 129–240 and long paths): checked
// against the installed library when the record workspace is installed.
const LG_HASH = join(dirname(fileURLToPath(import.meta.url)), "..", "record", "node_modules", "@langchain", "langgraph", "dist", "hash.js");
describe("langgraph interrupt ids", () => {
  it.skipIf(!existsSync(LG_HASH))("the XXH3 port equals @langchain/langgraph's own on inputs of every length up to 600 bytes", async () => {
    const { XXH3 } = (await import(LG_HASH)) as { XXH3: (s: string) => string };
    let x = 7;
    const mismatches: number[] = [];
    for (let len = 0; len <= 600; len++) {
      let s = len > 4 ? "é漢" : "";
      while (s.length < len) {
        x = (x * 1103515245 + 12345) & 0x7fffffff;
        s += String.fromCharCode(32 + (x % 95));
      }
      if (langGraphXxh3(s) !== XXH3(s)) mismatches.push(len);
    }
    expect(mismatches).toEqual([]);
  });

  it("an id is found at the ordinal it was made for, in a root and in a nested namespace", () => {
    for (const ns of ["review:fe1ea4fb-b02a-5ddf-a961-2e0b021c448d", `sub:${"a".repeat(36)}|${"deep:".repeat(40)}x`]) {
      for (const k of [0, 1, 2, 7]) expect(interruptOrdinal(ns, interruptId(ns, k))).toBe(k);
      expect(interruptOrdinal(ns, "0".repeat(32))).toBeUndefined();
    }
  });
});
