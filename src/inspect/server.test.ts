/**
 * The inspector's server without a browser (docs/inspect.md): how many streams it holds, and what
 * it computes for one — the fold at a selected event against `reduce()` of the same prefix, and
 * the Timeline filters.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { reduce } from "../reduce/index.js";
import { validateEvent } from "../validate/index.js";
import { INSPECT_FROM, loadInspectSource } from "../cli/inspect-source.js";
import { docOf } from "./analyze.js";
import { startInspector, type RunningInspector } from "./server.js";

const sample = readFileSync(new URL("../../samples/chat-with-tool.ndjson", import.meta.url), "utf8");
const running: RunningInspector[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function upload(inspector: RunningInspector, body: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${inspector.port}/api/docs?token=${inspector.token}&name=u`, { method: "POST", body });
  await res.arrayBuffer();
  return res.status;
}

describe("startInspector", () => {
  it("holds at most maxDocs streams: the oldest live one makes room, an upload past them is refused (429)", async () => {
    const inspector = await startInspector({ maxDocs: 2, load: loadInspectSource, formats: INSPECT_FROM });
    running.push(inspector);
    const first = inspector.live({ name: "stream 1", source: "live" });
    inspector.live({ name: "stream 2", source: "live" });
    inspector.live({ name: "stream 3", source: "live" });
    const names = async () =>
      ((await (await fetch(`http://127.0.0.1:${inspector.port}/api/docs?token=${inspector.token}`)).json()) as { name: string }[]).map(
        (d) => d.name,
      );
    expect(await names()).toEqual(["stream 2", "stream 3"]);
    expect(first.id).toBe("1");
    // An upload also makes room by dropping a live stream; with none left to drop it is refused.
    expect(await upload(inspector, sample)).toBe(200);
    expect(await upload(inspector, sample)).toBe(200);
    expect(await names()).toEqual(["u", "u"]);
    expect(await upload(inspector, sample)).toBe(429);
  });
});

describe("InspectDoc", () => {
  const events = sample
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as unknown);
  const doc = docOf("1", { meta: { name: "s", source: "AgEvent stream" }, records: events.map((value) => ({ value })) });

  it("folds at any event as reduce() folds that prefix, forwards, backwards and after a jump (§5 INV-FOLD)", () => {
    for (const at of [22, 3, 4, 15, 0, 21, 9, 9, -1]) {
      const prefix = events.slice(0, at + 1).flatMap((e) => {
        const v = validateEvent(e, { posture: "lenient" });
        return v.ok ? [v.event] : [];
      });
      expect(doc.foldAt(at).result, `at ${at}`).toEqual(reduce(prefix).result);
    }
  });

  it("filters the Timeline by family, ids, text and problems, and finds an event's place in a filter", () => {
    expect(doc.rows(0, 100, { family: "tool" }).rows.map((r) => r.type)).toEqual([
      "tool.start",
      "tool.args.delta",
      "tool.args.delta",
      "tool.args.assembled",
      "tool.done",
    ]);
    expect(doc.rows(0, 100, { message: "msg_2" }).total).toBe(2);
    expect(doc.rows(0, 100, { tool: "call_1" }).total).toBe(5);
    expect(doc.rows(0, 100, { q: "LIGHT RAIN" }).total).toBe(2);
    expect(doc.rows(0, 100, { problems: true }).total).toBe(0);
    expect(doc.positionOf(15, { family: "tool" })).toBe(4);
    expect(doc.positionOf(0, { family: "tool" })).toBe(-1);
    expect(doc.rows(20, 100).rows.map((r) => r.index)).toEqual([20, 21, 22]);
  });
});

describe("InspectDoc checkpoints (a long stream)", () => {
  it("folds at any event of a 23,000-event stream as reduce() folds that prefix, from checkpoints built in the background", async () => {
    const base = sample
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const events: Record<string, unknown>[] = [];
    for (let t = 0; events.length < 23_000; t++) {
      for (const e of base)
        events.push(
          JSON.parse(
            JSON.stringify(e)
              .replaceAll("turn_1", `turn_${t}`)
              .replaceAll("msg_", `m${t}_`)
              .replaceAll("txt_", `x${t}_`)
              .replaceAll("rs_1", `rs_${t}`)
              .replaceAll("call_1", `call_${t}`),
          ) as Record<string, unknown>,
        );
    }
    events.forEach((e, i) => (e.seq = i));
    const doc = docOf("1", { meta: { name: "long", source: "AgEvent stream" }, records: events.map((value) => ({ value })) });
    try {
      const last = events.length - 1;
      doc.foldAt(last - 1);
      await expect.poll(() => doc.parkedCheckpoints, { timeout: 30_000 }).toBe(23);
      const valid = events.flatMap((e) => {
        const v = validateEvent(e, { posture: "lenient" });
        return v.ok ? [v.event] : [];
      });
      expect(valid).toHaveLength(events.length);
      for (const at of [last - 2, last - 3, 12_345, 1_000, 999, 22_000]) {
        expect(doc.foldAt(at).result, `at ${at}`).toEqual(reduce(valid.slice(0, at + 1)).result);
      }
      // Each checkpoint used became a cursor; the background builds it again.
      expect(doc.parkedCheckpoints).toBeLessThan(23);
      await expect.poll(() => doc.parkedCheckpoints, { timeout: 30_000 }).toBe(23);
    } finally {
      doc.dispose();
    }
  });
});

describe("any input (a stream is hostile input)", () => {
  it("is read into a source or refused with a message, and every view of it is computed without a throw", async () => {
    const fc = await import("fast-check");
    const record = fc.oneof(
      fc.json(),
      fc.string(),
      fc.constantFrom(
        sample.split("\n")[3]!,
        '{"type":"text.delta","seq":"x"}',
        '{"messages":[],"turns":[]}',
        "data: {}\n",
        "[",
        '{"type":"RUN_STARTED"}',
        '["messages",{}]',
      ),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(record, { maxLength: 8 }),
        fc.constantFrom(undefined, "agjson", "anthropic", "langgraph", "a2a"),
        async (records, from) => {
          const loaded = await loadInspectSource(new TextEncoder().encode(records.join("\n")), "x", from);
          if (typeof loaded === "string") {
            expect(loaded.length).toBeGreaterThan(0);
            return;
          }
          const doc = docOf("1", loaded);
          const n = doc.entries.length;
          expect(doc.rows(0, 100).total).toBe(n);
          for (const at of [-1, 0, n - 1]) expect(doc.fold(at).messagesTotal).toBeGreaterThanOrEqual(0);
          if (n > 0) expect(doc.event(n - 1)?.lines.length).toBeGreaterThan(0);
          expect(doc.problems().total).toBeGreaterThanOrEqual(0);
          expect((await doc.next()).targets).toHaveLength(4);
          expect((await doc.protocols()).protocols.map((p) => p.name)).toEqual([
            "AG-UI events",
            "AI SDK UI message chunks",
            "ACP session updates",
          ]);
        },
      ),
      { numRuns: Number(process.env.AGJSON_FUZZ_RUNS ?? 60) > 1000 ? 2000 : 60 },
    );
  });
});
