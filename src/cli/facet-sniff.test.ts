// The wrong-`--from` hint of `agjson normalize` (facet-sniff.ts): a Pydantic AI agent-run line is
// recognised by its `event_kind` (messages.py / run.py discriminators, docs/normalize/pydantic-ai.md).
import { describe, expect, it } from "vitest";
import { facetsLike } from "./facet-sniff.js";

describe("facetsLike", () => {
  it("names pydantic-ai for the framework's event kinds, and nothing for an unknown kind", () => {
    expect(
      facetsLike({ index: 0, part: { content: "Hi", part_kind: "text" }, previous_part_kind: null, event_kind: "part_start" }),
    ).toEqual(["pydantic-ai"]);
    expect(facetsLike({ result: { output: "ok" }, event_kind: "agent_run_result" })).toEqual(["pydantic-ai"]);
    expect(facetsLike({ event_kind: "something_else" })).toEqual([]);
    // Gemini Interactions' `event_type` is not confused with it.
    expect(facetsLike({ event_type: "content.delta" })).toEqual(["gemini-interactions"]);
  });
});
