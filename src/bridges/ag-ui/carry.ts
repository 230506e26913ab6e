import type { FieldOf } from "../../../generated/schema-facts.js";
import type { AgPausedAsk } from "../../../generated/types.js";

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
