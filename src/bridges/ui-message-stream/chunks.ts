/**
 * The AI SDK UI message stream chunk union (`ai` 7.x, `UIMessageChunk` in
 * `ai/src/ui-message-stream/ui-message-chunks.ts`), written out so this entry point needs no `ai`
 * import at run time or in its declarations. `chunks.test-d` keeps it assignable to the real type.
 */

/** A JSON value, as the AI SDK's `JSONValue`. */
export type UIJsonValue = null | string | number | boolean | UIJsonValue[] | { [key: string]: UIJsonValue | undefined };

/** `ProviderMetadata`: provider name → a JSON object (the AI SDK validates this shape). */
export type UIProviderMetadata = Record<string, Record<string, UIJsonValue | undefined>>;

/** `FinishReason` of the AI SDK. */
export type UIFinishReason = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "interrupted" | "other";

/** A citation source of a text part (`LanguageModelV4Citation.source`). */
export type UICitationSource =
  | { type: "source"; sourceType: "url"; id: string; url: string; title?: string; providerMetadata?: UIProviderMetadata }
  | {
      type: "source";
      sourceType: "document";
      id: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: UIProviderMetadata;
    };

/** A citation on a `text-end` chunk. */
export interface UICitation {
  source: UICitationSource;
  startIndex?: number;
  endIndex?: number;
  citedText?: string;
}

/** One UI message stream chunk. */
export type UIMessageChunk =
  | { type: "start"; messageId?: string; messageMetadata?: unknown }
  | { type: "finish"; finishReason?: UIFinishReason; messageMetadata?: unknown }
  | { type: "abort"; reason?: string }
  | { type: "error"; errorText: string }
  | { type: "message-metadata"; messageMetadata: unknown }
  | { type: "start-step" }
  | { type: "finish-step" }
  | { type: "text-start"; id: string; providerMetadata?: UIProviderMetadata }
  | { type: "text-delta"; id: string; delta: string; providerMetadata?: UIProviderMetadata }
  | { type: "text-end"; id: string; citations?: UICitation[]; providerMetadata?: UIProviderMetadata }
  | { type: "reasoning-start"; id: string; providerMetadata?: UIProviderMetadata }
  | { type: "reasoning-delta"; id: string; delta: string; providerMetadata?: UIProviderMetadata }
  | { type: "reasoning-end"; id: string; providerMetadata?: UIProviderMetadata }
  | {
      type: "tool-input-start";
      toolCallId: string;
      toolName: string;
      providerExecuted?: boolean;
      providerMetadata?: UIProviderMetadata;
      toolMetadata?: Record<string, UIJsonValue | undefined>;
      dynamic?: boolean;
      title?: string;
    }
  | { type: "tool-input-delta"; toolCallId: string; inputTextDelta: string }
  | {
      type: "tool-input-available";
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerExecuted?: boolean;
      providerMetadata?: UIProviderMetadata;
      toolMetadata?: Record<string, UIJsonValue | undefined>;
      dynamic?: boolean;
      title?: string;
    }
  | { type: "tool-approval-request"; approvalId: string; toolCallId: string; reason?: string }
  | {
      type: "tool-output-available";
      toolCallId: string;
      output: unknown;
      providerExecuted?: boolean;
      providerMetadata?: UIProviderMetadata;
      toolMetadata?: Record<string, UIJsonValue | undefined>;
      dynamic?: boolean;
      preliminary?: boolean;
    }
  | {
      type: "tool-output-error";
      toolCallId: string;
      errorText: string;
      providerExecuted?: boolean;
      providerMetadata?: UIProviderMetadata;
      toolMetadata?: Record<string, UIJsonValue | undefined>;
      dynamic?: boolean;
    }
  | { type: "tool-output-denied"; toolCallId: string }
  | { type: "source-url"; sourceId: string; url: string; title?: string; providerMetadata?: UIProviderMetadata }
  | {
      type: "source-document";
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: UIProviderMetadata;
    }
  | { type: "file"; url: string; mediaType: string; providerMetadata?: UIProviderMetadata }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean };
