// docs/spec-decisions.md D16: what the Claude Agent SDK states beside the provider's content about a
// tool call (`tool_use_meta`) and its result (`tool_result_meta`: the permission decision) rides
// providerMetadata["claude-agent-sdk"] on the call and on the result (§0.2: nothing dropped).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AgBlock } from "../../../generated/lenient-types.js";
import { reduce } from "../../reduce/index.js";
import { normalizeAll, readNativeChunks } from "../index.js";

const RECORDINGS = join(import.meta.dirname, "..", "..", "..", "record", "recordings", "claude-agent-sdk");
const chunks = (name: string): unknown[] => readNativeChunks(readFileSync(join(RECORDINGS, `${name}.native.ndjson`), "utf8"));

function blocksOf(native: unknown[]): AgBlock[] {
  const events = normalizeAll("claude-agent-sdk", native);
  const folded = reduce(events);
  expect(folded.errors).toEqual([]);
  return folded.result.messages.flatMap((m) => m.content);
}

type Of<T extends AgBlock["type"]> = Extract<AgBlock, { type: T }>;
const call = (blocks: AgBlock[], id: string) => blocks.find((b): b is Of<"tool-call"> => b.type === "tool-call" && b.toolCallId === id);
const result = (blocks: AgBlock[], id: string) =>
  blocks.find((b): b is Of<"tool-result"> => b.type === "tool-result" && b.toolCallId === id);

describe("Claude Agent SDK tool_use_meta / tool_result_meta (D16)", () => {
  const id = "toolu_01Mcp0UpdateIssueList000";

  it("the call keeps its display names, the result its accepted permission decision (streamed partials)", () => {
    const blocks = blocksOf(chunks("mcp-tool"));
    expect(call(blocks, id)?.providerMetadata?.["claude-agent-sdk"]).toEqual({
      toolUseMeta: { display_name: "UpdateIssueList", server_display_name: "issues", tool_name: "updateIssueList" },
    });
    expect(result(blocks, id)?.providerMetadata?.["claude-agent-sdk"]).toEqual({
      toolResultMeta: { permission_decision: { decision: "accept", source: "config", reason_type: "rule" } },
    });
  });

  it("the same with partials off: the call is rebuilt from the assistant frame that states its meta", () => {
    const blocks = blocksOf(chunks("mcp-tool").filter((c) => (c as { type?: string }).type !== "stream_event"));
    expect(call(blocks, id)?.providerMetadata?.["claude-agent-sdk"]).toEqual({
      toolUseMeta: { display_name: "UpdateIssueList", server_display_name: "issues", tool_name: "updateIssueList" },
    });
  });

  it("a refused call's result is denied and keeps the decision's source and the non-execution kind", () => {
    const blocks = blocksOf(chunks("denied"));
    const denied = result(blocks, id);
    expect(denied).toMatchObject({ outcome: "denied" });
    expect(denied?.providerMetadata?.["claude-agent-sdk"]).toEqual({
      toolResultMeta: { non_execution_kind: "permission-rule", permission_decision: { decision: "reject", source: "user_reject" } },
    });
  });

  it("meta for a call already assembled rides ext, not lost", () => {
    const native = chunks("mcp-tool");
    const at = native.findIndex((c) => Array.isArray((c as { tool_use_meta?: unknown }).tool_use_meta));
    const late = [...native];
    const [frame] = late.splice(at, 1);
    late.splice(late.length - 1, 0, frame); // after the call was assembled and answered
    const events = normalizeAll("claude-agent-sdk", late);
    expect(events.filter((e) => e.type === "ext.anthropic.tool-use-meta")).toEqual([
      expect.objectContaining({
        toolCallId: id,
        toolUseMeta: { display_name: "UpdateIssueList", server_display_name: "issues", tool_name: "updateIssueList" },
      }),
    ]);
  });
});
