/**
 * Every type of AgJSON v1, written from the spec (not from the schemas), with the section that
 * defines it. The completeness check (codegen/lint.ts) fails when a name here has no `$def`, or a
 * `$def` is not named here — so adding a type means adding it in both places (docs/schema.md).
 */
import type { Family } from "./load.js";

export const SPEC_TYPES: Record<Family, Record<string, string>> = {
  common: {
    AgJsonValue: "§0.1", AgMeta: "§2", AgProviderMeta: "§2", AgRole: "§3", AgOpaqueKind: "§2", AgOpaque: "§2",
    AgAnnotations: "§2", AgUiVisibility: "§2", AgToolOutcome: "§2", AgPendingInput: "§2", AgUsage: "§4",
    AgSafety: "§4", AgChoice: "§4", AgAuthConfig: "§4", AgTrigger: "§4", AgProfile: "§9", AgCapabilities: "§3",
    AgAskKind: "§7", AgPausedAsk: "§4", AgOutcome: "§4", AgSuccessOutcome: "§4", AgErrorOutcome: "§4",
    AgRejectedOutcome: "§4", AgAbortedOutcome: "§4", AgPausedOutcome: "§4", AgFinishReason: "§4",
    AgSpecVersion: "§12", AgMemoryScope: "§2", AgHandoffKind: "§4", AgPromptBlockedReason: "§4",
    AgGuardrailTarget: "§4", AgGuardrailAction: "§4", AgDisplayMode: "§4",
  },
  block: {
    AgBlock: "§2", AgTextBlock: "§2", AgImageBlock: "§2", AgAudioBlock: "§2", AgFileBlock: "§2",
    AgDocumentBlock: "§2", AgResourceBlock: "§2", AgResourceLinkBlock: "§2", AgCodeBlock: "§2",
    AgCodeResultBlock: "§2", AgReasoningBlock: "§2", AgCompactionBlock: "§2", AgSearchResultBlock: "§2",
    AgToolCallBlock: "§2", AgToolResultBlock: "§2", AgDataBlock: "§2", AgProviderRawBlock: "§2",
    AgSource: "§2", AgBase64Source: "§2", AgUrlSource: "§2", AgFileSource: "§2", AgSourcePayload: "§2",
    AgUrlSourcePayload: "§2", AgDocumentSourcePayload: "§2", AgEmbeddedResource: "§2", AgCitation: "§2",
    AgCharCitation: "§2", AgPageCitation: "§2", AgBlockCitation: "§2", AgUrlCitation: "§2", AgOffsetCitation: "§2",
  },
  message: { AgMessage: "§3.2" },
  event: {
    AgEvent: "§4", AgKnownEvent: "§4", AgExtEvent: "§12", AgUiCallError: "§4",
    AgTurnStartEvent: "§4", AgTurnDoneEvent: "§4", AgTurnErrorEvent: "§4", AgTurnAbortEvent: "§4", AgErrorEvent: "§4",
    AgMessageStartEvent: "§4", AgMessageEndEvent: "§4", AgMessageRemoveEvent: "§4", AgStepStartEvent: "§4",
    AgStepDoneEvent: "§4", AgPromptBlockedEvent: "§4", AgAgentCapabilitiesEvent: "§4", AgMessagesSnapshotEvent: "§4",
    AgHostContextEvent: "§4", AgTextStartEvent: "§4", AgTextDeltaEvent: "§4", AgTextEndEvent: "§4",
    AgReasoningStartEvent: "§4", AgReasoningDeltaEvent: "§4", AgReasoningEndEvent: "§4", AgReasoningOpaqueEvent: "§4",
    AgReasoningOpaqueDeltaEvent: "§4", AgToolStartEvent: "§4", AgToolArgsDeltaEvent: "§4", AgToolArgsAssembledEvent: "§4",
    AgToolDoneEvent: "§4", AgContentBlockEvent: "§4", AgMessageMetadataEvent: "§4", AgSourceEvent: "§4",
    AgArtifactStartEvent: "§4", AgArtifactDeltaEvent: "§4", AgArtifactEndEvent: "§4", AgDisplayRequiredEvent: "§4",
    AgSubagentStartEvent: "§4", AgSubagentDoneEvent: "§4", AgHandoffEvent: "§4", AgHitlAskEvent: "§7",
    AgUiCallEvent: "§4", AgUiResultEvent: "§4", AgUiActionResultEvent: "§4", AgUiWidgetResultEvent: "§4",
    AgUiDisplayModeEvent: "§4", AgUiSurfaceStartEvent: "§4", AgUiSurfaceUpdateEvent: "§4", AgUiSurfaceEndEvent: "§4",
    AgUiDataModelEvent: "§4", AgStateSnapshotEvent: "§4", AgStateDeltaEvent: "§4", AgMemoryWriteEvent: "§4",
    AgGuardrailResultEvent: "§4",
  },
  input: {
    AgInput: "§3", AgStartInput: "§3", AgResumeInput: "§3", AgToolResultInput: "§3", AgInputEnvelope: "§3",
    AgToolResultEntry: "§3", AgRunConfig: "§3", AgToolDef: "§3", AgToolSource: "§3", AgMcpToolSource: "§3", AgFunctionToolSource: "§3", AgFrontendToolSource: "§3", AgToolChoice: "§3",
    AgResponseFormat: "§3", AgPushNotificationConfig: "§3", AgReasoningConfig: "§3", AgClientCapabilities: "§3",
    AgHitlAnswer: "§3", AgSurfaceEnvelope: "§3", AgSurfaceInteraction: "§3", AgA2uiSurfaceInteraction: "§3",
    AgA2uiSurfaceAction: "§3", AgA2uiFunctionResponse: "§3", AgA2uiError: "§3", AgMcpAppViewMessage: "§3",
    AgMcpAppUpdateModelContext: "§3", AgMcpAppMessage: "§3", AgMcpAppRequestDisplayMode: "§3", AgMcpAppOpenLink: "§3",
    AgOpenAiWidgetAction: "§3", AgOpenAiSetWidgetState: "§3", AgOpenAiCallTool: "§3",
    AgOpenAiSendFollowUpMessage: "§3", AgOpenAiRequestDisplayMode: "§3",
  },
  "reduce-result": {
    AgReduceResult: "§2", AgTurnRecord: "§2", AgHandoffRecord: "§2", AgSourceRecord: "§2",
    AgPromptBlockedRecord: "§2", AgGuardrailRecord: "§2", AgDisplayRequiredRecord: "§2", AgArtifact: "§2",
    AgMemoryRecord: "§2",
  },
};

/** The 50 named event types of §4 (the `ext.<vendor>.<key>` namespace is separate, §12). */
export const EXPECTED_NAMED_EVENT_COUNT = 50;
/** The 16 block kinds of §2. */
export const EXPECTED_BLOCK_COUNT = 16;
