/**
 * An ACP agent (Agent Client Protocol v1, `@agentclientprotocol/sdk` 2.4 `agent()` builder) that
 * fronts any AgEvent source: `session/prompt` becomes an AgInput `start` (§3), the source's events
 * stream back as `session/update` notifications (updates.ts), a `hitl.ask` (§7) becomes
 * `session/request_permission` whose choice returns to the source as an `AgHitlAnswer` in a
 * `resume` input (§3.1), and the turn's close (§5 turn.done / turn.error / turn.abort) is the
 * prompt's stop reason. `session/cancel` aborts the source; a cancelled prompt denies its asks.
 */
// Types come in with resolution-mode "import" (as import types: Biome parses those, not the
// attribute on an `import type` statement): the SDK is ESM-only, and the declarations ship as
// CommonJS ones (dist/cjs), where a plain import of it fails to compile (TS1479/TS1541).
type AgentApp = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).AgentApp;
type AgentContext = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).AgentContext;
type PermissionOption = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).PermissionOption;
type RequestPermissionRequest = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).RequestPermissionRequest;
type StopReason = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).StopReason;
type ToolCallUpdate = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).ToolCallUpdate;
import { agent, methods, PROTOCOL_VERSION, RequestError } from "@agentclientprotocol/sdk";
// Events and asks come from the source (consumer-lenient types); the inputs are the agent's own (strict).
import type { AgFinishReason, AgHitlAskEvent, AgPausedAsk, AgKnownEvent, AgExtEvent } from "../../../generated/lenient-types.js";
import type { AgHitlAnswer, AgInput, AgLenientEvent } from "../../../generated/types.js";
import { isKnownEvent, isKnownOutcome } from "../../../generated/schema-facts.js";
import { SPEC_VERSION } from "../../validate/version.js";
import { agBlockOf } from "./content.js";
import { AgSourceError, publicMessageOf, REPLAY_EXHAUSTED, type AgEventSource, type AgSourceIssue } from "../source/index.js";
import { createAcpUpdateMapper, type AcpUpdateMapper } from "./updates.js";

/** Options of {@link createAcpAgent}. */
export interface AcpAgentOptions {
  /** Where the events come from. */
  source: AgEventSource;
  /** `agentInfo` sent on initialize. */
  name?: string;
  version?: string;
  /** Diagnostics (never stdout: stdout is the JSON-RPC channel). */
  log?: (line: string) => void;
  /**
   * Most sessions held (default 1,000): past it `session/new` frees the least recently used idle
   * session (a later prompt on it is "session not found"); when every session is running a prompt,
   * the new one is refused.
   */
  maxSessions?: number;
}

/** Default of {@link AcpAgentOptions.maxSessions}. */
export const DEFAULT_MAX_ACP_SESSIONS = 1000;

/** The ACP extension notification carrying an AgEvent that has no ACP update (ACP extensibility: `_`-prefixed). */
export const AGJSON_EVENT_NOTIFICATION = "_agjson/event";

interface Session {
  id: string;
  mapper: AcpUpdateMapper;
  turns: number;
  running?: AbortController;
  /** "Always" choices of this session, by tool name. */
  always: Map<string, "allow" | "reject">;
}

const APPROVAL_OPTIONS: PermissionOption[] = [
  { optionId: "allow_once", name: "Allow", kind: "allow_once" },
  { optionId: "allow_always", name: "Always allow", kind: "allow_always" },
  { optionId: "reject_once", name: "Reject", kind: "reject_once" },
  { optionId: "reject_always", name: "Always reject", kind: "reject_always" },
];

/** The ACP stop reason of a turn that closed with turn.done (§4 AgFinishReason). */
export function stopReasonOf(reason: AgFinishReason): StopReason {
  switch (reason) {
    case "token_limit":
    case "context_window_exceeded":
      return "max_tokens";
    case "refusal":
    case "safety_blocked":
      return "refusal";
    default:
      return "end_turn";
  }
}

