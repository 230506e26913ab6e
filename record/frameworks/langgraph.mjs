// @langchain/langgraph 1.7 `graph.stream(input, { streamMode: [all seven], subgraphs: true })` over
// ChatAnthropic (@langchain/anthropic) pointed at the loopback replay, checkpointed on MemorySaver.
// Scenario options (all optional):
//   graph:   "react" (default: a model node and a ToolNode looping until the model stops calling
//            tools) | "review" (react, then a `review` node calling interrupt() twice, then a
//            subgraph `sub` whose `summarize` node writes a custom event and calls the model);
//   interrupts: number — how many times the `review` node calls interrupt() (default 2; the third
//            and later ask "Approve change <n>?");
//   resumes: [value, …] — after the first run, resume the same thread once per value with
//            `new Command({ resume: value })` (the double interrupt needs two);
//   streamMode: [mode, …] — the modes to stream (default all seven; LangGraph's own end-of-run
//            signal, the root checkpoint, comes only with "checkpoints" or "debug");
//   toolErrors: "message" (default: ToolNode turns a throwing tool into an error ToolMessage and
//            the loop goes on) | "throw" (ToolNode's handleToolErrors off: the tools task fails,
//            the `tasks` / `debug` frames report its error and graph.stream() throws it);
//   hostError: true (default: a thrown run ends the recording with the __host_error__ line) | false
//            (the recording stops where the graph's own stream stopped, as a host that lets the
//            stream's throw end its loop records it: the failed task's report is the last word);
//   record:  "all" (default: every run's chunks, in order) | "last" (only the last run's: one
//            normalizer invoke per recording, §8.0 Lifetime; earlier runs still run, unrecorded).
import { ChatAnthropic } from "@langchain/anthropic";
import { tool } from "@langchain/core/tools";
import { Annotation, Command, END, interrupt, MemorySaver, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { hostErrorLine } from "../lib/host-error.mjs";

const STREAM_MODES = ["values", "updates", "messages", "custom", "checkpoints", "tasks", "debug"];

function buildGraph({ baseUrl, scenario, tools }) {
  const llm = new ChatAnthropic({ model: "claude-sonnet-4-5", apiKey: "sk-ant-replay", anthropicApiUrl: baseUrl, maxRetries: 0 });
  const lcTools = tools.map((t) =>
    tool(
      async (args) => {
        const out = await t.execute(args);
        return typeof out === "string" ? out : JSON.stringify(out);
      },
      { name: t.name, description: t.description, schema: t.parameters },
    ),
  );
  const model = lcTools.length ? llm.bindTools(lcTools) : llm;
  const State = Annotation.Root({ ...MessagesAnnotation.spec, approvals: Annotation({ reducer: (_a, b) => b, default: () => [] }) });
  const review = scenario.options?.graph === "review";
  const g = new StateGraph(State)
    .addNode("agent", async (s) => ({ messages: [await model.invoke(s.messages)] }))
    .addNode("tools", new ToolNode(lcTools, { handleToolErrors: scenario.options?.toolErrors !== "throw" }))
    .addEdge(START, "agent")
    .addEdge("tools", "agent");
  if (!review) {
    g.addConditionalEdges("agent", (s) => (s.messages.at(-1).tool_calls?.length ? "tools" : END));
    return g.compile({ checkpointer: new MemorySaver() });
  }
  const sub = new StateGraph(State)
    .addNode("summarize", async (s, config) => {
      config.writer?.({ progress: "summarizing" });
      return { messages: [await llm.invoke(s.messages)] };
    })
    .addEdge(START, "summarize")
    .addEdge("summarize", END)
    .compile();
  const more = Math.max(0, (scenario.options?.interrupts ?? 2) - 2);
  g.addNode("review", async () => {
    // Repeated interrupts in one node: positional resume (§7 Resume binding, §8 item 6).
    const first = interrupt("Approve the first change?");
    const second = interrupt({ question: "Approve the second change?", risk: "high" });
    const rest = [];
    for (let i = 0; i < more; i++) rest.push(interrupt(`Approve change ${i + 3}?`));
    return { approvals: [first, second, ...rest] };
  })
    .addNode("sub", sub)
    .addConditionalEdges("agent", (s) => (s.messages.at(-1).tool_calls?.length ? "tools" : "review"))
    .addEdge("review", "sub")
    .addEdge("sub", END);
  return g.compile({ checkpointer: new MemorySaver() });
}

function textOf(message) {
  const c = message?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c))
    return c
      .filter((p) => p?.type === "text")
      .map((p) => p.text)
      .join("");
  return "";
}

