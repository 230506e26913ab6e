// The wrong-`--from` hint of `agjson normalize` (facet-sniff.ts): a Pydantic AI agent-run line is
// recognised by its `event_kind` (messages.py / run.py discriminators, docs/normalize/pydantic-ai.md).
import { describe, expect, it } from "vitest";
import { likelyFacet } from "./facet-sniff.js";

describe("likelyFacet", () => {
  it("names pydantic-ai for the framework's event kinds, and nothing for an unknown kind", () => {
    expect(likelyFacet({ index: 0, part: { content: "Hi", part_kind: "text" }, previous_part_kind: null, event_kind: "part_start" })).toBe("pydantic-ai");
    expect(likelyFacet({ result: { output: "ok" }, event_kind: "agent_run_result" })).toBe("pydantic-ai");
    expect(likelyFacet({ event_kind: "something_else" })).toBeUndefined();
    // Gemini Interactions' `event_type` is not confused with it.
    expect(likelyFacet({ event_type: "content.delta" })).toBe("gemini-interactions");
  });
});