/** The answer fields every AgHitlAnswer echoes from its ask (§7: requestState byte-identical, token, ordinal). */
function echo(ask: AgPausedAsk | AgHitlAskEvent): Partial<AgHitlAnswer> {
  const out: Partial<AgHitlAnswer> = {};
  if (ask.requestState !== undefined) out.requestState = ask.requestState;
  if (ask.token !== undefined) out.token = ask.token;
  if (ask.ordinal !== undefined) out.ordinal = ask.ordinal;
  return out;
}

/**
 * The key an answer is held under until the resume is built. §7: repeated interrupts in one
 * LangGraph node share one askId and are told apart by `ordinal` (`resumeBinding: "positional"`),
 * so the askId alone would let the later ask's answer overwrite the earlier one's.
 */
function answerKey(ask: AgPausedAsk | AgHitlAskEvent): string {
  return JSON.stringify([ask.askId, ask.ordinal ?? null]);
}

/** The answer to an ask the ACP client had no way to see (it closed the prompt, or ACP has no form for the ask's kind). */
function unanswered(ask: AgPausedAsk | AgHitlAskEvent, reason: string): AgHitlAnswer {
  return { askId: ask.askId, status: "cancelled", reason, ...echo(ask) };
}

/** Creates the agent app; connect it with `app.connect(ndJsonStream(...))`. */
export function createAcpAgent(options: AcpAgentOptions): AgentApp {
  const sessions = new Map<string, Session>();
  const log = options.log ?? (() => undefined);
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_ACP_SESSIONS;
  if (!Number.isInteger(maxSessions) || maxSessions < 1)
    throw new RangeError(`maxSessions must be a positive integer (got ${String(options.maxSessions)})`);

  /** Frees least recently used idle sessions until one more fits; false when every session is running. */
  function makeRoom(): boolean {
    for (const [id, s] of sessions) {
      if (sessions.size < maxSessions) break;
      if (s.running === undefined) sessions.delete(id);
    }
    return sessions.size < maxSessions;
  }

  async function send(client: AgentContext, session: Session, event: AgLenientEvent): Promise<void> {
    await client.notify(AGJSON_EVENT_NOTIFICATION, { sessionId: session.id, event });
  }

  /** Asks the client about one `hitl.ask` (§7); resolves to the AgHitlAnswer. */
  async function askClient(client: AgentContext, session: Session, ask: AgHitlAskEvent, signal: AbortSignal): Promise<AgHitlAnswer> {
    const tool = ask.toolCallId !== undefined ? session.mapper.toolCall(ask.toolCallId) : undefined;
    let options: PermissionOption[];
    if (ask.kind === "approval") {
      const remembered = tool !== undefined ? session.always.get(tool.name) : undefined;
      if (remembered !== undefined)
        return {
          askId: ask.askId,
          status: remembered === "allow" ? "resolved" : "declined",
          reason: `"always ${remembered}" chosen earlier in this session`,
          ...echo(ask),
        };
      options = APPROVAL_OPTIONS;
    } else if (ask.kind === "choice" && ask.choices !== undefined && ask.choices.length > 0) {
      options = ask.choices.map((c) => ({ optionId: c.id, name: c.label, kind: "allow_once" }));
    } else {
      return unanswered(
        ask,
        `an ACP client cannot answer a "${ask.kind}" ask (only approvals and choices map to session/request_permission)`,
      );
    }
    if (signal.aborted) return unanswered(ask, "the prompt was cancelled");
    const toolCall: ToolCallUpdate =
      tool !== undefined
        ? {
            toolCallId: tool.toolCallId,
            title: ask.message ?? tool.title,
            ...(tool.rawInput !== undefined ? { rawInput: tool.rawInput } : {}),
            _meta: { agjson: { toolName: tool.name, askId: ask.askId } },
          }
        : { toolCallId: ask.askId, title: ask.message ?? ask.reason ?? "Permission requested", _meta: { agjson: { askId: ask.askId } } };
    if (tool === undefined) {
      // request_permission names a tool call; an ask tied to none gets one of its own first.
      await client.notify(methods.client.session.update, {
        sessionId: session.id,
        update: {
          sessionUpdate: "tool_call",
          toolCallId: ask.askId,
          title: toolCall.title ?? "Permission requested",
          kind: "other",
          status: "pending",
          _meta: { agjson: { askId: ask.askId, kind: ask.kind } },
        },
      });
    }
    const request: RequestPermissionRequest = { sessionId: session.id, toolCall, options, _meta: { agjson: { ask } } };
    const response = await client.request(methods.client.session.requestPermission, request);
    const outcome = response.outcome;
    if (outcome.outcome === "cancelled") return unanswered(ask, "the prompt was cancelled");
    if (ask.kind === "choice") return { askId: ask.askId, status: "resolved", reply: outcome.optionId, ...echo(ask) };
    const allow = outcome.optionId === "allow_once" || outcome.optionId === "allow_always";
    if (tool !== undefined && (outcome.optionId === "allow_always" || outcome.optionId === "reject_always"))
      session.always.set(tool.name, allow ? "allow" : "reject");
    return { askId: ask.askId, status: allow ? "resolved" : "declined", ...echo(ask) };
  }

  /**
   * Plays one input through the source: streams its updates, asks the client each ask, and returns
   * how the turn closed (undefined when the stream ended without a close) and the answers given.
   */
  async function play(
    client: AgentContext,
    session: Session,
    input: AgInput,
    signal: AbortSignal,
  ): Promise<{ close?: AgKnownEvent | AgExtEvent; asks: AgHitlAskEvent[]; answers: Map<string, AgHitlAnswer> }> {
    const answers = new Map<string, AgHitlAnswer>();
    const asks: AgHitlAskEvent[] = [];
    const nested = new Set<string>();
    let close: AgKnownEvent | AgExtEvent | undefined;
    for await (const event of options.source.run(input, signal)) {
      if (signal.aborted) break;
      // Only turn bounds are read here; a type this version does not know (§0.2) is none of them.
      if (isKnownEvent(event) && event.type === "subagent.start") nested.add(event.turnId);
      for (const out of session.mapper.push(event)) {
        if (out.kind === "update") await client.notify(methods.client.session.update, { sessionId: session.id, update: out.update });
        else if (out.kind === "ext") await send(client, session, out.event);
        else {
          asks.push(out.ask);
          await send(client, session, out.ask);
          answers.set(answerKey(out.ask), await askClient(client, session, out.ask, signal));
        }
      }
      if (!isKnownEvent(event)) continue;
      const closes = event.type === "turn.done" || event.type === "turn.error" || event.type === "turn.abort";
      if (closes && (event.turnId === undefined || !nested.has(event.turnId))) close = event;
    }
    return { ...(close !== undefined ? { close } : {}), asks, answers };
  }

  /** A resume input (§3.1) answering every ask of a paused turn, in the turn's order; `answers` is keyed by {@link answerKey}. */
  function resumeInput(
    session: Session,
    turnId: string,
    asks: readonly (AgPausedAsk | AgHitlAskEvent)[],
    answers: Map<string, AgHitlAnswer>,
    why: string,
  ): AgInput {
    return {
      protocol: "agjson",
      version: SPEC_VERSION,
      kind: "resume",
      threadId: session.id,
      turnId,
      answers: asks.map((a) => answers.get(answerKey(a)) ?? unanswered(a, why)),
    };
  }

  const app = agent({ name: options.name ?? "agjson" })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: { loadSession: false, promptCapabilities: { image: true, audio: true, embeddedContext: true } },
      agentInfo: { name: options.name ?? "agjson", version: options.version ?? "0.0.0" },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, () => {
      if (!makeRoom())
        throw RequestError.internalError(
          { maxSessions },
          `all ${maxSessions} sessions are running a prompt (maxSessions); cancel one or retry later`,
        );
      const id = globalThis.crypto.randomUUID();
      sessions.set(id, { id, mapper: createAcpUpdateMapper(), turns: 0, always: new Map() });
      return { sessionId: id };
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    })
    .onRequest(methods.agent.session.prompt, async ({ params, client, signal }) => {
      const session = sessions.get(params.sessionId);
      if (session === undefined) throw RequestError.sessionNotFound(params.sessionId);
      if (session.running !== undefined)
        throw RequestError.invalidRequest({ sessionId: session.id }, "a prompt is already running in this session; cancel it first");
      // Most recently used last: the least recently used idle session is the first freed.
      sessions.delete(session.id);
      sessions.set(session.id, session);
      const controller = new AbortController();
      session.running = controller;
      // The request's own signal aborts when the client cancels the request or the connection
      // closes (the editor quit, stdin ended): the prompt ends and the source stops with it.
      const onGone = (): void => controller.abort(signal.reason);
      if (signal.aborted) onGone();
      else signal.addEventListener("abort", onGone, { once: true });
      const turnId = `${session.id}:turn-${++session.turns}`;
      let input: AgInput = {
        protocol: "agjson",
        version: SPEC_VERSION,
        kind: "start",
        threadId: session.id,
        turnId,
        messages: [{ id: `${turnId}:user`, role: "user", content: params.prompt.map(agBlockOf), turnId, threadId: session.id }],
      };
      try {
        for (;;) {
          const { close, asks, answers } = await play(client, session, input, controller.signal);
          if (controller.signal.aborted) {
            // §7: a cancelled prompt denies. The source hears it (a resume with cancelled answers)
            // so a paused turn closes upstream; nothing of that resume reaches the client.
            if (asks.length > 0) {
              const denial = resumeInput(
                session,
                close?.type === "turn.done" ? close.turnId : input.turnId,
                asks,
                new Map([...answers].filter(([, a]) => a.status !== "resolved")),
                "the prompt was cancelled",
              );
              const drain = AbortSignal.timeout(30_000);
              try {
                for await (const _ of options.source.run(denial, drain)) if (drain.aborted) break;
              } catch (err) {
                log(`agjson acp: the source failed on the cancelling resume: ${err instanceof Error ? err.message : String(err)}`);
              }
            }
            return { stopReason: "cancelled" };
          }
          if (close === undefined)
            throw RequestError.internalError(
              { sessionId: session.id },
              "the event source ended with the turn still open (INV-TURN): no turn.done, turn.error or turn.abort",
            );
          if (close.type === "turn.abort") return { stopReason: "cancelled", _meta: { agjson: { reason: close.reason ?? null } } };
          if (close.type === "turn.error" && close.code === REPLAY_EXHAUSTED) {
            // A recording has no turn for this input (a prompt past its end, or the resume of its
            // last ask): nothing failed, the replay is over. The user is told so and the prompt ends.
            const message = `the recording has no more turns: ${close.message}`;
            await client.notify(methods.client.session.update, {
              sessionId: session.id,
              update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: message } },
            });
            return { stopReason: "end_turn", _meta: { agjson: { code: REPLAY_EXHAUSTED, message } } };
          }
          if (close.type === "turn.error")
            throw RequestError.internalError({ code: close.code ?? null, retriable: close.retriable ?? null }, close.message);
          if (close.type !== "turn.done") throw RequestError.internalError({}, `unexpected close ${close.type}`);
          if (isKnownOutcome(close.outcome) && close.outcome.type === "paused") {
            input = resumeInput(session, close.turnId, close.outcome.asks, answers, "the ask never reached the ACP client");
            continue;
          }
          return {
            stopReason: stopReasonOf(close.finishReason),
            _meta: {
              agjson: {
                outcome: close.outcome,
                finishReason: close.finishReason,
                ...(close.usage !== undefined ? { usage: close.usage } : {}),
              },
            },
          };
        }
      } catch (err) {
        if (err instanceof RequestError) throw err;
        // The operator's log has the source's whole message (credentials redacted by the source);
        // the client a short reason and the stable code.
        log(`agjson acp: session ${session.id}: ${err instanceof Error ? err.message : String(err)}`);
        const data = { sessionId: session.id, ...(err instanceof AgSourceError ? { code: err.code } : {}) };
        if (err instanceof AgSourceError && err.fault === "client") throw RequestError.invalidRequest(data, publicMessageOf(err));
        throw RequestError.internalError(data, publicMessageOf(err));
      } finally {
        signal.removeEventListener("abort", onGone);
        session.running = undefined;
      }
    });
  return app;
}

/** Reports a source issue to stderr-style diagnostics. */
export function describeIssue(issue: AgSourceIssue): string {
  return `agjson acp: upstream record ${issue.index}: ${issue.message}`;
}
