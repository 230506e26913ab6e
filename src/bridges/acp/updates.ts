/**
 * The stateful AgEvent → ACP `session/update` mapping (§4 events; ACP v1 prompt-turn and
 * tool-call docs). Pure: no I/O and no SDK at run time, so the agent, the tests and the bench share
 * it. An event ACP has no update for is handed back as `ext` (the agent sends it as an
 * `_agjson/event` notification, which ACP clients ignore unless they know it, ACP extensibility);
 * a `hitl.ask` is handed back as `ask` for the agent to turn into `session/request_permission`.
 */
// Types come in with resolution-mode "import" (as import types: Biome parses those, not the
// attribute on an `import type` statement): the SDK is ESM-only, and the declarations ship as
// CommonJS ones (dist/cjs), where a plain import of it fails to compile (TS1479/TS1541).
type SessionUpdate = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).SessionUpdate;
type ToolCallContent = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).ToolCallContent;
type ToolCallStatus = import("@agentclientprotocol/sdk", { with: { "resolution-mode": "import" }}).ToolCallStatus;
import type {
  AgBlock,
  AgHitlAskEvent,
  AgRole,
  AgToolDoneEvent,
  AgToolResultBlock,
  AgKnownEvent,
  AgExtEvent,
} from "../../../generated/lenient-types.js";
import { isKnownBlock, isKnownEvent } from "../../../generated/schema-facts.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import { DEF_FIELDS, EVENT_ENVELOPE_FIELDS, EVENT_FIELDS, fieldsOtherThan } from "../../../generated/schema-facts.js";
import { acpContentOf, planEntriesOf } from "./content.js";

/**
 * A result's fields (the §2.2 shared core) ACP's tool_call_update has no slot for, carried under
 * `_meta.agjson`: every field other than the ones it states itself (content, rawOutput, the error
 * text, the in-progress status). Read from the generated table, so a field the schema adds rides too.
 */
const RESULT_CARRIED = fieldsOtherThan(DEF_FIELDS.AgToolResultBlock, [
  "type",
  "toolCallId",
  "content",
  "structuredContent",
  "errorText",
  "preliminary",
]);

/**
 * A tool.start's fields ACP's tool_call has no slot for, carried under `_meta.agjson`: every field
 * other than the envelope (an ACP session has no turns or event ids) and the id, name and title it
 * states itself (a candidate other than the first is carried whole).
 */
const TOOL_START_CARRIED = fieldsOtherThan(EVENT_FIELDS["tool.start"], [
  ...EVENT_ENVELOPE_FIELDS,
  "toolCallId",
  "name",
  "title",
  "candidateIndex",
]);

/** One thing the agent must do for an event. */
export type AcpOutput =
  | { kind: "update"; update: SessionUpdate }
  | { kind: "ext"; event: AgLenientEvent }
  | { kind: "ask"; ask: AgHitlAskEvent };

/** What ACP knows about a tool call, for the permission request of an ask on it. */
export interface AcpToolCallView {
  toolCallId: string;
  name: string;
  title: string;
  rawInput?: unknown;
}

/** The stateful mapper; one per ACP session. */
export interface AcpUpdateMapper {
  /**
   * One event — what `reduce()` takes: a type this version does not know (§0.2) has no ACP update
   * and goes out whole as the `_agjson/event` extension notification, like every such event.
   */
  push(event: AgLenientEvent): AcpOutput[];
  /** A tool call this session has shown, by id. */
  toolCall(toolCallId: string): AcpToolCallView | undefined;
}

/** The `_meta` an agjson tool call carries: ACP has no tool-name field in every client, so the name rides here too. */
function toolMeta(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { agjson: { toolName: name, ...extra } };
}