/** What the graph reports: its checkpointed state after the recorded run (docs/record.md "final.json"). */
async function finalOf(graph, config, before, thrown) {
  const state = await graph.getState(config);
  const known = new Set(before.map((m) => m.id));
  const added = (state.values.messages ?? []).filter((m) => !known.has(m.id));
  const calls = new Map();
  for (const m of added) {
    const type = m._getType?.() ?? m.type;
    if (type === "ai")
      for (const tc of m.tool_calls ?? []) calls.set(tc.id, { id: tc.id, name: tc.name, arguments: tc.args ?? {}, result: null });
    if (type === "tool" && calls.has(m.tool_call_id)) {
      calls.set(m.tool_call_id, { ...calls.get(m.tool_call_id), result: m.content, ...(m.status === "error" ? { isError: true } : {}) });
    }
  }
  const lastAi = [...added].reverse().find((m) => (m._getType?.() ?? m.type) === "ai" && textOf(m) !== "");
  const interrupts = state.tasks.flatMap((t) => t.interrupts ?? []);
  // LangGraph's own positional record: a paused task's `__resume__` pending write lists the resume
  // values it has consumed, so its pending interrupt is that many repeats in (§7 Resume binding).
  const writes = (await graph.checkpointer.getTuple(config))?.pendingWrites ?? [];
  const consumed = new Map(writes.filter(([, ch]) => ch === "__resume__").map(([task, , v]) => [task, Array.isArray(v) ? v.length : 1]));
  const interruptPositions = writes
    .filter(([, ch]) => ch === "__interrupt__")
    .flatMap(([task, , list]) => (Array.isArray(list) ? list : [list]).map((it) => ({ id: it.id, position: consumed.get(task) ?? 0 })));
  return {
    text: lastAi ? textOf(lastAi) : null,
    toolCalls: [...calls.values()],
    stop: thrown ? "error" : interrupts.length ? "paused" : "done",
    stopReason: thrown ? thrown.constructor.name : interrupts.length ? "interrupt" : "end",
    ...(thrown ? { error: { name: thrown.constructor.name, message: thrown.message } } : {}),
    usage: added.filter((m) => m.usage_metadata).map((m) => m.usage_metadata),
    framework: { next: state.next, interrupts, interruptPositions, approvals: state.values.approvals ?? [] },
  };
}

export default {
  name: "langgraph",
  providers: ["anthropic"],
  async run(ctx) {
    const { scenario, emit } = ctx;
    const graph = buildGraph(ctx);
    const config = { configurable: { thread_id: "thread-1" } };
    const inputs = [
      { messages: [{ role: "user", content: scenario.input ?? "Hello" }] },
      ...(scenario.options?.resumes ?? []).map((v) => new Command({ resume: v })),
    ];
    const recordLast = scenario.options?.record === "last";
    let before = [];
    for (let i = 0; i < inputs.length; i++) {
      const recording = !recordLast || i === inputs.length - 1;
      if (recording) before = (await graph.getState(config)).values.messages ?? [];
      try {
        const stream = await graph.stream(inputs[i], {
          ...config,
          streamMode: scenario.options?.streamMode ?? STREAM_MODES,
          subgraphs: true,
        });
        for await (const chunk of stream) if (recording) emit(chunk);
      } catch (e) {
        if (recording && scenario.options?.hostError !== false) emit(hostErrorLine(e));
        return finalOf(graph, config, before, e);
      }
    }
    return finalOf(graph, config, before);
  },
};
