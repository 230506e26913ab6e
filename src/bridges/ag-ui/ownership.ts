/**
 * Who opened each AG-UI entity of the current run — messages, tool calls, reasoning messages,
 * activities — kept the way `@ag-ui/client`'s `verifyEvents` keeps it, so the encoder can see before
 * it emits that an event would attribute an entity to a second agent (AG-UI 1.0: "a tool call
 * belongs to the message that carries it"; an entity belongs to the subagent that opened it). An
 * AgJSON stream may reuse an id across a nested turn (§1.1) and its parent; AG-UI may not.
 */
import { EventType, type AgUiEvent } from "./vocabulary.js";

/** The entity kinds AG-UI attributes to one agent each. */
export type AgUiEntity = "message" | "toolCall" | "reasoning" | "activity";

/** Owner tables of one run: entity id → opening subagent (undefined: the parent agent). */
export class AgUiOwnership {
  private readonly tables: Record<AgUiEntity, Map<string, string | undefined>> = {
    message: new Map(),
    toolCall: new Map(),
    reasoning: new Map(),
    activity: new Map(),
  };

  /** Whether `id` is known, and its owner. */
  owner(entity: AgUiEntity, id: string): { known: boolean; sub: string | undefined } {
    const table = this.tables[entity];
    return { known: table.has(id), sub: table.get(id) };
  }

  /** True when an event attributed to `sub` would contradict the owner of `id` (verifyEvents refuses it). */
  conflicts(entity: AgUiEntity, id: string, sub: string | undefined): boolean {
    if (sub === undefined) return false;
    const table = this.tables[entity];
    return table.has(id) && table.get(id) !== sub;
  }

  /** True when `id` is owned by someone other than `sub`, the parent agent included. */
  ownedElsewhere(entity: AgUiEntity, id: string, sub: string | undefined): boolean {
    const table = this.tables[entity];
    return table.has(id) && table.get(id) !== sub;
  }

  /** Updates the tables for an event about to be emitted; RUN_STARTED opens fresh ones. */
  record(ev: AgUiEvent): void {
    switch (ev.type) {
      case EventType.RUN_STARTED:
        for (const table of Object.values(this.tables)) table.clear();
        return;
      case EventType.TEXT_MESSAGE_START:
        this.claim("message", ev.messageId, ev.subagentRunId);
        return;
      case EventType.TOOL_CALL_START: {
        const parent = ev.parentMessageId !== undefined ? this.tables.message.get(ev.parentMessageId) : undefined;
        this.claim("toolCall", ev.toolCallId, ev.subagentRunId ?? parent);
        return;
      }
      case EventType.TOOL_CALL_RESULT:
        this.tables.message.set(ev.messageId, ev.subagentRunId);
        return;
      case EventType.REASONING_START:
      case EventType.REASONING_MESSAGE_START:
        this.claim("reasoning", ev.messageId, ev.subagentRunId);
        return;
      case EventType.ACTIVITY_SNAPSHOT:
        if (!this.tables.activity.has(ev.messageId) || ev.replace !== false) this.tables.activity.set(ev.messageId, ev.subagentRunId);
        return;
      case EventType.MESSAGES_SNAPSHOT:
        for (const m of ev.messages) {
          const entity: AgUiEntity = m.role === "reasoning" ? "reasoning" : m.role === "activity" ? "activity" : "message";
          this.tables[entity].set(m.id, m.subagentRunId);
          if (m.role === "assistant") for (const call of m.toolCalls ?? []) this.tables.toolCall.set(call.id, m.subagentRunId);
        }
        return;
      default:
        return;
    }
  }

  private claim(entity: AgUiEntity, id: string, sub: string | undefined): void {
    const table = this.tables[entity];
    if (!table.has(id)) table.set(id, sub);
  }
}
