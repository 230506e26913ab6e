// @anthropic-ai/claude-agent-sdk 0.3 `query()` with `includePartialMessages`, whose native `claude`
// binary is pointed at the loopback replay (ANTHROPIC_BASE_URL) and kept offline by its own switches
// (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC, DISABLE_TELEMETRY, DISABLE_ERROR_REPORTING,
// DISABLE_AUTOUPDATER, an empty HOME / CLAUDE_CONFIG_DIR, settingSources: []).
// The binary is not Node, so netguard.cjs cannot see it; the harness observes it with the rest of
// the run's process tree (lib/proctrace.mjs: strace -f) and fails the run on any off-loopback address.
// Scenario options (all optional):
//   mcpTools:  [toolName] — scenario tools served by an in-process SDK MCP server named "issues"
//              (the model calls them as mcp__issues__<name>);
//   allowedTools: [name]   — passed to query() (default: the MCP tools);
//   deny:      [toolName]  — canUseTool denies these ("Denied by the host") and allows the rest;
//   maxTurns:  number      — default 4;
//   env:       { NAME: value } — more environment for the CLI (e.g. CLAUDE_BYTE_STREAM_IDLE_TIMEOUT_MS,
//              so a stalled stream is given up in seconds and the CLI's non-streaming fallback runs);
//   permissionMode         — default "default" (canUseTool decides) when `deny` is set, else "dontAsk"
//                            (allowedTools run, the rest are refused; bypassPermissions is refused under root).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { createSdkMcpServer, query, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { hostErrorLine } from "../lib/host-error.mjs";

const require = createRequire(import.meta.url);

/** The SDK's native binary for this platform. */
function nativeBinary() {
  const pkg = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "claude");
}

function zodShape(parameters) {
  const shape = {};
  for (const [k, v] of Object.entries(parameters?.properties ?? {}))
    shape[k] = v?.type === "number" ? z.number().optional() : z.string().optional();
  return shape;
}

/** What the SDK reports: its `result` message (docs/record.md "final.json"). */
function finalOf(messages, thrown) {
  const result = [...messages].reverse().find((m) => m.type === "result");
  const calls = new Map();
  for (const m of messages) {
    if (m.type === "assistant")
      for (const b of m.message?.content ?? [])
        if (b.type === "tool_use") calls.set(b.id, { id: b.id, name: b.name, arguments: b.input ?? {}, result: null });
    if (m.type === "user") {
      for (const b of Array.isArray(m.message?.content) ? m.message.content : []) {
        if (b.type !== "tool_result" || !calls.has(b.tool_use_id)) continue;
        const content = typeof b.content === "string" ? b.content : (b.content ?? []).map((p) => p.text ?? "").join("");
        calls.set(b.tool_use_id, { ...calls.get(b.tool_use_id), result: content, ...(b.is_error ? { isError: true } : {}) });
      }
    }
  }
  const error =
    thrown ??
    (result && (result.subtype !== "success" || result.is_error)
      ? { constructor: { name: result.subtype }, message: (result.errors ?? []).join("; ") || String(result.result ?? "") }
      : undefined);
  return {
    text: result?.subtype === "success" && typeof result.result === "string" ? result.result : null,
    toolCalls: [...calls.values()],
    stop: error ? "error" : "done",
    stopReason: result?.subtype === "success" ? result.stop_reason : (result?.subtype ?? thrown?.constructor?.name ?? null),
    ...(error ? { error: { name: error.constructor.name, message: error.message } } : {}),
    usage: result ? { usage: result.usage, total_cost_usd: result.total_cost_usd, modelUsage: result.modelUsage } : null,
    framework: result ? { subtype: result.subtype, num_turns: result.num_turns, permission_denials: result.permission_denials } : {},
  };
}

export default {
  name: "claude-agent-sdk",
  providers: ["anthropic"],
  /** The CLI's token-count preflight is not a model response: answered here, never from the queue. */
  async handleRequest({ req, res }) {
    if (req.url.startsWith("/v1/messages/count_tokens")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end('{"input_tokens":12}');
      return true;
    }
    return false;
  },
  async run({ baseUrl, scenario, tools, emit }) {
    const opts = scenario.options ?? {};
    // A fixed folder per scenario: the CLI echoes its cwd (and paths under it) into its frames.
    const dir = path.join(os.tmpdir(), `agjson-claude-${scenario.name}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    fs.mkdirSync(path.join(dir, "home", ".claude"), { recursive: true });
    fs.mkdirSync(path.join(dir, "work"));
    const env = {
      PATH: process.env.PATH,
      HOME: path.join(dir, "home"),
      CLAUDE_CONFIG_DIR: path.join(dir, "home", ".claude"),
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: "sk-ant-replay",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_ENABLE_TELEMETRY: "0",
      ...(opts.env ?? {}),
    };
    const mcpNames = opts.mcpTools ?? [];
    const mcpServers = mcpNames.length
      ? {
          issues: createSdkMcpServer({
            name: "issues",
            version: "1.0.0",
            tools: tools
              .filter((t) => mcpNames.includes(t.name))
              .map((t) =>
                tool(t.name, t.description, zodShape(t.parameters), async (args) => {
                  const out = await t.execute(args);
                  return { content: [{ type: "text", text: typeof out === "string" ? out : JSON.stringify(out) }] };
                }),
              ),
          }),
        }
      : undefined;
    const deny = new Set(opts.deny ?? []);
    const messages = [];
    let thrown;
    const stderr = [];
    try {
      const q = query({
        prompt: scenario.input ?? "Hello",
        options: {
          cwd: path.join(dir, "work"),
          env,
          includePartialMessages: true,
          settingSources: [],
          persistSession: false,
          model: "claude-sonnet-4-5",
          maxTurns: opts.maxTurns ?? 4,
          pathToClaudeCodeExecutable: nativeBinary(),
          stderr: (d) => stderr.push(d),
          ...(mcpServers ? { mcpServers } : {}),
          allowedTools: opts.allowedTools ?? mcpNames.map((n) => `mcp__issues__${n}`),
          permissionMode: opts.permissionMode ?? (deny.size ? "default" : "dontAsk"),
          ...(deny.size
            ? {
                canUseTool: async (name, input) =>
                  deny.has(name) ? { behavior: "deny", message: "Denied by the host" } : { behavior: "allow", updatedInput: input },
              }
            : {}),
        },
      });
      for await (const m of q) {
        messages.push(m);
        emit(m);
      }
    } catch (e) {
      thrown = e;
      emit(hostErrorLine(e));
    }
    fs.rmSync(dir, { recursive: true, force: true });
    return finalOf(messages, thrown);
  },
};
