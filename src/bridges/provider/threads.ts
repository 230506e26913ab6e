/**
 * The conversations a provider source keeps, one per AgInput `threadId` (§1.1: the thread is the
 * root of identity), bounded in thread count (least recently used goes first) and in messages per
 * thread (the oldest exchanges go first, cut where a user message starts so no tool call is
 * separated from its result). A raw provider API is stateless: this store is its memory.
 */
import type { AgMessage, AgPausedAsk } from "../../../generated/lenient-types.js";

/** One thread's conversation as the provider will see it next. */
export interface ProviderThread {
  readonly id: string;
  /** The conversation: every input message and every assistant message the provider produced. */
  messages: AgMessage[];
  /** Asks the last turn paused on (§7), for a resume to answer. */
  pendingAsks: AgPausedAsk[];
  /** A run on this thread is streaming. */
  busy: boolean;
}

/** Bounds of a {@link ThreadStore}. */
export interface ThreadStoreLimits {
  maxThreads: number;
  maxMessages: number;
}

/** Ids a message is known by: its own and its blocks' (a client's copy may split a message by block). */
function idsOf(m: AgMessage): string[] {
  const ids = [m.id];
  for (const b of m.content) if ("id" in b && typeof b.id === "string") ids.push(b.id);
  return ids;
}

/**
 * The messages of an input that the thread does not hold yet. A client that resends the whole
 * conversation each run (AG-UI's `RunAgentInput.messages`) is recognised by ids the thread already
 * knows: everything up to the last such message is history the thread holds in full fidelity
 * (replay blobs included, §13.2), so only what follows it is new. A client that sends only the new
 * message (ACP) shares no id and all of it is new.
 */
export function newMessages(thread: ProviderThread, incoming: readonly AgMessage[]): AgMessage[] {
  const known = new Set<string>();
  for (const m of thread.messages) for (const id of idsOf(m)) known.add(id);
  let last = -1;
  incoming.forEach((m, i) => {
    if (known.has(m.id)) last = i;
  });
  return incoming.slice(last + 1);
}

/** Drops the oldest exchanges until at most `max` messages remain, cutting before a user message. */
export function trimConversation(messages: AgMessage[], max: number): { kept: AgMessage[]; dropped: number } {
  if (messages.length <= max) return { kept: messages, dropped: 0 };
  let cut = messages.length - max;
  // Start at a user message (after the system prompt) so every kept tool result keeps its call.
  while (cut < messages.length && messages[cut]!.role !== "user") cut++;
  if (cut >= messages.length) cut = messages.length - max;
  const system = messages.slice(0, cut).filter((m) => m.role === "system");
  const kept = [...system, ...messages.slice(cut)];
  return { kept, dropped: messages.length - kept.length };
}

/** Threads by id, least recently used evicted past `maxThreads`. */
export class ThreadStore {
  private readonly threads = new Map<string, ProviderThread>();

  constructor(readonly limits: ThreadStoreLimits) {}

  /** The thread `id`, created empty when unknown; marks it most recently used. */
  get(id: string): ProviderThread {
    let thread = this.threads.get(id);
    if (thread !== undefined) this.threads.delete(id);
    else thread = { id, messages: [], pendingAsks: [], busy: false };
    this.threads.set(id, thread);
    if (this.threads.size > this.limits.maxThreads) {
      for (const [key, t] of this.threads) {
        if (this.threads.size <= this.limits.maxThreads) break;
        if (!t.busy && key !== id) this.threads.delete(key);
      }
    }
    return thread;
  }

  /** Number of threads held. */
  get size(): number {
    return this.threads.size;
  }

  /** The thread `id` if held (no use mark). */
  peek(id: string): ProviderThread | undefined {
    return this.threads.get(id);
  }
}
