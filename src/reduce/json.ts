// JSON value helpers shared by the fold: structural equality (INV-FOLD's relation), plain-object
// checks, prototype-safe key writes and REPLACE-by-key merges (§5 "MERGE REPLACE-by-key").
import { isRecord } from "../json-guards.js";

/** A mutable string-keyed bag the fold owns (providerMetadata, toolMetadata, _meta, metadata). */
export type JsonObject = Record<string, unknown>;

/**
 * True for a non-null, non-array object of no class: the only shape a REPLACE-by-key merge or a
 * node-keyed merge accepts. An instance of a class is a leaf (a host may box a JSON number as its
 * source text to echo it byte-identical, §13.2): never merged into, patched through or copied apart.
 */
export function isPlainObject(value: unknown): value is JsonObject {
  if (!isRecord(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

/**
 * Writes `value` under `key` as an own data property. Keys come from untrusted payloads (JSON Patch
 * paths, metadata bags), so `__proto__` must never reach the prototype setter.
 */
export function setKey<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** Own-property read that never walks the prototype chain. */
export function getOwn<V>(target: Record<string, V>, key: string): V | undefined {
  return Object.hasOwn(target, key) ? target[key] : undefined;
}

/** Own-property test. */
export function hasOwn(target: object, key: string): boolean {
  return Object.hasOwn(target, key);
}

/**
 * Structural equality of JSON values (INV-FOLD §5.0): deep, arrays order-sensitive, object keys
 * order-insensitive, numbers by value. A key whose value is `undefined` counts as absent, exactly
 * as it would after JSON serialization.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === "number" && typeof b === "number") return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  if (!isPlainObject(a) || !isPlainObject(b)) {
    // Two class leaves (§13.2 boxed number texts) are equal when they are of one class and read alike.
    return (
      typeof a === "object" &&
      typeof b === "object" &&
      a !== null &&
      b !== null &&
      !isPlainObject(a) &&
      !isPlainObject(b) &&
      !Array.isArray(a) &&
      !Array.isArray(b) &&
      Object.getPrototypeOf(a) === Object.getPrototypeOf(b) &&
      String(a) === String(b)
    );
  }
  const aKeys = Object.keys(a).filter((k) => a[k] !== undefined);
  const bKeys = Object.keys(b).filter((k) => b[k] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  for (const key of aKeys) {
    if (!hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
  }
  return true;
}

/** Deep copy of a JSON value (used by RFC 6902 `copy`, so two locations never share a mutable node). */
export function jsonClone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => jsonClone(item));
  if (!isPlainObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) setKey(out, key, jsonClone(item));
  return out;
}

/**
 * Returns `value` without its `undefined`-valued keys, so optional fields are absent rather than
 * undefined. Never uses `delete` (which would turn the object into a slow dictionary): when a
 * key must go, the defined keys are copied into a fresh object.
 */
export function dropUndefined<T extends object>(value: T): T {
  const source = value as Record<string, unknown>;
  let clean = true;
  for (const key in source) {
    if (source[key] === undefined) {
      clean = false;
      break;
    }
  }
  if (clean) return value;
  const out: Record<string, unknown> = {};
  for (const key in source) {
    const item = source[key];
    if (item !== undefined) out[key] = item;
  }
  return out as T;
}

/** REPLACE-by-key merge into a new bag (§5 MERGE REPLACE-by-key); `undefined` when both are absent. */
export function mergeBags<B extends object>(current: B | undefined, incoming: B | undefined): B | undefined {
  if (incoming === undefined) return current;
  if (current === undefined) return incoming;
  const merged = { ...current };
  for (const key of Object.keys(incoming)) {
    Object.defineProperty(merged, key, { value: Reflect.get(incoming, key), writable: true, enumerable: true, configurable: true });
  }
  return merged;
}

/**
 * A copy of `source` with every own enumerable key but `key`, in order (`__proto__` stays a plain
 * key). A copy loop rather than object spread: V8 gives each spread copy of these objects a hidden
 * class of its own, a map and a descriptor array per object.
 */
export function copyWithout<T extends object>(source: T, key: string): T {
  const out: Record<string, unknown> = {};
  for (const name in source) if (name !== key) setKey(out, name, source[name]);
  return out as T;
}

/** `target` with `key` set as an own data property, typed with it (the object is not copied). */
export function withKey<T extends object, K extends string, V>(target: T, key: K, value: V): T & Record<K, V> {
  setKey(target as Record<string, unknown>, key, value);
  return target as T & Record<K, V>;
}
