/**
 * The `agjson` package: AgJSON v1 types, validation (§0.2, §12; docs/validation.md), reduce() (§5) and the normalizers
 * (§8). Runtime-neutral: nothing here imports a Node built-in. The HTTP gateway, which does, is the
 * `agjson/gateway` entry point.
 */
export type * from "../generated/types.js";
/** Every type as a consumer-lenient parse yields it (§0.2, §12): `Lenient.AgMessage`, `Lenient.AgBlock`, … */
export type * as Lenient from "../generated/lenient-types.js";
export { providerMeta } from "../generated/types.js";
export * from "./validate/index.js";
export {
  reduce,
  createReducer,
  type AgReduceOutput,
  type AgLenientReduceResult,
  type AgReducer,
  type AgReduceIssue,
  type AgReduceInvariant,
} from "./reduce/index.js";
export { createValidatingReducer, reduceUntrusted, type AgValidatingReducer, type AgRejectedEvent } from "./reduce/untrusted.js";
export { DEFAULT_MAX_DEPTH, DEFAULT_MAX_ERRORS, type AgOmittedIssues, type AgReduceOptions } from "./reduce/index.js";
export {
  createNormalizer,
  FACETS,
  FACET_KINDS,
  FACET_TABLE,
  isFacetName,
  readNativeChunks,
  createChunkReader,
  type FacetKind,
  type FacetName,
  type FacetRow,
  type Normalizer,
  type NormalizerOptions,
} from "./normalize/index.js";
export {
  KNOWN_EVENT_TYPES,
  FOLD_TABLE,
  dispatchFold,
  type FoldHandlers,
  type FoldFallbacks,
  type AgEventByType,
  type AgKnownEventType,
} from "../generated/fold-scaffold.js";
export * from "../generated/profiles.js";
export * from "./reinput/index.js";
