/**
 * `agjson/bridges/ag-ui` (issue 19 §1): AgJSON ⇄ AG-UI 1.0. `toAgUi` / `createAgUiEncoder` turn an
 * AgEvent stream into AG-UI events; the reverse direction is the `ag-ui` normalizer facet
 * (`createNormalizer("ag-ui")`, re-exported here as `createAgUiNormalizer`). This entry loads the
 * optional peer `@ag-ui/core`; the main `agjson` entry never does (docs/bridges/ag-ui.md).
 */
import type { NormalizerOptions } from "../../normalize/engine.js";
import { AgUiFacet } from "../../normalize/ag-ui.js";
export { createAgUiEncoder, toAgUi, toTokenUsage, type AgUiEncoder, type AgUiEncoderOptions } from "./to-ag-ui.js";
export { fromAgUiMessages, toAgUiMessages } from "./messages.js";
export { fromAgUiContent, toAgUiContent } from "./content.js";
export { AGJSON_METADATA_KEY, AG_UI_PROTOCOL_MAJOR, AG_UI_PROTOCOL_VERSION, AgUiVocabularyError, assertProtocolVersion, type AgUiEvent } from "./vocabulary.js";
export { encodeAgUiSse } from "./sse.js";

/** A fresh AG-UI → AgEvent normalizer for one AG-UI stream (§8.0): the `ag-ui` facet. */
export function createAgUiNormalizer(opts: NormalizerOptions = {}): AgUiFacet {
  return new AgUiFacet(opts);
}
