/**
 * The target-neutral half of re-input: reads an `AgMessage[]` or an `AgReduceResult`, attributes
 * every block to the provider that produced it, and plans the conversation as the provider APIs
 * see it — system, user and assistant turns, and groups of client tool results placed right
 * after the calls they answer, in call order (§8 item 7). Every target module walks this plan.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import { ReinputError, type BlockLocation, type ReinputTarget, type Reporter } from "./report.js";

/** The roles an OpenAI target may send system messages with (`systemRole`). */
export const OPENAI_SYSTEM_ROLES = ["system", "developer"] as const;
export type OpenAISystemRole = (typeof OPENAI_SYSTEM_ROLES)[number];

/** What `onInvalid` may say. */
export const REINPUT_INVALID_POLICIES = ["error", "repair"] as const;
export type ReinputInvalidPolicy = (typeof REINPUT_INVALID_POLICIES)[number];

/** Options every target accepts. */
export interface ReinputOptions {
  /**
   * What to do with a list the target cannot accept (a client call never answered, a result with
   * no call, a second result): `"error"` (default) throws a ReinputError naming the message;
   * `"repair"` adds a synthetic error result / drops the stray result and reports it.
   */
  onInvalid?: ReinputInvalidPolicy;
  /**
   * The provider of messages that carry no attribution of their own (no `metadata.<provider>`
   * bag, no `provider` on a block): `"anthropic"`, `"openai"`, `"google"`, … Unattributed replay
   * blobs are sent as they are when this is absent (a conversation built for the target).
   */
  sourceProvider?: string;
}

/** A re-input's result: the request fragment and everything dropped or changed on the way. */
export interface ReinputResult<Request> {
  request: Request;
  report: import("./report.js").ReinputReportEntry[];
}

/**
 * A block with its place in the input and the provider it belongs to. Its type is one §2 names:
 * a block of a type a later minor added is reported and left out when the plan is made (§0.2,
 * §12), so the targets switch on known types only. Inside it, values stay as a consumer-lenient
 * parse yields them (an unknown source or citation kind, a value outside an open enum).
 */
export interface PlacedBlock<B extends Lenient.AgKnownBlock = Lenient.AgKnownBlock> extends BlockLocation {
  block: B;
  message: Lenient.AgMessage;
  messageIndex: number;
  blockIndex: number;
  /** The provider whose replay blobs this block carries (`undefined`: unattributed). */
  provider: string | undefined;
}

/** A tool result placed after its call, with the call it answers (absent for a synthetic repair). */
export interface PlacedResult extends PlacedBlock<Lenient.AgToolResultBlock> {
  call: PlacedBlock<Lenient.AgToolCallBlock>;
  /** True when the result was made up by repair mode for a call never answered. */
  synthetic?: boolean;
}

/** One turn of the planned conversation. */
export type PlanSegment =
  | { kind: "system"; at: BlockLocation; blocks: PlacedBlock[] }
  | { kind: "user"; at: BlockLocation; blocks: PlacedBlock[] }
  | { kind: "assistant"; at: BlockLocation; blocks: PlacedBlock[] }
  | { kind: "results"; at: BlockLocation; results: PlacedResult[] };

/** Accepts both inputs the API documents. */
export function messagesOf(input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult): readonly Lenient.AgMessage[] {
  return isMessageList(input) ? input : input.messages;
}

function isMessageList(x: readonly Lenient.AgMessage[] | Lenient.AgReduceResult): x is readonly Lenient.AgMessage[] {
  return Array.isArray(x);
}

/** Provider names as the facets write them on `provider` and as the `metadata` bag key. */
const PROVIDER_BAGS = ["anthropic", "openai", "google", "bedrock", "cohere"] as const;

/** A bag that says something: an empty `{}` (or null) names a provider and carries nothing of it. */
function isEmptyBag(v: unknown): boolean {
  return v === null || v === undefined || (typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0);
}

/**
 * The provider a message came from: its `metadata.<provider>` bag, else a block's `provider`. §13.2:
 * the attribution guards which provider a blob may go to, so it must not be defeated by an extra
 * bag. Of several bags, an empty one yields to one with content (an empty `anthropic: {}` beside a
 * `google` bag is Google's message); two with content (or only empty ones) are a conflict, named
 * `a+b`, which owns no target's blobs.
 */
export function messageProvider(message: Lenient.AgMessage, fallback: string | undefined): string | undefined {
  const meta = message.metadata;
  if (meta !== undefined) {
    const named = PROVIDER_BAGS.filter((p) => Object.hasOwn(meta, p));
    if (named.length === 1) return named[0];
    if (named.length > 1) {
      const full = named.filter((p) => !isEmptyBag(meta[p]));
      return full.length === 1 ? full[0] : (full.length > 1 ? full : named).join("+");
    }
  }
  for (const b of message.content) {
    if (!isKnownBlock(b)) continue;
    const p = ownProvider(b);
    if (p !== undefined) return p;
  }
  return fallback;
}

