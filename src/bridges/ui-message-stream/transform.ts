/**
 * The stateful AgEvent → AI SDK UI message chunk transform. One top-level turn (§1.1) is one UI
 * message (`start` … `finish`), its id the turnId; a subagent's nested turn renders inside its
 * parent's message. Live-only events and anything a chunk cannot place go out as transient
 * `data-agjson-<type>` chunks carrying the whole event (nothing is dropped silently); folding
 * content with no UI part type becomes a persistent `data-agjson-block` part. docs/bridges/ui-message-stream.md
 * has the table.
 */
import type {
  AgContentBlockEvent,
  AgHitlAskEvent,
  AgRole,
  AgToolDoneEvent,
  AgToolResultBlock,
  AgKnownEvent,
  AgExtEvent,
} from "../../../generated/lenient-types.js";
import type { AgLenientEvent } from "../../../generated/types.js";
import type { UIMessageChunk, UIProviderMetadata } from "./chunks.js";
import { fileChunkOf, jsonObject, sourceChunkOf, toolOutput, uiCitation, uiFinishReason, uiProviderMetadata } from "./map.js";
import {
  EVENT_ENVELOPE_FIELDS,
  EVENT_FIELDS,
  fieldsOtherThan,
  isKnownBlock,
  isKnownEvent,
  type FieldOf,
} from "../../../generated/schema-facts.js";

/**
 * The fields of a result (tool.done or a tool-result block) the AI SDK's tool-output chunks state
 * themselves or that the chunk's shape already says (the envelope, `more`/`preliminary` as the
 * preliminary flag, the error text): the AI SDK's vocabulary, typed against the generated fields.
 * Every other field rides `providerMetadata.agjson`, so a field the schema adds is never lost.
 */
const RESULT_OWN: ReadonlySet<string> = new Set<FieldOf<AgToolDoneEvent | AgToolResultBlock>>([
  ...EVENT_ENVELOPE_FIELDS,
  "toolCallId",
  "providerMetadata",
  "toolMetadata",
  "dynamic",
  "more",
  "preliminary",
  "errorText",
]);

/**
 * A tool.start's fields tool-input-start has no slot for, riding `providerMetadata.agjson`: every
 * field other than the envelope and the ones the chunk states (read from the generated table, so a
 * field the schema adds rides too).
 */
const TOOL_START_CARRIED = fieldsOtherThan(EVENT_FIELDS["tool.start"], [
  ...EVENT_ENVELOPE_FIELDS,
  "toolCallId",
  "name",
  "dynamic",
  "providerExecuted",
  "title",
  "toolMetadata",
  "providerMetadata",
  "candidateIndex",
]);

/** Options of {@link createUIMessageStreamTransform}. */
export interface UIMessageStreamOptions {
  /**
   * Also send each lifecycle/live-only event, and any event with nothing to attach to, as a
   * transient `data-agjson-<type>` chunk carrying the whole event (default true): usage, outcomes,
   * asks, state and `ext.*` events reach `useChat`'s `onData`. With false they are not sent.
   */
  passThrough?: boolean;
}

/** A stateful transform: `push` one event, `end` at end of stream. */
export interface UIMessageStreamTransform {
  /**
   * One event — what `reduce()` takes: a type this version does not know (§0.2) attaches to
   * nothing and passes as a transient `data-agjson-<type>` chunk, like a live-only one.
   */
  push(event: AgLenientEvent): UIMessageChunk[];
  end(): UIMessageChunk[];
}

interface ToolState {
  name: string;
  dynamic?: boolean;
  providerExecuted?: boolean;
  /** The UI step the part was made in: the AI SDK finds a call's part only within the current step. */
  step: number;
  /** tool-input-available went out: the client has the input and may have run the call (onToolCall). */
  inputSent?: boolean;
}

/** A message's role (§3 AgRole). */
type Role = AgRole;

