/**
 * `make record-check` compares a fresh recording with the committed one. Where a framework runs two
 * agents at once (Claude Code's background subagent), how their frames interleave is a race, and so
 * are the parent result's totals that count the subagent: those recordings are compared lane by
 * lane (record/lib/lanes.mjs, docs/record.md "Lanes"). Anything else must still match, in order.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const { sameByLanes } = (await import(pathToFileURL(join(root, "record/lib/lanes.mjs")).href)) as {
  sameByLanes: (framework: string, committed: string, fresh: string) => boolean;
};
const { maskVolatile } = (await import(pathToFileURL(join(root, "record/lib/volatile.mjs")).href)) as {
  maskVolatile: (text: string, isNdjson: boolean) => string[];
};

const committed = readFileSync(join(root, "record/recordings/claude-agent-sdk/subagent.native.ndjson"), "utf8");
const frames = committed
  .split("\n")
  .filter((l) => l !== "")
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const text = (fs: Record<string, unknown>[]) => `${fs.map((f) => JSON.stringify(f)).join("\n")}\n`;

/** The other order the race gives: the subagent finishes after the parent's result, which then counts it as not completed. */
function subagentLast(): Record<string, unknown>[] {
  const isLate = (f: Record<string, unknown>) =>
    f.parent_tool_use_id != null || (f.type === "system" && ["task_updated", "task_notification"].includes(f.subtype as string));
  const firstResult = frames.findIndex((f) => f.type === "result");
  const late = frames.slice(0, firstResult).filter(isLate);
  // The background_tasks_changed that closes the task moves with it (the one that opened it stays).
  const closing = frames.slice(0, firstResult).findLastIndex((f) => f.subtype === "background_tasks_changed");
  const moved = [...late, frames[closing]!];
  const parent = frames.slice(0, firstResult + 1).filter((f) => !moved.includes(f));
  const result = { ...parent.at(-1)!, total_cost_usd: 0.002901, subagent_stats: { completed: 0 } };
  return [...parent.slice(0, -1), result, ...moved, ...frames.slice(firstResult + 1)];
}

describe("record-check lanes (docs/record.md)", () => {
  it("takes the other order of a background subagent as the same recording, which line-for-line it is not", () => {
    const other = text(subagentLast());
    expect(maskVolatile(other, true)).not.toEqual(maskVolatile(committed, true));
    expect(sameByLanes("claude-agent-sdk", committed, other)).toBe(true);
  });

  it("still tells a change within a lane: two parent frames swapped, a subagent's text changed, a frame lost", () => {
    const swapped = [...frames];
    [swapped[4], swapped[5]] = [swapped[5]!, swapped[4]!];
    expect(sameByLanes("claude-agent-sdk", committed, text(swapped))).toBe(false);
    const edited = frames.map((f) => (f.parent_tool_use_id != null ? JSON.parse(JSON.stringify(f).replace("Hello", "Howdy")) : f));
    expect(sameByLanes("claude-agent-sdk", committed, text(edited))).toBe(false);
    expect(sameByLanes("claude-agent-sdk", committed, text(frames.slice(1)))).toBe(false);
  });

  it("compares a framework without lanes line for line (no second chance)", () => {
    expect(sameByLanes("langgraph", committed, committed)).toBe(false);
  });
});