/** The provider a block names itself (its replay blob's, then its own). */
function ownProvider(block: Lenient.AgKnownBlock): string | undefined {
  switch (block.type) {
    case "reasoning":
    case "compaction":
      return block.opaque?.provider ?? block.provider;
    case "search-result":
      return block.opaque?.provider;
    case "tool-call":
      return block.provider;
    default:
      return undefined;
  }
}

/** The provider of one block: its own attribution, else its message's. */
export function blockProvider(block: Lenient.AgKnownBlock, messageProviderName: string | undefined): string | undefined {
  return ownProvider(block) ?? messageProviderName;
}

/** True when a block's replay blobs may go to `targetProvider`: same provider, or unattributed. */
export function ownsBlobs(provider: string | undefined, targetProvider: string): boolean {
  return provider === undefined || provider === targetProvider;
}

/** A tool-call's provider-issued positional index (§8 item 2): on the block or its providerMetadata. */
export function providerCallIndex(call: Lenient.AgToolCallBlock): number | undefined {
  if (call.providerCallIndex !== undefined) return call.providerCallIndex;
  const v = call.providerMetadata?.providerCallIndex;
  return typeof v === "number" ? v : undefined;
}

/**
 * Plans the conversation: one segment per system/user/assistant message (tool results lifted out
 * of it), and a `results` segment after each assistant turn that made client calls, holding every
 * result in the order of the calls (§8 item 7, §10 item 15). A provider-executed call keeps its
 * result in place (the provider ran it inside the same response). A list the target cannot accept
 * throws, or is repaired and reported, per `onInvalid`.
 */
export function planConversation(
  messages: readonly Lenient.AgMessage[],
  target: ReinputTarget,
  opts: ReinputOptions,
  report: Reporter,
): PlanSegment[] {
  const repair = opts.onInvalid === "repair";
  const plan: PlanSegment[] = [];
  const calls = new Map<string, { call: PlacedBlock<Lenient.AgToolCallBlock>; order: number; answered: boolean }>();
  let pending: { call: PlacedBlock<Lenient.AgToolCallBlock>; order: number }[] = [];
  let results: Extract<PlanSegment, { kind: "results" }> | undefined;
  let callOrder = 0;

  const closeResults = (next: BlockLocation | undefined): void => {
    const unanswered = pending.filter((p) => !calls.get(p.call.block.toolCallId)?.answered);
    if (unanswered.length > 0) {
      const first = unanswered[0]!.call;
      if (!repair) {
        throw new ReinputError(
          "unanswered-call",
          target,
          first.messageId,
          first.messageIndex,
          `Message "${first.messageId}" (index ${first.messageIndex}) calls tool "${first.block.name}" (toolCallId "${first.block.toolCallId}") and no tool-result answers it ${next ? `before message "${next.messageId}"` : "by the end of the list"}; ${target} requires every client call to be answered. Add its tool-result, or pass { onInvalid: "repair" } to send a synthetic error result.`,
          first.blockIndex,
        );
      }
      results ??= pushResults(plan, first);
      for (const { call } of unanswered) {
        const block: Lenient.AgToolResultBlock = {
          type: "tool-result",
          toolCallId: call.block.toolCallId,
          content: [{ type: "text", text: "No result was recorded for this tool call." }],
          outcome: "error",
          errorText: "No result was recorded for this tool call.",
          isError: true,
        };
        results.results.push({ ...call, block, blockType: "tool-result", call, synthetic: true });
        calls.get(call.block.toolCallId)!.answered = true;
        report.add(
          "repaired",
          "unanswered-call",
          call,
          `Tool call "${call.block.toolCallId}" had no result: a synthetic error result was sent.`,
        );
      }
    }
    if (results !== undefined) sortResults(results, calls, report);
    pending = [];
    results = undefined;
  };

  messages.forEach((message, messageIndex) => {
    const mp = messageProvider(message, opts.sourceProvider);
    const at: BlockLocation = { messageId: message.id, messageIndex };
    const own: PlacedBlock[] = [];
    const lifted: PlacedBlock<Lenient.AgToolResultBlock>[] = [];
    // Calls of this very message (a framework lands a client result beside its call).
    const ownCalls = new Map<string, Lenient.AgToolCallBlock>();
    for (const b of message.content) if (isKnownBlock(b) && b.type === "tool-call") ownCalls.set(b.toolCallId, b);
    message.content.forEach((block, blockIndex) => {
      if (!isKnownBlock(block)) {
        report.dropped(
          "unsupported-block",
          { messageId: message.id, messageIndex, blockIndex, blockType: block.type },
          `A "${block.type}" block is of a type this version does not know (§0.2, §12); ${target} gets no form of it, so it was left out.`,
        );
        return;
      }
      const placed: PlacedBlock = {
        block,
        message,
        messageId: message.id,
        messageIndex,
        blockIndex,
        blockType: block.type,
        provider: blockProvider(block, mp),
      };
      if (block.type === "tool-result") {
        const call = calls.get(block.toolCallId)?.call.block ?? ownCalls.get(block.toolCallId);
        // A provider-executed call's result stays inside the assistant turn that ran it; so does a
        // provider's result whose call is not in the list (its providerMetadata names the item type).
        if (
          message.role === "assistant" &&
          (call?.providerExecuted === true || (call === undefined && block.providerMetadata?.type !== undefined))
        ) {
          own.push(placed);
          return;
        }
        lifted.push({ ...placed, block });
        return;
      }
      own.push(placed);
    });

    if (message.role === "assistant") {
      if (own.length > 0) {
        closeResults(at);
        plan.push({ kind: "assistant", at, blocks: own });
        for (const p of own) {
          if (p.block.type !== "tool-call") continue;
          const call = { ...p, block: p.block };
          calls.set(p.block.toolCallId, { call, order: callOrder, answered: false });
          if (p.block.providerExecuted !== true) pending.push({ call, order: callOrder });
          callOrder++;
        }
      }
      // Client results folded into the calling message move after it, as the providers expect.
      for (const r of lifted) results = acceptResult(r, calls, results, plan, target, repair, report);
    } else {
      // Results carried in a user or tool message answer the calls before it; its other blocks follow them.
      for (const r of lifted) results = acceptResult(r, calls, results, plan, target, repair, report);
      if (own.length > 0) {
        closeResults(at);
        if (message.role === "tool") {
          // A tool message's non-result blocks have no tool slot: they reach the model as user content.
          report.changed(
            "role-changed",
            at,
            `Message "${message.id}" has role "tool" but blocks that are not tool results; they are sent as user content.`,
          );
        }
        plan.push({ kind: message.role === "system" ? "system" : "user", at, blocks: own });
      }
    }
  });
  closeResults(undefined);
  return plan;
}