/** Creates the transform; one instance per AgEvent stream. */
export function createUIMessageStreamTransform(options: UIMessageStreamOptions = {}): UIMessageStreamTransform {
  const passThrough = options.passThrough ?? true;
  let open = false; // a UI message is open (start sent, finish/abort not yet)
  let openTurn: string | undefined; // its top-level turnId
  let stepOpen = false;
  let step = 0; // start-step chunks sent in the open UI message
  let lastTurn: string | undefined;
  const parents = new Map<string, string>(); // nested turnId → parent turnId
  const roles = new Map<string, Role>(); // messageId → role
  const lastMessage = new Map<string, string>(); // turnId → most recently opened messageId
  let texts = new Set<string>();
  let reasonings = new Set<string>();
  let tools = new Map<string, ToolState>();
  let pendingReasoningEnd: { id: string; providerMetadata?: UIProviderMetadata } | undefined;

  const data = (event: AgLenientEvent): UIMessageChunk => ({ type: `data-agjson-${event.type}`, data: event, transient: true });
  const pass = (out: UIMessageChunk[], event: AgLenientEvent): void => {
    if (passThrough) out.push(data(event));
  };

  const topTurn = (turnId: string | undefined): string | undefined => {
    let t = turnId;
    for (let guard = 0; t !== undefined && parents.has(t) && guard < 1024; guard++) t = parents.get(t);
    return t;
  };

  function resetMessage(): void {
    texts = new Set();
    reasonings = new Set();
    tools = new Map();
    stepOpen = false;
    step = 0;
  }

  function flushReasoning(out: UIMessageChunk[]): void {
    if (pendingReasoningEnd === undefined) return;
    const { id, providerMetadata } = pendingReasoningEnd;
    pendingReasoningEnd = undefined;
    out.push(providerMetadata ? { type: "reasoning-end", id, providerMetadata } : { type: "reasoning-end", id });
  }

  /** Opens the UI message for `turnId` when none is open (content may precede any turn.start). */
  function ensureStarted(out: UIMessageChunk[], turnId: string | undefined): void {
    if (open) return;
    open = true;
    openTurn = topTurn(turnId);
    resetMessage();
    out.push(openTurn !== undefined ? { type: "start", messageId: openTurn } : { type: "start" });
  }

  /** The role of the message an event attaches to (§5 message partitioning), assistant when unknown. */
  function roleOf(event: { messageId?: string; turnId?: string }): Role {
    const messageId = event.messageId ?? lastMessage.get(event.turnId ?? lastTurn ?? "");
    return (messageId !== undefined ? roles.get(messageId) : undefined) ?? "assistant";
  }

  /** Whether a block-creating event renders in the UI message: candidate 0 of an assistant message. */
  function renders(event: { messageId?: string; turnId?: string; candidateIndex?: number }): boolean {
    return (event.candidateIndex ?? 0) === 0 && roleOf(event) === "assistant";
  }

  function toolInputChunks(
    out: UIMessageChunk[],
    toolCallId: string,
    input: unknown,
    extra: { title?: string; toolMetadata?: Record<string, unknown>; providerMetadata?: Record<string, unknown>; signature?: string },
  ): void {
    const tool = tools.get(toolCallId);
    if (tool === undefined) return;
    tool.inputSent = true;
    const pm = uiProviderMetadata(extra.providerMetadata, extra.signature !== undefined ? { signature: extra.signature } : undefined);
    out.push({
      type: "tool-input-available",
      toolCallId,
      toolName: tool.name,
      input,
      ...(tool.providerExecuted !== undefined ? { providerExecuted: tool.providerExecuted } : {}),
      ...(tool.dynamic !== undefined ? { dynamic: tool.dynamic } : {}),
      ...(extra.title !== undefined ? { title: extra.title } : {}),
      ...(extra.toolMetadata !== undefined ? { toolMetadata: jsonObject(extra.toolMetadata) } : {}),
      ...(pm ? { providerMetadata: pm } : {}),
    });
  }

  /** A tool result (tool.done or a tool-result block, delivered by `event`) onto the tool part of its call. */
  function toolResultChunks(
    out: UIMessageChunk[],
    result: AgToolResultBlock | AgToolDoneEvent,
    more: boolean,
    event: AgLenientEvent,
  ): boolean {
    const tool = tools.get(result.toolCallId);
    if (tool === undefined) return false;
    const common = {
      toolCallId: result.toolCallId,
      ...(tool.providerExecuted !== undefined ? { providerExecuted: tool.providerExecuted } : {}),
      ...(result.dynamic !== undefined ? { dynamic: result.dynamic } : tool.dynamic !== undefined ? { dynamic: tool.dynamic } : {}),
      ...(result.toolMetadata !== undefined ? { toolMetadata: jsonObject(result.toolMetadata) } : {}),
    };
    if (result.outcome === "denied") {
      out.push({ type: "tool-output-denied", toolCallId: result.toolCallId });
      // tool-output-denied has no field but the id: a denial that carries more (its text, uiData —
      // channels §2.1 routes to the surface, §9 never drops) rides whole as data.
      if (result.content.length > 0 || Object.keys(result).some((k) => !RESULT_OWN.has(k) && k !== "content" && k !== "outcome"))
        pass(out, event);
      return true;
    }
    const { output, from } = toolOutput(result);
    // Every result field the chunk has no place for rides providerMetadata.agjson (§2.1 channels).
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(result)) {
      if (RESULT_OWN.has(k)) continue;
      if (k === "structuredContent" && from === "structuredContent") continue;
      if (
        k === "content" &&
        (from === "content" || (from === "text" && result.content.length === 1 && Object.keys(result.content[0]!).length === 2))
      )
        continue;
      rest[k] = v;
    }
    if (result.outcome === "error" && result.errorText !== undefined) {
      const pm = uiProviderMetadata(result.providerMetadata, rest);
      out.push({ type: "tool-output-error", ...common, errorText: result.errorText, ...(pm ? { providerMetadata: pm } : {}) });
      return true;
    }
    const pm = uiProviderMetadata(result.providerMetadata, rest);
    out.push({
      type: "tool-output-available",
      ...common,
      output,
      ...(more ? { preliminary: true } : {}),
      ...(pm ? { providerMetadata: pm } : {}),
    });
    return true;
  }

  /** A whole block delivered by content.block (§4 atomic block delivery). */
  function blockChunks(out: UIMessageChunk[], event: AgContentBlockEvent): void {
    const block = event.block;
    const transient = event.transient === true;
    const key = event.id ?? `block-${event.seq}`;
    if (!transient) ensureStarted(out, event.turnId ?? lastTurn);
    // A block of a type a later minor added (§0.2, §12) has no chunk of its own: it rides whole below.
    if (isKnownBlock(block))
      switch (block.type) {
        case "text": {
          if (transient) break;
          const pm = uiProviderMetadata(block.providerMetadata, jsonObject({ annotations: block.annotations, _meta: block._meta }));
          out.push(pm ? { type: "text-start", id: key, providerMetadata: pm } : { type: "text-start", id: key });
          if (block.text.length > 0) out.push({ type: "text-delta", id: key, delta: block.text });
          out.push(
            block.citations ? { type: "text-end", id: key, citations: block.citations.map(uiCitation) } : { type: "text-end", id: key },
          );
          return;
        }
        case "reasoning": {
          if (transient) break;
          const { type: _t, text, providerMetadata, ...rest } = block;
          const pm = uiProviderMetadata(providerMetadata, rest);
          out.push({ type: "reasoning-start", id: key });
          if (text !== undefined && text.length > 0) out.push({ type: "reasoning-delta", id: key, delta: text });
          out.push(pm ? { type: "reasoning-end", id: key, providerMetadata: pm } : { type: "reasoning-end", id: key });
          return;
        }
        case "tool-call": {
          if (transient) break;
          const shown = tools.get(block.toolCallId);
          if (shown !== undefined) {
            // A block re-stating a shown call REPLACEs it in place (§5.0 INV-BLOCK, §1.3; docs/spec-decisions.md
            // D1): never a second part. A call still streaming its input gets the block's as its input; once
            // the client has the input (and may have run the call) it is not sent again, and a part made in an
            // earlier step is out of the AI SDK's reach (it would append a new one): the event goes as data.
            if (shown.inputSent === true || shown.step !== step) {
              pass(out, event);
              return;
            }
            shown.name = block.name;
            if (block.providerExecuted !== undefined) shown.providerExecuted = block.providerExecuted;
          } else
            tools.set(block.toolCallId, {
              name: block.name,
              step,
              ...(block.providerExecuted !== undefined ? { providerExecuted: block.providerExecuted } : {}),
            });
          const { type: _t, toolCallId, name: _n, input, title, toolMetadata, providerMetadata, providerExecuted: _p, ...rest } = block;
          toolInputChunks(out, toolCallId, input, {
            ...(title !== undefined ? { title } : {}),
            ...(toolMetadata !== undefined ? { toolMetadata } : {}),
            providerMetadata: { ...(providerMetadata ?? {}) },
          });
          if (Object.keys(rest).length > 0) {
            // serverName, signature, itemId, … have no tool-chunk field: keep them on the call's metadata
            const last = out[out.length - 1];
            if (last?.type === "tool-input-available") last.providerMetadata = uiProviderMetadata(providerMetadata, rest);
          }
          return;
        }
        case "tool-result": {
          if (transient) break;
          if (toolResultChunks(out, block, block.preliminary === true, event)) return;
          break;
        }
        case "data": {
          const id = block.id;
          out.push({
            type: `data-${block.name}`,
            ...(id !== undefined ? { id } : {}),
            data: block.data,
            ...(transient || block.transient === true ? { transient: true } : {}),
          });
          return;
        }
        default: {
          const file = transient ? undefined : fileChunkOf(block);
          if (file !== undefined) {
            out.push({ type: "file", ...file });
            return;
          }
        }
      }
    // The fold reconciles a whole block by its own id (§5 content.block); so does the AI SDK, by (type, id).
    const id: unknown = Reflect.get(block, "id");
    out.push({
      type: "data-agjson-block",
      ...(typeof id === "string" ? { id } : {}),
      data: block,
      ...(transient ? { transient: true } : {}),
    });
  }

  function askChunks(out: UIMessageChunk[], event: AgHitlAskEvent): void {
    // §7: an approval tied to a rendered tool call is the AI SDK's tool approval request.
    if (event.kind === "approval" && event.toolCallId !== undefined && tools.has(event.toolCallId)) {
      const reason = event.reason ?? event.message;
      out.push({
        type: "tool-approval-request",
        approvalId: event.askId,
        toolCallId: event.toolCallId,
        ...(reason !== undefined ? { reason } : {}),
      });
    }
    // The full ask (schema, choices, token, requestState …) is what a client needs to answer it.
    pass(out, event);
  }

  function closeMessage(out: UIMessageChunk[]): void {
    flushReasoning(out);
    if (stepOpen) out.push({ type: "finish-step" });
    open = false;
    openTurn = undefined;
    resetMessage();
  }

  function push(event: AgKnownEvent | AgExtEvent): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    if (
      pendingReasoningEnd !== undefined &&
      !(event.type === "reasoning.opaque" && event.id === pendingReasoningEnd.id) &&
      !(event.type === "reasoning.opaque.delta" && event.id === pendingReasoningEnd.id)
    ) {
      flushReasoning(out);
    }
    switch (event.type) {
      case "turn.start": {
        lastTurn = event.turnId;
        if (open && openTurn !== event.turnId) closeMessage(out);
        if (!open) {
          open = true;
          openTurn = event.turnId;
          resetMessage();
          out.push({ type: "start", messageId: event.turnId });
        }
        pass(out, event);
        return out;
      }
      case "subagent.start":
        parents.set(event.turnId, event.parentTurnId);
        lastTurn = event.turnId;
        pass(out, event);
        return out;
      case "subagent.done":
        lastTurn = event.parentTurnId;
        pass(out, event);
        return out;
      case "turn.done": {
        pass(out, event);
        if (open && topTurn(event.turnId) === openTurn && !parents.has(event.turnId)) {
          closeMessage(out);
          out.push({
            type: "finish",
            finishReason: uiFinishReason(event.finishReason),
            ...(event.messageMetadata !== undefined ? { messageMetadata: event.messageMetadata } : {}),
          });
        }
        return out;
      }
      case "turn.error": {
        pass(out, event);
        const turn = event.turnId ?? lastTurn;
        if (turn !== undefined && parents.has(turn)) return out;
        ensureStarted(out, turn);
        closeMessage(out);
        out.push({ type: "error", errorText: event.message }, { type: "finish", finishReason: "error" });
        return out;
      }
      case "turn.abort": {
        pass(out, event);
        const turn = event.turnId ?? lastTurn;
        if (turn !== undefined && parents.has(turn)) return out;
        if (open) closeMessage(out);
        out.push(event.reason !== undefined ? { type: "abort", reason: event.reason } : { type: "abort" });
        return out;
      }
      case "message.start":
        roles.set(event.id, event.role);
        if ((event.candidateIndex ?? 0) === 0) lastMessage.set(event.turnId, event.id);
        lastTurn = event.turnId;
        pass(out, event);
        return out;
      case "step.start":
        ensureStarted(out, event.turnId ?? lastTurn);
        if (stepOpen) out.push({ type: "finish-step" });
        out.push({ type: "start-step" });
        stepOpen = true;
        step++;
        pass(out, event);
        return out;
      case "step.done":
        if (stepOpen) {
          out.push({ type: "finish-step" });
          stepOpen = false;
        }
        pass(out, event);
        return out;
      case "text.start": {
        if (!renders(event) || texts.has(event.id)) break;
        ensureStarted(out, event.turnId ?? lastTurn);
        texts.add(event.id);
        const pm = uiProviderMetadata(event.providerMetadata);
        out.push(pm ? { type: "text-start", id: event.id, providerMetadata: pm } : { type: "text-start", id: event.id });
        return out;
      }
      case "text.delta": {
        if (!texts.has(event.id)) break;
        const pm = uiProviderMetadata(event.providerMetadata);
        out.push(
          pm
            ? { type: "text-delta", id: event.id, delta: event.delta, providerMetadata: pm }
            : { type: "text-delta", id: event.id, delta: event.delta },
        );
        return out;
      }
      case "text.end": {
        if (!texts.has(event.id)) break;
        texts.delete(event.id);
        const pm = uiProviderMetadata(event.providerMetadata);
        out.push({
          type: "text-end",
          id: event.id,
          ...(event.citations ? { citations: event.citations.map(uiCitation) } : {}),
          ...(pm ? { providerMetadata: pm } : {}),
        });
        return out;
      }
      case "reasoning.start": {
        if (!renders(event) || reasonings.has(event.id)) break;
        ensureStarted(out, event.turnId ?? lastTurn);
        reasonings.add(event.id);
        const pm = uiProviderMetadata(event.providerMetadata, event.itemId !== undefined ? { itemId: event.itemId } : undefined);
        out.push(pm ? { type: "reasoning-start", id: event.id, providerMetadata: pm } : { type: "reasoning-start", id: event.id });
        return out;
      }
      case "reasoning.delta": {
        if (!reasonings.has(event.id)) break;
        const pm = uiProviderMetadata(event.providerMetadata);
        out.push(
          pm
            ? { type: "reasoning-delta", id: event.id, delta: event.delta, providerMetadata: pm }
            : { type: "reasoning-delta", id: event.id, delta: event.delta },
        );
        return out;
      }
      case "reasoning.end": {
        if (!reasonings.has(event.id)) break;
        reasonings.delete(event.id);
        // Held one event: a reasoning.opaque right after the end (Anthropic signature) joins it.
        const pm = uiProviderMetadata(event.providerMetadata, event.provider !== undefined ? { provider: event.provider } : undefined);
        pendingReasoningEnd = pm ? { id: event.id, providerMetadata: pm } : { id: event.id };
        return out;
      }
      case "reasoning.opaque": {
        const opaque = jsonObject({ kind: event.kind, value: event.value, provider: event.provider });
        const extra = event.itemId !== undefined ? { opaque, itemId: event.itemId } : { opaque };
        if (pendingReasoningEnd !== undefined && pendingReasoningEnd.id === event.id) {
          const base = pendingReasoningEnd.providerMetadata ?? {};
          pendingReasoningEnd.providerMetadata = { ...base, agjson: { ...(base.agjson ?? {}), ...extra } };
          return out;
        }
        if (reasonings.has(event.id)) {
          // Not yet ended: the AI SDK keeps the latest delta's providerMetadata on the part.
          out.push({ type: "reasoning-delta", id: event.id, delta: "", providerMetadata: { agjson: extra } });
          return out;
        }
        break;
      }
      case "reasoning.opaque.delta":
        // A scratch buffer sealed by the following reasoning.opaque (§5); nothing to render yet.
        if (reasonings.has(event.id) || pendingReasoningEnd?.id === event.id) return out;
        break;
      case "tool.start": {
        if (!renders(event) || tools.has(event.toolCallId)) break;
        ensureStarted(out, event.turnId ?? lastTurn);
        tools.set(event.toolCallId, {
          name: event.name,
          step,
          ...(event.dynamic !== undefined ? { dynamic: event.dynamic } : {}),
          ...(event.providerExecuted !== undefined ? { providerExecuted: event.providerExecuted } : {}),
        });
        const extra: Record<string, unknown> = {};
        for (const k of TOOL_START_CARRIED) if (event[k] !== undefined) extra[k] = event[k];
        const pm = uiProviderMetadata(event.providerMetadata, extra);
        out.push({
          type: "tool-input-start",
          toolCallId: event.toolCallId,
          toolName: event.name,
          ...(event.providerExecuted !== undefined ? { providerExecuted: event.providerExecuted } : {}),
          ...(event.dynamic !== undefined ? { dynamic: event.dynamic } : {}),
          ...(event.title !== undefined ? { title: event.title } : {}),
          ...(event.toolMetadata !== undefined ? { toolMetadata: jsonObject(event.toolMetadata) } : {}),
          ...(pm ? { providerMetadata: pm } : {}),
        });
        return out;
      }
      case "tool.args.delta":
        if (!tools.has(event.toolCallId)) break;
        out.push({ type: "tool-input-delta", toolCallId: event.toolCallId, inputTextDelta: event.delta });
        return out;
      case "tool.args.assembled": {
        if (!tools.has(event.toolCallId)) break;
        toolInputChunks(out, event.toolCallId, event.input, {
          ...(event.title !== undefined ? { title: event.title } : {}),
          ...(event.toolMetadata !== undefined ? { toolMetadata: event.toolMetadata } : {}),
          ...(event.providerMetadata !== undefined ? { providerMetadata: event.providerMetadata } : {}),
          ...(event.signature !== undefined ? { signature: event.signature } : {}),
        });
        return out;
      }
      case "tool.done": {
        if ((event.candidateIndex ?? 0) !== 0 || !tools.has(event.toolCallId)) {
          // A result for a call this UI message never showed (an earlier turn's call, another
          // candidate): it folds (§5), so it becomes a persistent part rather than a transient one.
          ensureStarted(out, event.turnId ?? lastTurn);
          out.push({ type: "data-agjson-tool.done", id: event.toolCallId, data: event });
          return out;
        }
        toolResultChunks(out, event, event.more === true, event);
        return out;
      }
      case "content.block": {
        if (!renders(event)) break;
        blockChunks(out, event);
        return out;
      }
      case "source": {
        ensureStarted(out, event.turnId ?? lastTurn);
        out.push(sourceChunkOf(event.sourceId, event.source, event.providerMetadata, event.chunkIndex));
        return out;
      }
      case "message.metadata":
        if (roleOf(event) !== "assistant") break;
        ensureStarted(out, event.turnId ?? lastTurn);
        out.push({ type: "message-metadata", messageMetadata: event.metadata });
        return out;
      case "hitl.ask":
        askChunks(out, event);
        return out;
      default:
        break;
    }
    // Live-only (§5), or nothing in the UI message it could attach to.
    pass(out, event);
    return out;
  }

  function end(): UIMessageChunk[] {
    const out: UIMessageChunk[] = [];
    flushReasoning(out);
    if (open) {
      // INV-FLUSH: a stream that ends with its turn open was cut short; the AI SDK says "interrupted".
      closeMessage(out);
      out.push({ type: "finish", finishReason: "interrupted" });
    }
    return out;
  }

  /** A type this version does not know (§0.2) attaches to nothing: it passes through, as a live-only event does. */
  function pushLenient(event: AgLenientEvent): UIMessageChunk[] {
    if (isKnownEvent(event)) return push(event);
    const out: UIMessageChunk[] = [];
    if (pendingReasoningEnd !== undefined) flushReasoning(out);
    pass(out, event);
    return out;
  }

  return { push: pushLenient, end };
}
