/** The `agjson` package: AgJSON v1 types, validation, reduce(), normalizers and the gateway. */
export type * from "../generated/types.js";
