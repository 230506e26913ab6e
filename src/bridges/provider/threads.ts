/**
 * The conversations a provider source keeps, one per AgInput `threadId` (§1.1: the thread is the
 * root of identity), bounded in thread count and in bytes for all threads together (least recently
 * used goes first), and in messages and bytes per thread (the oldest exchanges go first, cut where
 * a user message starts so no tool call is separated from its result). A raw provider API is
 * stateless: this store is its memory, and each turn resends a whole thread, so the per-thread byte
 * bound is also the bound of one request.
 */
import type { AgKnownBlock, AgMessage, AgPausedAsk } from "../../../generated/lenient-types.js";
import type { FieldOf } from "../../../generated/schema-facts.js";
import { utf8Length } from "../../validate/index.js";
import { isRecord } from "../../json-guards.js";

/** Default bytes (JSON text) of one thread's conversation. */
export const DEFAULT_MAX_THREAD_BYTES = 4 << 20;
/** Default bytes of all threads together. */
export const DEFAULT_MAX_STORE_BYTES = 256 << 20;

/** One thread's conversation as the provider will see it next. */
export interface ProviderThread {
  readonly id: string;
  /** The conversation: every input message and every assistant message the provider produced. */
  messages: AgMessage[];
  /** Asks the last turn paused on (§7), for a resume to answer. */
  pendingAsks: AgPausedAsk[];
  /** A run on this thread is streaming. */
  busy: boolean;
  /** Bytes of `messages` as JSON text, as last stored. */
  bytes: number;
}

/** Bounds of a {@link ThreadStore}. */
export interface ThreadStoreLimits {
  maxThreads: number;
  maxMessages: number;
  /** Per thread, bytes of JSON text (default {@link DEFAULT_MAX_THREAD_BYTES}). */
  maxThreadBytes?: number;
  /** All threads together (default {@link DEFAULT_MAX_STORE_BYTES}). */
  maxStoreBytes?: number;
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

/** Bytes of a message as JSON text (what it adds to every request that resends it). */
export function messageBytes(m: AgMessage): number {
  return utf8Length(JSON.stringify(m));
}

/**
 * Drops the oldest exchanges until at most `max` messages and `maxBytes` bytes remain, cutting
 * before a user message so every kept tool result keeps its call; the system messages before the
 * cut stay. The last exchange is kept whatever its size (a turn cannot be sent without its own
 * prompt); `bytes` is what is kept.
 */
export function trimConversation(
  messages: AgMessage[],
  max: number,
  maxBytes = Number.POSITIVE_INFINITY,
): { kept: AgMessage[]; dropped: number; bytes: number } {
  const sizes = messages.map(messageBytes);
  const total = sizes.reduce((a, b) => a + b, 0);
  if (messages.length <= max && total <= maxBytes) return { kept: messages, dropped: 0, bytes: total };
  // Bytes kept when cutting at `c`: the system messages before it, and everything from it on.
  const after = new Array<number>(messages.length + 1).fill(0);
  for (let i = messages.length - 1; i >= 0; i--) after[i] = after[i + 1]! + sizes[i]!;
  let systemBefore = 0;
  let systemCount = 0;
  let cut = -1;
  for (let c = 0; c < messages.length; c++) {
    if (c > 0 && messages[c - 1]!.role === "system") {
      systemBefore += sizes[c - 1]!;
      systemCount++;
    }
    if (c === 0 || messages[c]!.role !== "user") continue;
    if (systemCount + messages.length - c <= max && systemBefore + after[c]! <= maxBytes) {
      cut = c;
      break;
    }
  }
  if (cut === -1) {
    // No user message to cut at fits: keep from the last one (the exchange in progress).
    cut = messages.findLastIndex((m, i) => i > 0 && m.role === "user");
    if (cut === -1) cut = Math.max(0, messages.length - max);
  }
  const kept = [...messages.slice(0, cut).filter((m) => m.role === "system"), ...messages.slice(cut)];
  const bytes = messages.reduce((sum, m, i) => (i >= cut || m.role === "system" ? sum + sizes[i]! : sum), 0);
  return { kept, dropped: messages.length - kept.length, bytes };
}

/** The provider bags of `metadata` (the facets' attribution, re-input's `metadata.<provider>`). */
const PROVIDER_BAGS = ["anthropic", "openai", "google", "bedrock", "cohere"];
/**
 * A block's replay-load-bearing fields (§13.2, §12 `providerMetadata`): what a provider reads back
 * as its own — sealed reasoning, a call's signature, item ids, provider metadata. A choice of
 * §13.2, not a schema fact; typed against the generated block fields.
 */
const CLIENT_BLOB_FIELDS: ReadonlySet<string> = new Set<FieldOf<AgKnownBlock>>([
  "opaque",
  "signature",
  "itemId",
  "providerMetadata",
  "providerDetails",
]);

function withoutBlobs(block: unknown): { block: unknown; removed: number } {
  if (!isRecord(block)) return { block, removed: 0 };
  const b = block as Record<string, unknown>;
  let removed = 0;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) {
    if (CLIENT_BLOB_FIELDS.has(k)) removed++;
    else out[k] = v;
  }
  // A tool result's own content (search results, sealed by the provider that ran the tool).
  if (Array.isArray(out.content)) {
    out.content = out.content.map((inner) => {
      const r = withoutBlobs(inner);
      removed += r.removed;
      return r.block;
    });
  }
  return { block: removed > 0 ? out : block, removed };
}

