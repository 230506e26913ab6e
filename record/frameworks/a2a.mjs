// @a2a-js/sdk 1.3 (A2A protocol 1.0): a real A2A server built with the SDK (express, 127.0.0.1)
// whose agent executor calls the model (the loopback Anthropic replay) and publishes what the
// scenario's script says, read back through the SDK's own client with `sendMessageStream`.
// Options:
//   shape:  "sdk" (default) — the objects the SDK client yields (`payload.$case`, enums as numbers),
//           JSON-serialized; "wire" — the JSON-RPC SSE payloads exactly as they travel on the wire;
//   script: the executor's publications in protocol JSON, in order, each one of
//     { task: {...Task JSON} }           — id/contextId filled in; `history: "request"` = [the user message]
//     { statusUpdate: {...} }            — same, plus `status.state` ("TASK_STATE_WORKING", …)
//     { artifactUpdate: {...} }
//     { message: {...} }                 — a direct Message answer (no task)
//     { modelArtifact: { artifactId, name } } — the model's text deltas, one artifact update each
//     { modelStatus: "TASK_STATE_WORKING" }  — the model's full text as a status message
//   metadata: request metadata; extensions: request message extensions.
import express from "express";
import { AGENT_CARD_PATH, Role, StreamResponse } from "@a2a-js/sdk";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import { ClientFactory, ClientFactoryOptions, JsonRpcTransportFactory } from "@a2a-js/sdk/client";

/** The model's text, streamed from the replay's Anthropic endpoint (deltas in order). */
async function modelDeltas(baseUrl) {
  const res = await fetch(`${baseUrl}/v1/messages`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "sk-replay", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 256, stream: true, messages: [{ role: "user", content: "Hello" }] }),
  });
  const text = await res.text();
  return text
    .split("\n")
    .filter((l) => l.startsWith("data: "))
    .map((l) => JSON.parse(l.slice(6)))
    .filter((c) => c.type === "content_block_delta" && c.delta?.type === "text_delta")
    .map((c) => c.delta.text);
}

function publication(json, ctx) {
  const [kind] = Object.keys(json);
  const body = structuredClone(json[kind]);
  const ids = kind === "task" ? { id: ctx.taskId, contextId: ctx.contextId } : { taskId: ctx.taskId, contextId: ctx.contextId };
  Object.assign(body, kind === "message" ? { contextId: ctx.contextId } : ids);
  if (kind === "task" && body.history === "request") body.history = [];
  const parsed = StreamResponse.fromJSON({ [kind]: body }).payload;
  if (kind === "task" && json.task.history === "request") parsed.value.history = [ctx.userMessage];
  return { kind: parsed.$case, data: parsed.value };
}

function executorFor(baseUrl, script) {
  return {
    async execute(ctx, bus) {
      for (const step of script) {
        if (step.modelArtifact) {
          const deltas = await modelDeltas(baseUrl);
          deltas.forEach((d, i) =>
            bus.publish(
              publication(
                {
                  artifactUpdate: {
                    append: i > 0,
                    lastChunk: i === deltas.length - 1,
                    artifact: { ...step.modelArtifact, parts: [{ text: d }] },
                  },
                },
                ctx,
              ),
            ),
          );
        } else if (step.modelStatus) {
          const text = (await modelDeltas(baseUrl)).join("");
          bus.publish(
            publication(
              {
                statusUpdate: {
                  status: { state: step.modelStatus, message: { messageId: "agent-msg-model", role: "ROLE_AGENT", parts: [{ text }] } },
                },
              },
              ctx,
            ),
          );
        } else {
          bus.publish(publication(step, ctx));
        }
      }
      bus.finished();
    },
    async cancelTask() {},
  };
}

function textOf(message) {
  return (message?.parts ?? []).map((p) => (p.content?.$case === "text" ? p.content.value : "")).join("");
}

