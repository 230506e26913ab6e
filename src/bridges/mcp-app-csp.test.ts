// §13.3 / §6 Pattern 1a: an MCP Apps surface is model-controlled HTML that the host renders in an
// isolated frame under the resource's `_meta.ui.csp`; AgJSON never enforces the CSP, it only
// carries it. Every place agjson hands the surface on — the fold, the AG-UI bridge with its
// metadata carry off (what a foreign AG-UI client keeps), the AI SDK UI message stream — keeps the
// resource's `_meta.ui` whole. (The ACP bridge is pinned in acp/acp.test.ts.)
import { describe, expect, it } from "vitest";
import type { AgLenientEvent } from "../../generated/types.js";
import { reduce } from "../reduce/index.js";
import { toAgUi } from "./ag-ui/to-ag-ui.js";
import { createUIMessageStreamTransform } from "./ui-message-stream/index.js";

const ui = {
  resourceUri: "ui://weather/card",
  csp: { connectDomains: ["https://api.example"], resourceDomains: ["https://cdn.example"] },
  domain: "weather.example",
  prefersBorder: true,
};
const resource = { uri: "ui://weather/card", mimeType: "text/html;profile=mcp-app", text: "<div>card</div>", _meta: { ui } };
const events: AgLenientEvent[] = [
  { type: "turn.start", seq: 0, threadId: "th", turnId: "t" },
  { type: "message.start", seq: 1, id: "m", role: "assistant", turnId: "t", threadId: "th" },
  { type: "content.block", seq: 2, id: "b", block: { type: "resource", resource } },
  { type: "message.end", seq: 3, id: "m" },
  { type: "turn.done", seq: 4, turnId: "t", outcome: { type: "success" }, finishReason: "stop" },
];

describe("an MCP Apps surface keeps its _meta.ui (csp) wherever agjson hands it on (§13.3, §6 Pattern 1a)", () => {
  it("reduce() folds the resource block with its _meta.ui unchanged", () => {
    const { result } = reduce(events);
    expect(result.messages[0]!.content).toEqual([{ type: "resource", resource }]);
  });

  it("the AG-UI bridge without the carry puts the whole resource, _meta.ui included, on the mcp-app activity", () => {
    const activity = toAgUi(events, { carry: false }).find((e) => e.type === "ACTIVITY_SNAPSHOT");
    expect(activity).toMatchObject({ activityType: "mcp-app", content: { resource } });
  });

  it("the UI message stream carries the whole block, _meta.ui included, as a data-agjson-block part", () => {
    const t = createUIMessageStreamTransform({ passThrough: false });
    const chunks = [...events.flatMap((e) => t.push(e)), ...t.end()];
    expect(chunks.find((c) => c.type === "data-agjson-block")).toMatchObject({ data: { type: "resource", resource } });
  });
});
