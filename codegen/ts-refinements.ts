/**
 * Cross-field rules that TypeScript can express, applied on top of the interfaces
 * json-schema-to-typescript emits (it cannot read constraint-only `oneOf`/`not`, so they are
 * removed from its input and restated here). Each entry turns `interface X` into `XFields` and
 * exports `type X` as the refined form. The schema stays the authority; these only narrow.
 */
const TOOL_RESULT_OUTCOME = `({ outcome: "error"; errorText: string; isError?: true } | { outcome?: Exclude<AgToolOutcome, "error">; errorText?: never; isError?: false })`;

export const TS_REFINEMENTS: Record<string, { omit: string[]; refine: string; rule: string }> = {
  AgMemoryWriteEvent: {
    omit: ["value", "patch"],
    refine: `({ value: AgJsonValue; patch?: never } | { patch: AgJsonValue; value?: never })`,
    rule: "value XOR patch (§5 memory.write, CRITICAL #2)",
  },
  AgToolDoneEvent: {
    omit: ["outcome", "errorText", "isError"],
    refine: TOOL_RESULT_OUTCOME,
    rule: 'errorText iff outcome "error" (§2, §2.2)',
  },
  AgToolResultBlock: { omit: ["outcome", "errorText", "isError"], refine: TOOL_RESULT_OUTCOME, rule: 'errorText iff outcome "error" (§2)' },
  AgToolResultEntry: {
    omit: ["outcome", "errorText", "isError"],
    refine: TOOL_RESULT_OUTCOME,
    rule: 'errorText iff outcome "error" (§2.2)',
  },
  AgA2uiError: {
    omit: ["surfaceId", "functionCallId"],
    refine: `({ surfaceId: string; functionCallId?: never } | { functionCallId: string; surfaceId?: never })`,
    rule: "exactly one of surfaceId / functionCallId (§3, §6 Pattern 5)",
  },
  AgA2uiSurfaceAction: {
    omit: ["wantResponse", "actionId"],
    refine: `({ wantResponse: true; actionId: string } | { wantResponse?: false; actionId?: string })`,
    rule: "actionId required when wantResponse is true (§3)",
  },
};
