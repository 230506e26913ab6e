// The event types reduce() folds must be the schema's (§5: "the table below is exhaustive"): read
// from schema/event.schema.json itself — every AgKnownEvent and its x-agjson-fold — and compared
// with the handler table the family modules assemble (handlers.ts), family by family. A schema
// change that the generated scaffold or a family module has not followed fails here.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { FOLD_FAMILY, KNOWN_EVENT_TYPES } from "../../generated/fold-scaffold.js";
import type { AgEvent } from "../../generated/types.js";
import { FAMILY_FOLDS, FOLD_HANDLERS, RESYNC_EVENT_TYPES } from "./handlers.js";
import { createReducer } from "./index.js";

const SCHEMA = join(dirname(fileURLToPath(import.meta.url)), "../../schema/event.schema.json");

/** (type, x-agjson-fold) of every AgKnownEvent, straight from the schema file. */
function schemaEvents(): Array<{ type: string; fold: string }> {
  const schema: unknown = JSON.parse(readFileSync(SCHEMA, "utf8"));
  const defs = Object(Reflect.get(Object(schema), "$defs"));
  const variants: unknown = Reflect.get(Object(Reflect.get(defs, "AgKnownEvent")), "oneOf");
  if (!Array.isArray(variants)) throw new Error("schema/event.schema.json: AgKnownEvent has no oneOf");
  return variants.map((variant: unknown) => {
    const ref = String(Reflect.get(Object(variant), "$ref"));
    const def = Object(Reflect.get(defs, ref.replace("#/$defs/", "")));
    const type = Reflect.get(Object(Reflect.get(Object(Reflect.get(def, "properties")), "type")), "const");
    return { type: String(type), fold: String(Reflect.get(def, "x-agjson-fold")) };
  });
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe("reduce() handles exactly the schema's folding event types (§5 table)", () => {
  const events = schemaEvents();

  it("the schema's events are the generated table's", () => {
    expect(sorted(events.map((e) => e.type))).toEqual(sorted(KNOWN_EVENT_TYPES));
  });

  it("a handler for every folding row, none for a live-only row", () => {
    const folding = events.filter((e) => e.fold !== "live-only").map((e) => e.type);
    expect(folding.length).toBeGreaterThan(30);
    expect(sorted(Object.keys(FOLD_HANDLERS))).toEqual(sorted(folding));
  });

  it("each family module handles exactly the folding rows of its family", () => {
    for (const [family, table] of Object.entries(FAMILY_FOLDS)) {
      const expected = events.filter((e) => e.fold !== "live-only" && Reflect.get(FOLD_FAMILY, e.type) === family).map((e) => e.type);
      expect({ family, handles: sorted(Object.keys(table)) }).toEqual({ family, handles: sorted(expected) });
    }
  });

  it("the resync points are the two rows that REPLACE the fold wholesale (INV-SEQ)", () => {
    expect(sorted(RESYNC_EVENT_TYPES)).toEqual(["messages.snapshot", "state.snapshot"]);
  });

  it("a live-only event folds to nothing but advances seq (INV-SEQ)", () => {
    const liveOnly = events.filter((e) => e.fold === "live-only").map((e) => e.type);
    expect(liveOnly).toContain("hitl.ask");
    const reducer = createReducer();
    reducer.push({ type: "turn.start", seq: 0, threadId: "th", turnId: "t" });
    // Only the envelope: reduce() reads no other field of a live-only event.
    liveOnly.forEach((type, i) => reducer.push(envelope(type, i + 1)));
    reducer.push({ type: "turn.done", seq: liveOnly.length + 1, turnId: "t", outcome: { type: "success" }, finishReason: "stop" });
    // No INV-SEQ gap before turn.done: every live-only event used its seq slot.
    expect(reducer.errors).toEqual([]);
    expect(reducer.result.turns).toEqual([{ turnId: "t", threadId: "th", outcome: { type: "success" }, finishReason: "stop" }]);
    expect(reducer.result.messages).toEqual([]);
  });
});

/** An event of `type` with only the base envelope (a parsed value, as a caller's would be). */
function envelope(type: string, seq: number): AgEvent {
  return JSON.parse(JSON.stringify({ type, seq }));
}