/**
 * §13.2: the messages a client sent, without the replay blobs in them (reasoning `opaque`, a call's
 * `signature`, item ids, `providerMetadata` / `providerDetails`, the message's provider bags). Only a blob
 * this source received from the provider is sent back to it as the provider's own; a client's copy
 * (an AG-UI `encryptedValue`, another provider's signature) never is. Each message that lost
 * something is reported, by count, never by value (§13.2: blobs are not logged).
 */
export function clientBlobsDropped(messages: readonly AgMessage[], report: (message: string) => void): AgMessage[] {
  return messages.map((m) => {
    let removed = 0;
    const content = m.content.map((block) => {
      const r = withoutBlobs(block);
      removed += r.removed;
      return r.block as AgMessage["content"][number];
    });
    let metadata = m.metadata;
    if (metadata !== undefined && PROVIDER_BAGS.some((p) => Object.hasOwn(metadata!, p))) {
      metadata = Object.fromEntries(Object.entries(metadata).filter(([k]) => !PROVIDER_BAGS.includes(k)));
      removed++;
    }
    if (removed === 0) return m;
    report(
      `message "${m.id}": ${removed} replay blob${removed === 1 ? "" : "s"} from the client not sent (§13.2: only what this source received from the provider is sent as the provider's own)`,
    );
    const { metadata: _old, ...rest } = m;
    return { ...rest, content, ...(metadata !== undefined && Object.keys(metadata).length > 0 ? { metadata } : {}) } as AgMessage;
  });
}

/** Threads by id, least recently used evicted past `maxThreads` or `maxStoreBytes`. */
export class ThreadStore {
  private readonly threads = new Map<string, ProviderThread>();
  readonly limits: Required<ThreadStoreLimits>;
  /** Bytes of all threads' conversations. */
  private total = 0;

  constructor(limits: ThreadStoreLimits) {
    this.limits = { maxThreadBytes: DEFAULT_MAX_THREAD_BYTES, maxStoreBytes: DEFAULT_MAX_STORE_BYTES, ...limits };
  }

  /** The thread `id`, created empty when unknown; marks it most recently used. */
  get(id: string): ProviderThread {
    let thread = this.threads.get(id);
    if (thread !== undefined) this.threads.delete(id);
    else thread = { id, messages: [], pendingAsks: [], busy: false, bytes: 0 };
    this.threads.set(id, thread);
    this.evict(id);
    return thread;
  }

  /** Sets a thread's conversation (already trimmed) and its size; older threads go past `maxStoreBytes`. */
  store(thread: ProviderThread, messages: AgMessage[], bytes: number): void {
    if (this.threads.get(thread.id) === thread) this.total += bytes - thread.bytes;
    thread.messages = messages;
    thread.bytes = bytes;
    this.evict(thread.id);
  }

  /** Bytes held for all threads. */
  get bytes(): number {
    return this.total;
  }

  /** Drops the least recently used idle threads (never `keep`) while over a bound. */
  private evict(keep: string): void {
    const over = () => this.threads.size > this.limits.maxThreads || this.total > this.limits.maxStoreBytes;
    if (!over()) return;
    for (const [key, t] of this.threads) {
      if (!over()) break;
      if (t.busy || key === keep) continue;
      this.threads.delete(key);
      this.total -= t.bytes;
    }
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