function pushResults(plan: PlanSegment[], at: BlockLocation): Extract<PlanSegment, { kind: "results" }> {
  const seg: Extract<PlanSegment, { kind: "results" }> = {
    kind: "results",
    at: { messageId: at.messageId, messageIndex: at.messageIndex },
    results: [],
  };
  plan.push(seg);
  return seg;
}

/** Adds one client result to the open results group, or rejects/repairs a stray one. */
function acceptResult(
  r: PlacedBlock<Lenient.AgToolResultBlock>,
  calls: Map<string, { call: PlacedBlock<Lenient.AgToolCallBlock>; order: number; answered: boolean }>,
  results: Extract<PlanSegment, { kind: "results" }> | undefined,
  plan: PlanSegment[],
  target: ReinputTarget,
  repair: boolean,
  report: Reporter,
): Extract<PlanSegment, { kind: "results" }> | undefined {
  const known = calls.get(r.block.toolCallId);
  if (known === undefined || known.answered) {
    const code = known === undefined ? "orphan-result" : "duplicate-result";
    const what =
      known === undefined
        ? `answers toolCallId "${r.block.toolCallId}", which no earlier message calls`
        : `answers toolCallId "${r.block.toolCallId}" a second time`;
    if (!repair) {
      throw new ReinputError(
        code,
        target,
        r.messageId,
        r.messageIndex,
        `Message "${r.messageId}" (index ${r.messageIndex}) block ${r.blockIndex} ${what}; ${target} rejects a tool result that does not answer an open call. Remove it, or pass { onInvalid: "repair" } to drop it.`,
        r.blockIndex,
      );
    }
    report.add("repaired", code, r, `A tool-result that ${what} was dropped.`);
    return results;
  }
  const seg = results ?? pushResults(plan, r);
  known.answered = true;
  seg.results.push({ ...r, call: known.call });
  return seg;
}

/** Orders a results group as its calls were made (§8 item 7); reports when that moved a result. */
function sortResults(seg: Extract<PlanSegment, { kind: "results" }>, calls: Map<string, { order: number }>, report: Reporter): void {
  const order = (r: PlacedResult): number => calls.get(r.block.toolCallId)?.order ?? Number.MAX_SAFE_INTEGER;
  const sorted = [...seg.results].sort((a, b) => order(a) - order(b));
  if (sorted.some((r, i) => r !== seg.results[i])) {
    report.changed("results-reordered", seg.at, "Tool results were placed in the order of their calls (§8 item 7).");
    seg.results = sorted;
  }
}
