/**
 * `agjson/bridges/ag-ui`: AgJSON ⇄ AG-UI 1.0. `toAgUi` / `createAgUiEncoder` turn an
 * AgEvent stream into AG-UI events; the reverse direction is the `ag-ui` normalizer facet
 * (`createNormalizer("ag-ui")`, re-exported here as `createAgUiNormalizer`). This entry loads the
 * optional peer `@ag-ui/core`; the main `agjson` entry never does (docs/bridges/ag-ui.md). The input
 * side (`RunAgentInput` → AgInput) and the HTTP endpoint also load `@ag-ui/core/schemas` (and so
 * `zod`), when a reader or handler is created.
 */
import type { NormalizerOptions } from "../../normalize/engine.js";
import { AgUiFacet } from "../../normalize/protocols/ag-ui.js";
export { createAgUiEncoder, toAgUi, toTokenUsage, type AgUiEncoder, type AgUiEncoderOptions } from "./to-ag-ui.js";
export { fromAgUiMessages, toAgUiMessages } from "./messages.js";
export { fromAgUiContent, toAgUiContent } from "./content.js";
export {
  AGJSON_METADATA_KEY,
  AG_UI_PROTOCOL_MAJOR,
  AG_UI_PROTOCOL_VERSION,
  AgUiVocabularyError,
  assertProtocolVersion,
  type AgUiEvent,
} from "./vocabulary.js";
export { encodeAgUiSse } from "./sse.js";
export {
  AG_UI_SERVER_DEFAULTS,
  AgUiCapError,
  DEFAULT_AG_UI_INPUT_CAPS,
  HARD_AG_UI_INPUT_CAPS,
  resolveAgUiInputCaps,
  type AgUiInputCaps,
} from "./input-caps.js";
export {
  createRunAgentInputReader,
  loadAgUiSchemas,
  RunAgentInputReader,
  toAgInput,
  type AgInputProjectionOptions,
  type RunAgentInputRead,
  type RunAgentInputReadOptions,
} from "./input.js";
export { AG_UI_PROBLEM_TYPES, agUiProblem, agUiProblemResponse, type AgUiProblemType } from "./problem.js";
export {
  createAgUiHandler,
  DEFAULT_MAX_AG_UI_EVENTS,
  HARD_MAX_AG_UI_EVENTS,
  type AgUiHandler,
  type AgUiHandlerOptions,
} from "./handler.js";
export {
  startAgUiServer,
  toNodeListener,
  type AgUiNodeListenerOptions,
  type AgUiServerCaps,
  type AgUiServerOptions,
  type RunningAgUiServer,
} from "./node.js";

/** A fresh AG-UI → AgEvent normalizer for one AG-UI stream (§8.0): the `ag-ui` facet. */
export function createAgUiNormalizer(opts: NormalizerOptions = {}): AgUiFacet {
  return new AgUiFacet(opts);
}
