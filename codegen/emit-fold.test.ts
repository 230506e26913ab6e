// The fold scaffold's family table (emit-fold.ts): every §5 row of the schema lands in exactly one
// family of src/reduce/, and a row that fits none stops the generator instead of folding nowhere.
import { describe, expect, it } from "vitest";
import { FOLD_FAMILIES, foldFamily } from "./emit-fold.js";
import type { EventEntry } from "./event-table.js";

const entry = (type: string, fold: EventEntry["fold"]): EventEntry => ({ type, def: "AgX", profile: "CORE", fold });

describe("foldFamily", () => {
  it("names the family by fold kind, by block kind for streamed-block rows, by segment for live-only rows", () => {
    expect(foldFamily(entry("subagent.start", "turn-open"))).toBe("turn");
    expect(foldFamily(entry("messages.snapshot", "snapshot-replace"))).toBe("snapshot");
    expect(foldFamily(entry("reasoning.opaque.delta", "scratch-append"))).toBe("reasoning");
    expect(foldFamily(entry("tool.args.assembled", "block-replace"))).toBe("tool");
    expect(foldFamily(entry("content.block", "block-insert"))).toBe("content");
    expect(foldFamily(entry("hitl.ask", "live-only"))).toBe("hitl");
    expect(foldFamily(entry("ui.surface.end", "live-only"))).toBe("ui");
    expect(foldFamily(entry("step.done", "live-only"))).toBe("turn");
    expect(foldFamily(entry("host.context", "live-only"))).toBe("ui");
  });

  it("stops the generator on a row that belongs to no family", () => {
    expect(() => foldFamily(entry("widget.delta", "block-append"))).toThrow(/no §5 family/);
    expect(() => foldFamily(entry("telemetry.ping", "live-only"))).toThrow(/no §5 family/);
  });

  it("lists twelve families, each once", () => {
    expect(new Set(FOLD_FAMILIES).size).toBe(FOLD_FAMILIES.length);
    expect(FOLD_FAMILIES.length).toBe(12);
  });
});
