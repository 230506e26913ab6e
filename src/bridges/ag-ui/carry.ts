import type { AgEventByType, AgKnownEventType } from "../../../generated/fold-scaffold.js";
import { DEF_FIELDS, fieldsOtherThan, type EVENT_ENVELOPE_FIELDS, type FieldOf } from "../../../generated/schema-facts.js";
import type { AgHitlAnswer, AgPausedAsk } from "../../../generated/types.js";

/**
 * The key of AG-UI `metadata` under which the bridge carries AgJSON fields AG-UI has no field for
 * (docs/bridges/ag-ui.md "Lossless carriage"). `ag-ui` is reserved by the protocol; `agjson` is ours.
 * Kept apart from vocabulary.ts so the `ag-ui` normalizer facet can read it without loading
 * `@ag-ui/core` at run time.
 */
export const AGJSON_METADATA_KEY = "agjson";

/**
 * The AgPausedAsk fields an AG-UI Interrupt states in its own slots (`id`, `message`, `toolCallId`,
 * `expiresAt`): AG-UI's vocabulary, typed against the generated AgPausedAsk. toAgUi carries the rest
 * of the ask under the interrupt's `metadata.agjson`; the `ag-ui` facet reads back every field but
 * these, so the two directions share one list.
 */
export const INTERRUPT_OWN: readonly FieldOf<AgPausedAsk>[] = ["askId", "message", "toolCallId", "expiresAt"];

/**
 * The ask's continuation handles an AgHitlAnswer echoes (§7, §3.1: requestState byte-identical,
 * token, ordinal): they sit at the top of the interrupt's `metadata.agjson`, where the input side
 * reads a resume entry's answer fields, so a client copies them back as they are: every field of
 * both generated shapes but the ask's id and reason (the answer has its own).
 */
export const INTERRUPT_ECHOED: readonly (FieldOf<AgPausedAsk> & FieldOf<AgHitlAnswer>)[] = fieldsOtherThan(
  DEF_FIELDS.AgHitlAnswer.filter((f): f is FieldOf<AgPausedAsk> & FieldOf<AgHitlAnswer> =>
    (DEF_FIELDS.AgPausedAsk as readonly string[]).includes(f),
  ),
  ["askId", "reason"],
);

/**
 * The key inside an interrupt's `metadata.agjson` under which every other carried ask field rides
 * (kind, reason, choices, metadata, resumeBinding, …): the ask's own words, kept apart from the
 * answer's, so an echoed carry cannot pass the ask's `reason` off as the human's (D15).
 */
export const INTERRUPT_ASK_KEY = "ask";

/**
 * The envelope fields AG-UI's block events state themselves (type and seq are the AG-UI event, the
 * block and message ids its ids, the turn its run or subagent); parentId and _meta ride the carry.
 */
const BLOCK_OWN: readonly (typeof EVENT_ENVELOPE_FIELDS)[number][] = ["type", "seq", "id", "messageId", "turnId"];

/**
 * For each AgJSON event that becomes an AG-UI event of its own, the fields that AG-UI event states
 * in its own slots: AG-UI's vocabulary, typed against each event's generated fields. toAgUi carries
 * every other field under `metadata.agjson`; the `ag-ui` facet reads back every field of the event
 * but these (`fieldsOtherThan(EVENT_FIELDS[type], AG_UI_OWN[type])`), so the two directions share
 * one list and a field the schema adds travels both ways.
 */
export const AG_UI_OWN = {
  // RUN_STARTED states the run's ids; trigger, the envelope's id / parentId / _meta ride the carry (§12: _meta round-trips).
  "turn.start": ["type", "seq", "turnId", "threadId"],
  // AG-UI has no message-end event: ending the message states its ids; anything else a message.end
  // holds (usage, _meta, a later minor's field) keeps it as CUSTOM agjson.message.end.
  "message.end": ["type", "seq", "id", "turnId"],
  // TEXT_MESSAGE_START's role is its message's (docs/bridges/ag-ui.md), so text.start's own role rides the carry.
  "text.start": BLOCK_OWN,
  "text.delta": [...BLOCK_OWN, "delta"],
  "text.end": BLOCK_OWN,
  "reasoning.start": BLOCK_OWN,
  "reasoning.delta": [...BLOCK_OWN, "delta"],
  "reasoning.end": BLOCK_OWN,
  "reasoning.opaque": ["type", "seq", "id", "value", "turnId"],
  "tool.start": ["type", "seq", "toolCallId", "name", "messageId", "turnId"],
  // TOOL_CALL_ARGS states the call and its text; the call's message and turn are its TOOL_CALL_START's.
  // The envelope's id / parentId / _meta ride the carry (§12: _meta round-trips), as does a field a later minor adds (§0.2).
  "tool.args.delta": ["type", "seq", "toolCallId", "delta", "messageId", "turnId"],
  "tool.args.assembled": ["type", "seq", "toolCallId", "input", "signature", "messageId", "turnId"],
  "tool.done": ["type", "seq", "toolCallId", "messageId", "content", "turnId"],
  // RUN_ERROR / SUBAGENT_ERROR state the message and code; retriable, usage, the envelope's id /
  // parentId / _meta ride the carry (§12).
  "turn.error": ["type", "seq", "turnId", "message", "code"],
  // SUBAGENT_ERROR / RUN_FINISHED state the ending; the reason and the envelope ride the carry (§12).
  "turn.abort": ["type", "seq", "turnId"],
  "subagent.start": ["type", "seq", "turnId"],
  // SUBAGENT_FINISHED states the nested turn; parentTurnId, the envelope's id / parentId / _meta ride the carry (§12).
  "subagent.done": ["type", "seq", "turnId"],
  // STEP_STARTED states only a name; the step's id, stepName, the envelope's parentId / _meta ride the carry (§12).
  "step.start": ["type", "seq", "turnId"],
  "messages.snapshot": ["type", "seq", "messages"],
  // STATE_SNAPSHOT / STATE_DELTA state the document or the patch; the envelope rides the carry (§12).
  "state.snapshot": ["type", "seq", "snapshot", "turnId"],
  "state.delta": ["type", "seq", "patch", "turnId"],
  "display.required": ["type", "seq", "provider", "html"],
} satisfies { readonly [K in AgKnownEventType]?: readonly FieldOf<AgEventByType[K]>[] };
