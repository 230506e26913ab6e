// @openai/agents 0.20 (`run(agent, input, { stream: true })`) against the loopback Responses API.
// Scenario options (all optional):
//   agents:   [{ name, instructions?, model?, tools?: [toolName], handoffs?: [{ agent, toolName? }] }]
//             (default: one agent "Assistant" with every scenario tool); the first agent starts.
//   maxTurns: number passed to run();
//   inputGuardrail / outputGuardrail: { name, tripwire: boolean } — a deterministic guardrail;
//   builtins: ["web_search" | "tool_search" | "apply_patch" | "shell"] — the SDK's built-in tools on the first agent, with
//             deterministic stubs where the runtime executes them (apply_patch: an editor that
//             reports every operation done; shell: a local shell that answers every command with
//             `ran: <command>` on stdout and exit code 0).
// A run that stops on an approval interruption stops there, as a host waiting for a user would.
import OpenAI from "openai";
import {
  Agent,
  applyPatchTool,
  handoff,
  run,
  setDefaultOpenAIClient,
  setOpenAIAPI,
  setTracingDisabled,
  shellTool,
  tool,
  toolSearchTool,
  webSearchTool,
} from "@openai/agents";
import { guardrailResultLines, hostErrorLine } from "../lib/host-error.mjs";

function buildAgents(scenario, tools) {
  const byTool = new Map(tools.map((t) => [t.name, t]));
  const specs = scenario.options?.agents ?? [{ name: "Assistant", tools: tools.map((t) => t.name) }];
  const agents = new Map();
  const toAgentTool = (stub) =>
    tool({
      name: stub.name,
      description: stub.description,
      parameters: stub.parameters,
      strict: false,
      needsApproval: stub.needsApproval,
      execute: (args) => stub.execute(args),
    });
  for (const spec of specs) {
    agents.set(
      spec.name,
      new Agent({
        name: spec.name,
        instructions: spec.instructions ?? "Be brief.",
        model: spec.model ?? "gpt-5.1",
        tools: (spec.tools ?? []).map((n) => {
          if (!byTool.has(n)) throw new Error(`agent ${spec.name} names tool ${n}, which the scenario does not define`);
          return toAgentTool(byTool.get(n));
        }),
      }),
    );
  }
  for (const spec of specs) {
    agents.get(spec.name).handoffs = (spec.handoffs ?? []).map((h) =>
      handoff(agents.get(h.agent), h.toolName ? { toolNameOverride: h.toolName } : {}),
    );
  }
  const first = agents.get(specs[0].name);
  const opts = scenario.options ?? {};
  for (const b of opts.builtins ?? []) first.tools.push(builtinTool(b));
  if (opts.inputGuardrail) first.inputGuardrails = [guardrail(opts.inputGuardrail)];
  if (opts.outputGuardrail) first.outputGuardrails = [guardrail(opts.outputGuardrail)];
  return first;
}

function builtinTool(name) {
  if (name === "web_search") return webSearchTool();
  if (name === "tool_search") return toolSearchTool();
  if (name === "apply_patch") {
    const done = (op) => ({ status: "completed", output: `${op.type} ${op.path}` });
    return applyPatchTool({
      editor: { createFile: async (op) => done(op), updateFile: async (op) => done(op), deleteFile: async (op) => done(op) },
    });
  }
  if (name === "shell") {
    const ran = (command) => ({ stdout: `ran: ${command}\n`, stderr: "", outcome: { type: "exit", exitCode: 0 } });
    return shellTool({ environment: { type: "local" }, shell: { run: async (action) => ({ output: action.commands.map(ran) }) } });
  }
  throw new Error(`unknown builtin tool ${name}`);
}

function guardrail({ name, tripwire }) {
  return {
    name,
    execute: async () => ({ tripwireTriggered: tripwire === true, outputInfo: { checked: true, tripwire: tripwire === true } }),
  };
}

/** What the run reports from its own result object (docs/record.md "final.json"). */
function finalOf(result, thrown) {
  const calls = new Map();
  for (const item of result?.newItems ?? []) {
    const raw = item.rawItem ?? {};
    if (item.type === "tool_call_item" || item.type === "handoff_call_item") {
      const id = raw.callId ?? raw.call_id ?? raw.id;
      let args = raw.arguments ?? raw.actions ?? raw.action ?? raw.operation ?? raw.providerData?.action;
      if (typeof args === "string") {
        try {
          args = JSON.parse(args);
        } catch {
          // keep the string the model produced
        }
      }
      calls.set(id, {
        id,
        name: raw.name ?? `builtin:${String(raw.type).replace(/_call$/, "")}`,
        arguments: args ?? null,
        result: raw.type === "hosted_tool_call" ? (raw.output ?? null) : null,
      });
    }
    if (item.type === "tool_call_output_item" || item.type === "handoff_output_item") {
      const id = raw.callId ?? raw.call_id;
      const call = calls.get(id) ?? { id, name: raw.name, arguments: null };
      const out = item.output ?? raw.output ?? null;
      calls.set(id, { ...call, result: out?.type === "text" && typeof out.text === "string" ? out.text : out });
    }
  }
  const interruptions = result?.interruptions ?? [];
  const usage = (result?.rawResponses ?? []).map((r) => r.usage);
  return {
    text: typeof result?.finalOutput === "string" ? result.finalOutput : (result?.finalOutput ?? null),
    toolCalls: [...calls.values()],
    stop: thrown ? "error" : interruptions.length ? "paused" : "done",
    stopReason: thrown ? thrown.constructor.name : interruptions.length ? "interruptions" : "final_output",
    ...(thrown ? { error: { name: thrown.constructor.name, message: thrown.message } } : {}),
    usage,
    framework: {
      lastAgent: result?.lastAgent?.name ?? null,
      lastResponseId: result?.lastResponseId ?? null,
      interruptions: interruptions.map((i) => ({ type: i.type, rawItem: i.rawItem })),
      inputGuardrailResults: result?.inputGuardrailResults ?? [],
      outputGuardrailResults: result?.outputGuardrailResults ?? [],
    },
  };
}

export default {
  name: "openai-agents",
  providers: ["openai-responses"],
  async run({ baseUrl, scenario, tools, emit }) {
    setTracingDisabled(true);
    setOpenAIAPI("responses");
    setDefaultOpenAIClient(new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: "sk-replay", maxRetries: 0 }));
    const agent = buildAgents(scenario, tools);
    const opts = scenario.options ?? {};
    let result;
    try {
      result = await run(agent, scenario.input ?? "Hello", { stream: true, maxTurns: opts.maxTurns });
      for await (const event of result) emit(event);
      await result.completed;
      if (result.error) throw result.error;
      for (const line of guardrailResultLines(result)) emit(line);
      return finalOf(result);
    } catch (e) {
      // §8.0 host obligation 1: the thrown terminal never reaches the stream; the host feeds it.
      if (result) for (const line of guardrailResultLines(result)) emit(line);
      emit(hostErrorLine(e));
      return finalOf(result, e);
    }
  },
};
