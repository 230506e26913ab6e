/**
 * The bare fold: the benchmark's floor for any fold that returns reduce()'s result.
 *
 * It keeps what reduce() returns for the benchmark stream and nothing else:
 * - every message as a plain object `{ id, role, turnId, threadId, content }`, in opening order;
 * - `text.*` and `reasoning.*` blocks (`{ type, text }`): deltas pushed to an array per block and
 *   joined into one string at `*.end` (a reasoning block gets `text` only if a delta arrived);
 * - tool calls (`{ type: "tool-call", toolCallId, name, input }`): `tool.args.delta` chunks pushed
 *   to an array per call until `tool.args.assembled`, whose `input` (the event's own value) replaces
 *   `{}`;
 * - `tool.done` as a new `role: "tool"` message (its `messageId`, the call's message's turn and
 *   thread) holding a tool-result block with the event's own `content` and `outcome`;
 * - a `Map` from streamed block id to its block and one from toolCallId to its call, kept for the
 *   whole fold as reduce()'s id registries are; a run of deltas (or args deltas, or a `tool.done`
 *   right after its call) is resolved through a last-id cache, as reduce() does, instead of a
 *   `Map` lookup per event;
 * - a `seq` continuity check (a gap throws).
 *
 * It leaves out everything else reduce() does: every §5 check (INV-TURN, INV-MSG, INV-BLOCK,
 * INV-OWNER, INV-SEQ's parking and resync, CRITICAL #1–#3, the depth cap), the issue log, turn
 * records, partitions, sealing, message lookup by id (`message.end` just closes the current
 * message; `tool.done` never adopts an existing message), every other event type (ignored), the
 * fields the benchmark stream never sets, the text of blocks still streaming at the end, and the
 * result views reduce() materializes (copy-on-write reads, exact-size arrays). It is written
 * plainly: plain objects and arrays, built-in `Map`s, no layout work.
 *
 * Why it is the floor: on the benchmark stream it returns the same messages as reduce() — the same
 * strings, the same event-held values (tool `input`, tool-result `content`) — so any fold that
 * returns that result must at least allocate and keep what this one does, and find each event's
 * block. What reduce() takes beyond it is the cost of its checks, records and layout. It is a floor
 * for the work, not for the layout: its id maps are built-in `Map`s, which at 16× the benchmark's
 * length cost more than reduce()'s `IdTable` (docs/reduce.md, "Against the bare fold").
 */
import type {
  AgBlock,
  AgEvent,
  AgReasoningBlock,
  AgRole,
  AgTextBlock,
  AgToolCallBlock,
  AgToolResultBlockFields,
} from "../generated/types.js";

/** A message as the bare fold keeps it (the fields reduce() returns for the benchmark stream). */
export interface BareMessage {
  id: string;
  role: AgRole;
  turnId?: string;
  threadId?: string;
  content: AgBlock[];
}

interface StreamEntry {
  block: AgTextBlock | AgReasoningBlock;
  /** Delta strings until `*.end` joins them into `block.text`. */
  chunks: string[] | undefined;
}

interface CallEntry {
  block: AgToolCallBlock;
  message: BareMessage;
  /** `tool.args.delta` fragments until `tool.args.assembled` (scratch, never in the result). */
  args: string[] | undefined;
}

/** Folds `events` with no §5 checks, keeping the messages reduce() returns for the benchmark stream. */
export function bareFold(events: Iterable<AgEvent>): BareMessage[] {
  const messages: BareMessage[] = [];
  const blocks = new Map<string, StreamEntry>();
  const calls = new Map<string, CallEntry>();
  let current: BareMessage | undefined;
  let lastBlockId: string | undefined;
  let lastBlock: StreamEntry | undefined;
  let lastCallId: string | undefined;
  let lastCall: CallEntry | undefined;
  let lastSeq = -1;

  const streamEntry = (id: string): StreamEntry | undefined => {
    if (id !== lastBlockId) {
      lastBlockId = id;
      lastBlock = blocks.get(id);
    }
    return lastBlock;
  };
  const callEntry = (toolCallId: string): CallEntry | undefined => {
    if (toolCallId !== lastCallId) {
      lastCallId = toolCallId;
      lastCall = calls.get(toolCallId);
    }
    return lastCall;
  };
  const openStream = (id: string, block: AgTextBlock | AgReasoningBlock): void => {
    if (current === undefined) throw new Error(`bare fold: block ${id} outside a message`);
    const entry: StreamEntry = { block, chunks: [] };
    blocks.set(id, entry);
    lastBlockId = id;
    lastBlock = entry;
    current.content.push(block);
  };

  for (const event of events) {
    if (event.seq !== lastSeq + 1) throw new Error(`bare fold: seq ${event.seq} after ${lastSeq}`);
    lastSeq = event.seq;
    switch (event.type) {
      case "message.start": {
        current = { id: event.id, role: event.role, turnId: event.turnId, threadId: event.threadId, content: [] };
        messages.push(current);
        break;
      }
      case "message.end":
        current = undefined;
        break;
      case "text.start":
        openStream(event.id, { type: "text", text: "" });
        break;
      case "reasoning.start":
        openStream(event.id, { type: "reasoning" });
        break;
      case "text.delta":
      case "reasoning.delta":
        streamEntry(event.id)?.chunks?.push(event.delta);
        break;
      case "text.end":
      case "reasoning.end": {
        const entry = streamEntry(event.id);
        if (entry?.chunks === undefined) break;
        if (entry.chunks.length > 0 || entry.block.type === "text") entry.block.text = entry.chunks.join("");
        entry.chunks = undefined;
        break;
      }
      case "tool.start": {
        if (current === undefined) throw new Error(`bare fold: tool call ${event.toolCallId} outside a message`);
        const entry: CallEntry = {
          block: { type: "tool-call", toolCallId: event.toolCallId, name: event.name, input: {} },
          message: current,
          args: [],
        };
        calls.set(event.toolCallId, entry);
        lastCallId = event.toolCallId;
        lastCall = entry;
        current.content.push(entry.block);
        break;
      }
      case "tool.args.delta":
        callEntry(event.toolCallId)?.args?.push(event.delta);
        break;
      case "tool.args.assembled": {
        const entry = callEntry(event.toolCallId);
        if (entry === undefined) break;
        entry.block.input = event.input;
        entry.args = undefined;
        break;
      }
      case "tool.done": {
        const call = callEntry(event.toolCallId);
        const fields: AgToolResultBlockFields = { type: "tool-result", toolCallId: event.toolCallId, content: event.content };
        if (event.outcome !== undefined) fields.outcome = event.outcome;
        // No check that an "error" outcome carries its errorText (§2.2): the refined type is asserted, not checked.
        const result = fields as AgBlock;
        if (event.messageId !== undefined) {
          messages.push({
            id: event.messageId,
            role: "tool",
            turnId: call?.message.turnId,
            threadId: call?.message.threadId,
            content: [result],
          });
        } else {
          call?.message.content.push(result);
        }
        break;
      }
      default:
        break;
    }
  }
  return messages;
}
