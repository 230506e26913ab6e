/** Small readers shared by the facets: native chunks are untrusted JSON, so every access narrows. */
import type { AgJsonValue, AgMeta, AgProviderMeta, AgUsage } from "../../generated/types.js";
import { isRecord } from "../json-guards.js";

/** A plain JSON object (native chunks are parsed JSON: every value is an AgJsonValue). */
export type JsonObject = { [k: string]: AgJsonValue };

/**
 * Brands a bag of provider values as replay-load-bearing `providerMetadata` (§2, §12). The brand
 * is compile-time only (§0.4), so this is the one place the phantom marker is attached.
 */
export function providerMeta(bag: AgMeta): AgProviderMeta {
  return bag as AgProviderMeta;
}

/**
 * `table[key]` when `key` is one of the table's own entries, else undefined. A provider string
 * looked up in a static table must never find Object.prototype's members: an item type
 * "constructor" or a result subtype "toString" was routed as a hosted tool named by a function,
 * or closed a turn with a function for its error code — then blamed on the provider (§8.0).
 */
export function own<V>(table: Readonly<Record<string, V>>, key: string): V | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Narrows an unknown native value to JSON (parsed chunks always are). */
export function json(x: unknown): AgJsonValue {
  return x === undefined ? null : (x as AgJsonValue);
}

/** True for a non-null, non-array object, typed as parsed JSON (every value of a native chunk is an AgJsonValue). */
export function isObject(x: unknown): x is JsonObject {
  return isRecord(x);
}

/** The field as an object, or undefined. */
export function obj(x: unknown, key: string): JsonObject | undefined {
  if (!isObject(x)) return undefined;
  const v = x[key];
  return isObject(v) ? v : undefined;
}

/** The field as a string, or undefined. */
export function str(x: unknown, key: string): string | undefined {
  if (!isObject(x)) return undefined;
  const v = x[key];
  return typeof v === "string" ? v : undefined;
}

/** The field as a finite number, or undefined. */
export function num(x: unknown, key: string): number | undefined {
  if (!isObject(x)) return undefined;
  const v = x[key];
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** The field as an array, or undefined. */
export function arr(x: unknown, key: string): AgJsonValue[] | undefined {
  if (!isObject(x)) return undefined;
  const v = x[key];
  return Array.isArray(v) ? v : undefined;
}

/** Copies the listed keys that are present (verbatim) into a new object; undefined when none are. */
export function pick(x: unknown, keys: readonly string[]): JsonObject | undefined {
  if (!isObject(x)) return undefined;
  const out: JsonObject = {};
  for (const k of keys) if (k in x && x[k] !== undefined) out[k] = x[k];
  return Object.keys(out).length > 0 ? out : undefined;
}

/** Copies every key except the listed ones; undefined when nothing remains. */
export function omit(x: unknown, keys: readonly string[]): JsonObject | undefined {
  if (!isObject(x)) return undefined;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(x)) if (!keys.includes(k) && v !== undefined && v !== null) out[k] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The numeric token counts of an AgUsage. */
type UsageCount = { [K in keyof AgUsage]-?: NonNullable<AgUsage[K]> extends number ? K : never }[keyof AgUsage];

/**
 * Copies one provider token count onto `usage` verbatim when the provider sent it (INV-DELTA:
 * absent stays absent; a normalizer never computes a count the provider did not report).
 */
export function setUsage(usage: AgUsage, key: UsageCount, value: number | undefined): void {
  if (value !== undefined) usage[key] = value;
}
