// @google/adk 2.0 `InMemoryRunner.runAsync` events with `StreamingMode.SSE`, over ADK's Gemini
// model (@google/genai) pointed at the loopback replay through GOOGLE_GEMINI_BASE_URL (the genai
// client reads it when `httpOptions.baseUrl` is unset; ADK builds that client lazily).
// Scenario options (all optional):
//   agents:   [{ name, instruction?, tools?: [toolName], subAgents?: [agentName] }] (default: one
//             agent "assistant" with every scenario tool); the first one is the root;
//   model:    the Gemini model name (default "gemini-3-pro-preview").
// A scenario tool with `needsApproval` becomes a FunctionTool with `requireConfirmation: true`;
// `"longRunning": true` in its spec makes it `isLongRunning`.
// ADK draws its 8-character event ids from Math.random: the run seeds it (mulberry32) so the ids
// are the same on every recording and `make record-check` compares them (its own UUIDs stay masked).
import { FunctionTool, Gemini, InMemoryRunner, LlmAgent, StreamingMode } from "@google/adk";
import { hostErrorLine } from "../lib/host-error.mjs";

/** JSON Schema (the stubs' `parameters`) → the genai `Schema` ADK declares tools with. */
function toGenaiSchema(s) {
  if (!s || typeof s !== "object") return { type: "OBJECT", properties: {} };
  const out = { type: String(s.type ?? "object").toUpperCase() };
  if (s.description) out.description = s.description;
  if (s.properties) out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, toGenaiSchema(v)]));
  else if (out.type === "OBJECT") out.properties = {};
  if (s.items) out.items = toGenaiSchema(s.items);
  if (Array.isArray(s.required)) out.required = s.required;
  if (Array.isArray(s.enum)) out.enum = s.enum;
  return out;
}

function buildRoot(scenario, tools) {
  const opts = scenario.options ?? {};
  const model = () => new Gemini({ model: opts.model ?? "gemini-3-pro-preview", apiKey: "replay" });
  const byName = new Map(
    tools.map((t) => [
      t.name,
      new FunctionTool({
        name: t.name,
        description: t.description,
        parameters: toGenaiSchema(t.parameters),
        execute: (args) => t.execute(args),
        ...(t.needsApproval ? { requireConfirmation: true } : {}),
        ...(scenario.tools?.[t.name]?.longRunning ? { isLongRunning: true } : {}),
      }),
    ]),
  );
  const specs = opts.agents ?? [{ name: "assistant", tools: tools.map((t) => t.name) }];
  const agents = new Map();
  for (const spec of [...specs].reverse()) {
    agents.set(
      spec.name,
      new LlmAgent({
        name: spec.name,
        model: model(),
        instruction: spec.instruction ?? "Be brief.",
        tools: (spec.tools ?? []).map((n) => {
          if (!byName.has(n)) throw new Error(`agent ${spec.name} names tool ${n}, which the scenario does not define`);
          return byName.get(n);
        }),
        subAgents: (spec.subAgents ?? []).map((n) => agents.get(n)),
      }),
    );
  }
  return agents.get(specs[0].name);
}

const textOf = (event) =>
  (event.content?.parts ?? [])
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("");

/** What ADK reports: the session's own event record after the run (docs/record.md "final.json"). */
function finalOf(session, invocationId, thrown) {
  const events = (session?.events ?? []).filter((e) => e.invocationId === invocationId && !e.partial);
  const calls = new Map();
  const confirmations = [];
  for (const e of events) {
    for (const p of e.content?.parts ?? []) {
      if (p.functionCall)
        calls.set(p.functionCall.id, {
          id: p.functionCall.id,
          name: p.functionCall.name,
          arguments: p.functionCall.args ?? {},
          result: null,
        });
      if (p.functionResponse) {
        const c = calls.get(p.functionResponse.id) ?? { id: p.functionResponse.id, name: p.functionResponse.name, arguments: null };
        calls.set(p.functionResponse.id, { ...c, result: p.functionResponse.response ?? null });
      }
    }
    for (const [id, c] of Object.entries(e.actions?.requestedToolConfirmations ?? {})) confirmations.push({ functionCallId: id, ...c });
    for (const [id] of Object.entries(e.actions?.requestedAuthConfigs ?? {})) confirmations.push({ functionCallId: id, auth: true });
  }
  const lastText = [...events].reverse().find((e) => e.author !== "user" && textOf(e) !== "");
  const last = events[events.length - 1];
  const finish = [...events].reverse().find((e) => e.finishReason)?.finishReason ?? null;
  const failure =
    last?.errorCode !== undefined || last?.errorMessage !== undefined
      ? { name: String(last.errorCode ?? "Error"), message: String(last.errorMessage ?? "") }
      : undefined;
  if (!thrown && failure) {
    return {
      text: lastText ? textOf(lastText) : null,
      toolCalls: [...calls.values()],
      stop: "error",
      stopReason: failure.name,
      error: failure,
      usage: events.filter((e) => e.usageMetadata).map((e) => e.usageMetadata),
      framework: { lastAuthor: last?.author ?? null, confirmations, state: session?.state ?? {} },
    };
  }
  return {
    text: lastText ? textOf(lastText) : null,
    toolCalls: [...calls.values()].filter((c) => c.name !== "adk_request_confirmation"),
    stop: thrown ? "error" : last?.interrupted ? "aborted" : confirmations.length ? "paused" : "done",
    stopReason: thrown ? thrown.constructor.name : confirmations.length ? "requested_tool_confirmations" : finish,
    ...(thrown ? { error: { name: thrown.constructor.name, message: thrown.message } } : {}),
    usage: events.filter((e) => e.usageMetadata).map((e) => e.usageMetadata),
    framework: { lastAuthor: last?.author ?? null, confirmations, state: session?.state ?? {} },
  };
}

export default {
  name: "adk",
  providers: ["google"],
  async run({ baseUrl, scenario, tools, emit }) {
    process.env.GOOGLE_GEMINI_BASE_URL = baseUrl;
    let seed = 0x5eed;
    Math.random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const runner = new InMemoryRunner({ agent: buildRoot(scenario, tools), appName: "record" });
    const session = await runner.sessionService.createSession({ appName: "record", userId: "u1" });
    let invocationId;
    let thrown;
    try {
      for await (const ev of runner.runAsync({
        userId: "u1",
        sessionId: session.id,
        newMessage: { role: "user", parts: [{ text: scenario.input ?? "Hello" }] },
        runConfig: { streamingMode: StreamingMode.SSE },
      })) {
        invocationId ??= ev.invocationId;
        emit(ev);
      }
    } catch (e) {
      thrown = e;
      emit(hostErrorLine(e));
    }
    const after = await runner.sessionService.getSession({ appName: "record", userId: "u1", sessionId: session.id });
    return finalOf(after, invocationId, thrown);
  },
};