/** Creates the mapper. */
export function createAcpUpdateMapper(): AcpUpdateMapper {
  const roles = new Map<string, AgRole>(); // messageId → role
  const lastMessage = new Map<string, string>(); // turnId → most recently opened messageId
  const blocks = new Map<string, { messageId?: string; role: AgRole }>(); // text/reasoning id → its message
  const tools = new Map<string, AcpToolCallView>();
  let lastTurn: string | undefined;

  const ext = (event: AgLenientEvent): AcpOutput => ({ kind: "ext", event });
  const update = (u: SessionUpdate): AcpOutput => ({ kind: "update", update: u });

  function owner(event: { messageId?: string; turnId?: string }): { messageId?: string; role: AgRole } {
    const messageId = event.messageId ?? lastMessage.get(event.turnId ?? lastTurn ?? "");
    const role = (messageId !== undefined ? roles.get(messageId) : undefined) ?? "assistant";
    return messageId !== undefined ? { messageId, role } : { role };
  }

  /** A chunk of a message's visible content (§5 message partitioning decides whose). */
  function chunk(kind: "message" | "thought", text: string, at: { messageId?: string; role: AgRole }): AcpOutput | undefined {
    if (text === "") return undefined;
    const messageId = at.messageId !== undefined ? { messageId: at.messageId } : {};
    if (at.role === "user") return update({ sessionUpdate: "user_message_chunk", content: { type: "text", text }, ...messageId });
    return update({
      sessionUpdate: kind === "thought" ? "agent_thought_chunk" : "agent_message_chunk",
      content: { type: "text", text },
      ...messageId,
    });
  }

  function resultUpdate(result: AgToolDoneEvent | AgToolResultBlock, more: boolean): AcpOutput[] {
    const out: AcpOutput[] = [];
    const status: ToolCallStatus = more
      ? "in_progress"
      : result.outcome === "error" || result.outcome === "denied"
        ? "failed"
        : "completed";
    const content: ToolCallContent[] = [];
    for (const b of result.content) {
      const c = acpContentOf(b);
      if (c !== undefined) content.push({ type: "content", content: c });
    }
    if (result.outcome === "error" && result.errorText !== undefined)
      content.push({ type: "content", content: { type: "text", text: result.errorText } });
    const meta: Record<string, unknown> = {};
    for (const k of RESULT_CARRIED) {
      // A tool.done has every shared-core field but `annotations` (a block's own).
      const v: unknown = Reflect.get(result, k);
      if (v !== undefined) meta[k] = v;
    }
    const rawOutput = result.structuredContent !== undefined ? result.structuredContent : result.content;
    const known = tools.get(result.toolCallId);
    if (known === undefined) {
      // A result for a call this session never showed (an earlier, unrecorded turn): show the call now.
      tools.set(result.toolCallId, { toolCallId: result.toolCallId, name: result.toolCallId, title: result.toolCallId });
      out.push(
        update({
          sessionUpdate: "tool_call",
          toolCallId: result.toolCallId,
          title: result.toolCallId,
          kind: "other",
          status,
          content,
          rawOutput,
          _meta: { agjson: meta },
        }),
      );
      return out;
    }
    out.push(
      update({
        sessionUpdate: "tool_call_update",
        toolCallId: result.toolCallId,
        status,
        content,
        rawOutput,
        _meta: toolMeta(known.name, meta),
      }),
    );
    return out;
  }

  function startTool(
    toolCallId: string,
    name: string,
    title: string | undefined,
    rawInput: unknown,
    extra: Record<string, unknown>,
  ): AcpOutput {
    const view: AcpToolCallView = { toolCallId, name, title: title ?? name, ...(rawInput !== undefined ? { rawInput } : {}) };
    tools.set(toolCallId, view);
    return update({
      sessionUpdate: "tool_call",
      toolCallId,
      title: view.title,
      name,
      kind: "other",
      status: "pending",
      ...(rawInput !== undefined ? { rawInput } : {}),
      _meta: toolMeta(name, extra),
    });
  }

  function blockOutputs(block: AgBlock, at: { messageId?: string; role: AgRole }, event: AgLenientEvent): AcpOutput[] {
    // A block of a type a later minor added (§0.2, §12) has no ACP update: the event rides whole.
    if (!isKnownBlock(block)) return [ext(event)];
    switch (block.type) {
      case "text": {
        const c = chunk("message", block.text, at);
        return c ? [c, ...(block.citations ? [ext(event)] : [])] : [ext(event)];
      }
      case "reasoning": {
        const c = block.text !== undefined ? chunk("thought", block.text, at) : undefined;
        return c ? [c, ...(block.opaque ? [ext(event)] : [])] : [ext(event)];
      }
      case "tool-call":
        if (tools.has(block.toolCallId)) return [ext(event)];
        return [startTool(block.toolCallId, block.name, block.title, block.input, {})];
      case "tool-result":
        return resultUpdate(block, block.preliminary === true);
      case "data": {
        const entries = block.name === "plan" ? planEntriesOf(block.data) : undefined;
        return entries !== undefined ? [update({ sessionUpdate: "plan", entries })] : [ext(event)];
      }
      default: {
        const content = acpContentOf(block);
        if (content === undefined) return [ext(event)];
        const messageId = at.messageId !== undefined ? { messageId: at.messageId } : {};
        return [update({ sessionUpdate: at.role === "user" ? "user_message_chunk" : "agent_message_chunk", content, ...messageId })];
      }
    }
  }

  function push(event: AgKnownEvent | AgExtEvent): AcpOutput[] {
    switch (event.type) {
      case "turn.start":
      case "subagent.start":
        lastTurn = event.turnId;
        return [ext(event)];
      case "subagent.done":
        lastTurn = event.parentTurnId;
        return [ext(event)];
      case "message.start":
        roles.set(event.id, event.role);
        if ((event.candidateIndex ?? 0) === 0) lastMessage.set(event.turnId, event.id);
        lastTurn = event.turnId;
        return [ext(event)];
      case "text.start":
      case "reasoning.start": {
        if ((event.candidateIndex ?? 0) !== 0) return [ext(event)];
        const at = owner(event);
        if (at.role === "system" || at.role === "tool") return [ext(event)];
        blocks.set(event.id, at);
        return [];
      }
      case "text.delta":
      case "reasoning.delta": {
        const at = blocks.get(event.id);
        if (at === undefined) return [ext(event)];
        const c = chunk(event.type === "text.delta" ? "message" : "thought", event.delta, at);
        return c ? [c] : [];
      }
      case "text.end":
      case "reasoning.end": {
        const known = blocks.delete(event.id);
        // citations and provider metadata have no ACP field; the event carries them whole
        const carries =
          event.type === "text.end"
            ? event.citations !== undefined || event.providerMetadata !== undefined
            : event.providerMetadata !== undefined || event.provider !== undefined;
        return known && !carries ? [] : [ext(event)];
      }
      case "tool.start":
        if ((event.candidateIndex ?? 0) !== 0 || tools.has(event.toolCallId)) return [ext(event)];
        {
          const extra: Record<string, unknown> = {};
          for (const k of TOOL_START_CARRIED) if (event[k] !== undefined) extra[k] = event[k];
          return [startTool(event.toolCallId, event.name, event.title, undefined, extra)];
        }
      case "tool.args.delta":
        // ACP carries no partial input: the assembled input (authoritative, §5) follows.
        return tools.has(event.toolCallId) ? [] : [ext(event)];
      case "tool.args.assembled": {
        const tool = tools.get(event.toolCallId);
        if (tool === undefined) return [ext(event)];
        tool.rawInput = event.input;
        if (event.title !== undefined) tool.title = event.title;
        return [
          update({
            sessionUpdate: "tool_call_update",
            toolCallId: event.toolCallId,
            status: "in_progress",
            rawInput: event.input,
            ...(event.title !== undefined ? { title: event.title } : {}),
            _meta: toolMeta(tool.name),
          }),
        ];
      }
      case "tool.done":
        if ((event.candidateIndex ?? 0) !== 0) return [ext(event)];
        return resultUpdate(event, event.more === true);
      case "content.block": {
        if (event.transient === true || (event.candidateIndex ?? 0) !== 0) return [ext(event)];
        const at = owner(event);
        if (at.role === "system" || (at.role === "tool" && event.block.type !== "tool-result")) return [ext(event)];
        return blockOutputs(event.block, at, event);
      }
      case "source": {
        const s = event.source;
        if ("url" in s && typeof s.url === "string") {
          const title = "title" in s && typeof s.title === "string" ? s.title : s.url;
          return [
            update({
              sessionUpdate: "agent_message_chunk",
              content: { type: "resource_link", uri: s.url, name: title },
              _meta: { agjson: { sourceId: event.sourceId } },
            }),
          ];
        }
        return [ext(event)];
      }
      case "hitl.ask":
        return [{ kind: "ask", ask: event }];
      default:
        return [ext(event)];
    }
  }

  // A type this version does not know (§0.2) has no ACP update: it goes out whole, as the default arm's do.
  return { push: (event) => (isKnownEvent(event) ? push(event) : [ext(event)]), toolCall: (id) => tools.get(id) };
}
