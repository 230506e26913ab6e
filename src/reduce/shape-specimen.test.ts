// The specimen stream index.ts folds at load (shape-specimen.ts) must be an ordinary valid stream
// that folds cleanly: a specimen that raised an issue or failed validation would keep a fold
// state of a shape real streams never build, and the maps it is there to keep alive would differ.

import { describe, expect, it } from "vitest";
import { validateEvent } from "../validate/index.js";
import { reduce } from "./index.js";
import { specimenStream } from "./shape-specimen.js";

describe("the shape specimen (hidden classes kept alive across reducers)", () => {
  it("is valid AgJSON v1, event by event, in the strict posture (§4)", () => {
    for (const event of specimenStream()) {
      const validation = validateEvent(event, { posture: "strict" });
      expect(validation.ok, `${event.type}: ${JSON.stringify(validation)}`).toBe(true);
    }
  });

  it("folds without an issue, building a message with every streamed block kind, state, an artifact and a memory record (§5)", () => {
    const { result, errors, needsResync } = reduce(specimenStream());
    expect(errors).toEqual([]);
    expect(needsResync).toBe(false);
    expect(result.messages.map((m) => m.content.map((b) => b.type))).toEqual([["reasoning", "text", "tool-call", "text"], ["tool-result"]]);
    expect(result.state).toEqual({ a: 2 });
    expect(result.artifacts).toHaveLength(1);
    expect(result.memory).toHaveLength(1);
    expect(result.turns.map((t) => t.outcome?.type)).toEqual(["success"]);
  });
});
