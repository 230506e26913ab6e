/**
 * The key of AG-UI `metadata` under which the bridge carries AgJSON fields AG-UI has no field for
 * (docs/bridges/ag-ui.md "Lossless carriage"). `ag-ui` is reserved by the protocol; `agjson` is ours.
 * Kept apart from vocabulary.ts so the `ag-ui` normalizer facet can read it without loading
 * `@ag-ui/core` at run time.
 */
export const AGJSON_METADATA_KEY = "agjson";
