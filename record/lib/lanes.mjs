// Where a framework's recording interleaves frames of agents that run at the same time, and so
// depends on timing: `make record-check` compares each lane in order, not the interleaving of
// lanes (docs/record.md "Lanes"). A framework with no entry is compared line for line.
import { maskVolatile } from "./volatile.mjs";

/**
 * Claude Code runs an Agent (Task) tool's subagent as a background task: whether the subagent's
 * last message and the task's completion frames come before the parent's next model call or after
 * its result is a race between two processes, and so is whether that result's totals (cost, model
 * usage, the count of completed subagents) include the subagent. The parent's own frames keep their
 * order.
 */
const CLAUDE_TASK_FRAMES = new Set(["task_updated", "task_notification", "background_tasks_changed"]);
const CLAUDE_RACED_TOTALS = ["total_cost_usd", "modelUsage", "model_usage_since_last_result", "subagent_stats"];

/** Per framework: the lane of one frame (a parsed `.native.ndjson` line), and the frame with what the race decides masked. */
export const LANES = {
  "claude-agent-sdk": {
    laneOf: (frame) => {
      if (frame?.parent_tool_use_id != null) return `subagent ${frame.parent_tool_use_id}`;
      if (frame?.type === "system" && CLAUDE_TASK_FRAMES.has(frame.subtype)) return "tasks";
      return "main";
    },
    unraced: (frame) =>
      frame?.type === "result"
        ? { ...frame, ...Object.fromEntries(CLAUDE_RACED_TOTALS.filter((k) => k in frame).map((k) => [k, `<${k}>`])) }
        : frame,
  },
};

/**
 * Whether two `.native.ndjson` recordings of `framework` hold the same frames, lane by lane, each
 * lane in order with its volatile fields and what the race decides masked; `false` for a framework
 * that has no lanes.
 */
export function sameByLanes(framework, committed, fresh) {
  const lanes = LANES[framework];
  if (lanes === undefined) return false;
  const split = (text) => {
    const byLane = new Map();
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const frame = JSON.parse(line);
      const lane = lanes.laneOf(frame);
      if (!byLane.has(lane)) byLane.set(lane, []);
      byLane.get(lane).push(JSON.stringify(lanes.unraced(frame)));
    }
    return new Map([...byLane].map(([lane, lines]) => [lane, maskVolatile(lines.join("\n"), true).join("\n")]));
  };
  const [a, b] = [split(committed), split(fresh)];
  return a.size === b.size && [...a].every(([lane, text]) => b.get(lane) === text);
}