/** What the SDK reports at the end: the task fetched back through the client (docs/record.md "final.json"). */
function finalOf(task, lastMessage, thrown) {
  const STOP = { 3: "done", 6: "paused", 8: "paused", 4: "error", 5: "aborted", 7: "aborted" };
  const state = task?.status?.state;
  const agentMessages = [...(task?.history ?? []), ...(task?.status?.message ? [task.status.message] : [])].filter(
    (m) => m.role === Role.ROLE_AGENT,
  );
  const last = lastMessage ?? agentMessages.at(-1);
  return {
    text: last ? textOf(last) : null,
    toolCalls: [],
    stop: thrown ? "error" : task ? (STOP[state] ?? "open") : "done",
    stopReason: task
      ? StreamResponse.toJSON({ payload: { $case: "task", value: task } }).task.status.state
      : lastMessage
        ? "message"
        : null,
    ...(thrown ? { error: { name: thrown.constructor.name, message: thrown.message } } : {}),
    usage: null,
    framework: {
      task: task ? StreamResponse.toJSON({ payload: { $case: "task", value: task } }).task : null,
      artifacts: (task?.artifacts ?? []).map((a) => ({ artifactId: a.artifactId, name: a.name, text: textOf(a) })),
    },
  };
}

export default {
  name: "a2a",
  providers: ["anthropic"],
  async run({ baseUrl, scenario, emit }) {
    const opts = scenario.options ?? {};
    const app = express();
    const server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s));
    });
    const base = `http://127.0.0.1:${server.address().port}`;
    const card = {
      name: "agjson-record-agent",
      description: "Replays recorded model output",
      version: "1.0.0",
      supportedInterfaces: [{ url: `${base}/a2a/jsonrpc`, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }],
      provider: undefined,
      capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
      securitySchemes: {},
      securityRequirements: [],
      defaultInputModes: ["text/plain"],
      defaultOutputModes: ["text/plain"],
      skills: [],
      signatures: [],
    };
    const handler = new DefaultRequestHandler(
      card,
      new InMemoryTaskStore(),
      executorFor(baseUrl, opts.script ?? [{ modelStatus: "TASK_STATE_COMPLETED" }]),
    );
    app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler }));
    app.use("/a2a/jsonrpc", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));

    // The wire shape: every SSE `data:` payload of the streaming response, as the client received it.
    const wireFetch = async (input, init) => {
      const res = await fetch(input, init);
      if (opts.shape !== "wire" || !res.headers.get("content-type")?.includes("text/event-stream")) return res;
      const [mine, theirs] = res.body.tee();
      const captured = (async () => {
        let buf = "";
        const dec = new TextDecoder();
        for await (const bytes of mine) {
          buf += dec.decode(bytes, { stream: true });
          const lines = buf.split("\n");
          buf = lines.pop();
          for (const l of lines) if (l.startsWith("data:")) emit(JSON.parse(l.slice(5).trim()));
        }
      })();
      wireCaptures.push(captured);
      return new Response(theirs, { status: res.status, headers: res.headers });
    };
    const wireCaptures = [];
    const client = await new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        transports: [new JsonRpcTransportFactory({ fetchImpl: wireFetch })],
      }),
    ).createFromUrl(base);
    let taskId;
    let lastMessage;
    try {
      const stream = client.sendMessageStream({
        tenant: "",
        configuration: undefined,
        metadata: opts.metadata,
        message: {
          messageId: "user-msg-1",
          contextId: "",
          taskId: "",
          role: Role.ROLE_USER,
          parts: [
            { content: { $case: "text", value: scenario.input ?? "Hello" }, metadata: undefined, filename: "", mediaType: "text/plain" },
          ],
          metadata: undefined,
          extensions: opts.extensions ?? [],
          referenceTaskIds: [],
        },
      });
      for await (const ev of stream) {
        if (opts.shape !== "wire") emit(ev);
        const v = ev.payload?.value;
        if (ev.payload?.$case === "task") taskId = v.id;
        else if (ev.payload?.$case === "message") lastMessage = v;
        else taskId ??= v?.taskId;
      }
      await Promise.all(wireCaptures);
      const task = taskId ? await client.getTask({ tenant: "", id: taskId, historyLength: undefined }) : undefined;
      return finalOf(task, lastMessage);
    } catch (e) {
      return finalOf(undefined, undefined, e);
    } finally {
      server.closeAllConnections?.();
      await new Promise((r) => server.close(() => r()));
    }
  },
};
