/**
 * The one AG-UI vocabulary this bridge speaks: the event, message and input types of the installed
 * `@ag-ui/core` (an optional peer dependency, docs/bridges/ag-ui.md "Dependencies"), its `EventType`
 * enum, and the version check that fails loud when the installed package speaks another major.
 * Every module of the bridge imports AG-UI names from here, never from `@ag-ui/core` directly, so a
 * protocol upgrade is one reviewed edit.
 */
import { EventType, PROTOCOL_VERSION } from "@ag-ui/core";
import type {
  ActivityDeltaEvent,
  ActivitySnapshotEvent,
  AssistantMessage,
  ContentPart,
  CustomEvent,
  Event,
  Interrupt,
  JsonPatchOperation,
  Message,
  MessagesSnapshotEvent,
  PartSource,
  ReasoningEncryptedValueEvent,
  ResumeEntry,
  RunAgentInput,
  RunErrorEvent,
  RunFinishedEvent,
  RunFinishedOutcome,
  RunStartedEvent,
  StateDeltaEvent,
  TokenUsage,
  Tool,
  ToolCall,
  ToolCallResultEvent,
  ToolMessage,
} from "@ag-ui/core";

export { EventType };
export type {
  ActivityDeltaEvent,
  ActivitySnapshotEvent,
  AssistantMessage,
  ContentPart,
  CustomEvent,
  Interrupt,
  JsonPatchOperation,
  Message,
  MessagesSnapshotEvent,
  PartSource,
  ReasoningEncryptedValueEvent,
  ResumeEntry,
  RunAgentInput,
  RunErrorEvent,
  RunFinishedEvent,
  RunFinishedOutcome,
  RunStartedEvent,
  StateDeltaEvent,
  TokenUsage,
  Tool,
  ToolCall,
  ToolCallResultEvent,
  ToolMessage,
};

/** Any AG-UI event of the protocol version this bridge is built against. */
export type AgUiEvent = Event;

/** The AG-UI protocol major this bridge implements. */
export const AG_UI_PROTOCOL_MAJOR = 1;

/** The protocol version the installed `@ag-ui/core` declares (`"1.0"`). */
export const AG_UI_PROTOCOL_VERSION: string = PROTOCOL_VERSION;

export { AGJSON_METADATA_KEY } from "./carry.js";

/** A version-skew or vocabulary failure: names what was found and what this bridge speaks. */
export class AgUiVocabularyError extends Error {
  override readonly name = "AgUiVocabularyError";
}

/** The major of a protocol version string (`"1.0"` → 1), or undefined when it is not one. */
export function protocolMajor(version: string): number | undefined {
  const m = /^(\d+)(?:\.\d+)*$/.exec(version.trim());
  return m ? Number(m[1]) : undefined;
}

/**
 * Throws when `version` names an AG-UI major this bridge does not implement. A skewed peer must
 * fail loud: a consumer that skips what it does not recognise renders a confidently incomplete run.
 */
export function assertProtocolVersion(version: string, where: string): void {
  const major = protocolMajor(version);
  if (major !== AG_UI_PROTOCOL_MAJOR) {
    throw new AgUiVocabularyError(
      `${where} declares AG-UI protocol "${version}", but agjson/bridges/ag-ui implements AG-UI ${AG_UI_PROTOCOL_MAJOR}.x; ` +
        `install @ag-ui/core@${AG_UI_PROTOCOL_MAJOR} (or an agjson release built for AG-UI ${major ?? version}).`,
    );
  }
}

// Checked once, when the bridge is first imported: the installed peer must speak our major.
assertProtocolVersion(AG_UI_PROTOCOL_VERSION, "the installed @ag-ui/core");

/** All `EventType` values, for the reader that must tell an unknown AG-UI type from a known one. */
export const AG_UI_EVENT_TYPES: ReadonlySet<string> = new Set<string>(Object.values(EventType));
