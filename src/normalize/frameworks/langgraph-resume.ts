/**
 * The LangGraph side of a §7 pause: how the `langgraph` facet names an interrupt's ask, and the
 * `Command({ resume })` value a resume's answers rebuild (§3.1 "LangGraph resume shape",
 * docs/spec-decisions.md D14).
 */
import type { AgHitlAnswer, AgPausedAsk } from "../../../generated/types.js";

/**
 * The ask-metadata key holding the LangGraph interrupt id (§3.1 names LangGraph's runtime handles
 * `langgraph/…`). Repeated in-node interrupts can share one id, so the askId alone is not it.
 */
export const LANGGRAPH_INTERRUPT_ID_KEY = "langgraph/interruptId";

/**
 * The askId of a positionally bound LangGraph interrupt: its id and its ordinal, so repeats that
 * share one id are distinct and the same pair always gives the same askId (§7, §10 item 11).
 */
export function langGraphAskId(interruptId: string, ordinal: number): string {
  return `${interruptId}:${ordinal}`;
}

/** The LangGraph interrupt id of an ask the facet made: its metadata's, else the askId itself. */
export function langGraphInterruptId(ask: AgPausedAsk): string {
  const id = ask.metadata?.[LANGGRAPH_INTERRUPT_ID_KEY];
  return typeof id === "string" ? id : ask.askId;
}

/** An answer that names no ask of the pause, or an ask left without an answer. */
export class LangGraphResumeError extends Error {
  override name = "LangGraphResumeError";
}

/**
 * The value to resume a paused LangGraph run with (`new Command({ resume })`), from the pause's asks
 * and the resume's answers (§3.1): the shape follows the asks' `resumeBinding`, never the number of
 * answers — `"id"`: a map from each ask's LangGraph interrupt id to its reply; `"positional"`: the
 * replies in `ordinal` order (one reply alone is the scalar LangGraph appends to the task's list);
 * absent: the one reply. Each answer names its ask by `askId` (D14: the answer carries no
 * `inputKey` or interrupt id; both are read off the ask). A declined or cancelled answer resumes with
 * its reply, or null: LangGraph's `interrupt()` has no status of its own to return.
 */
export function toLangGraphResume(asks: readonly AgPausedAsk[], answers: readonly AgHitlAnswer[]): { resume: unknown } {
  const byAskId = new Map(asks.map((a) => [a.askId, a]));
  const answered = new Map<string, AgHitlAnswer>();
  answers.forEach((answer, i) => {
    if (!byAskId.has(answer.askId)) throw new LangGraphResumeError(`answers[${i}].askId "${answer.askId}" names no ask of this pause`);
    if (answered.has(answer.askId)) throw new LangGraphResumeError(`answers[${i}].askId "${answer.askId}" answers an ask already answered`);
    answered.set(answer.askId, answer);
  });
  for (const ask of asks) if (!answered.has(ask.askId)) throw new LangGraphResumeError(`ask "${ask.askId}" has no answer`);
  const reply = (ask: AgPausedAsk): unknown => answered.get(ask.askId)?.reply ?? null;
  const binding = asks[0]?.resumeBinding;
  if (binding === "id") return { resume: Object.fromEntries(asks.map((a) => [langGraphInterruptId(a), reply(a)])) };
  if (binding === "positional" && asks.length > 1)
    return { resume: [...asks].sort((a, b) => (a.ordinal ?? 0) - (b.ordinal ?? 0)).map(reply) };
  if (asks.length !== 1)
    throw new LangGraphResumeError(`${asks.length} asks without resumeBinding "id" or "positional" have no one resume shape`);
  return { resume: reply(asks[0]!) };
}
