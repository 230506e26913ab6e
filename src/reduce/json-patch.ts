// RFC 6902 JSON Patch over RFC 6901 JSON Pointers, for `state.delta` (array form) and
// `memory.write.patch` (§5, §14 [RFC 6902]).
//
// Two properties the fold relies on:
// - Atomic: a patch either applies completely or leaves the document exactly as it was (RFC 6902
//   §5: "If a normative requirement is violated … the entire patch fails"). Every in-place write is
//   journaled and undone on failure.
// - Copy-on-write: a node is mutated in place only if it is in the caller's `owned` set; any other
//   node (an event payload, a value already handed out in a result) is shallow-copied first, and the
//   copy joins `owned`. Repeated patches on the same document therefore cost the size of the touched
//   paths, not of the document.

import { getOwn, hasOwn, isPlainObject, jsonClone, jsonEqual, setKey, type JsonObject } from "./json.js";

/** Outcome of {@link applyJsonPatch}: the patched document, or why and at which operation it failed. */
export type JsonPatchResult = { ok: true; doc: unknown } | { ok: false; opIndex: number; message: string };

/** Options for {@link applyJsonPatch}. */
export interface JsonPatchOptions {
  /** Nodes the caller owns: these may be mutated in place; copies made by the patch are added. */
  owned?: WeakSet<object>;
}

const ARRAY_INDEX = /^(0|[1-9][0-9]*)$/;

/** Decodes an RFC 6901 JSON Pointer into reference tokens; `undefined` when it is malformed. */
export function parseJsonPointer(pointer: string): string[] | undefined {
  if (pointer === "") return [];
  if (pointer[0] !== "/") return undefined;
  if (/~[^01]|~$/.test(pointer)) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}

type Container = JsonObject | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === "object" && value !== null;
}

function shallowCopy(node: Container): Container {
  return Array.isArray(node) ? node.slice() : { ...node };
}

/** Reads `token` of a container; `found:false` when it does not exist (arrays: a valid, in-range index only). */
function child(node: Container, token: string): { found: true; value: unknown } | { found: false } {
  if (Array.isArray(node)) {
    if (!ARRAY_INDEX.test(token)) return { found: false };
    const index = Number(token);
    return index < node.length ? { found: true, value: node[index] } : { found: false };
  }
  return hasOwn(node, token) ? { found: true, value: node[token] } : { found: false };
}

class Patcher {
  private readonly journal: Array<() => void> = [];

  constructor(
    public root: unknown,
    private readonly owned: WeakSet<object>,
  ) {}

  resolve(tokens: readonly string[]): { found: true; value: unknown } | { found: false } {
    let node: unknown = this.root;
    for (const token of tokens) {
      if (!isContainer(node)) return { found: false };
      const next = child(node, token);
      if (!next.found) return next;
      node = next.value;
    }
    return { found: true, value: node };
  }

  /** The container at `tokens`, made owned (copied along the path where needed); `undefined` if absent. */
  private writable(tokens: readonly string[]): Container | undefined {
    const root = this.root;
    if (!isContainer(root)) return undefined;
    let node: Container = root;
    if (!this.owned.has(node)) {
      node = this.adopt(node);
      this.setRoot(node);
    }
    for (const token of tokens) {
      const next = child(node, token);
      if (!next.found || !isContainer(next.value)) return undefined;
      let value: Container = next.value;
      if (!this.owned.has(value)) {
        value = this.adopt(value);
        this.write(node, token, value);
      }
      node = value;
    }
    return node;
  }

  private adopt(node: Container): Container {
    const copy = shallowCopy(node);
    this.owned.add(copy);
    return copy;
  }

  setRoot(value: unknown): void {
    const previous = this.root;
    this.journal.push(() => {
      this.root = previous;
    });
    this.root = value;
  }

  /** Overwrites an existing array slot or sets an object key, journaled. */
  private write(node: Container, token: string, value: unknown): void {
    if (Array.isArray(node)) {
      const index = Number(token);
      const previous = node[index];
      node[index] = value;
      this.journal.push(() => {
        node[index] = previous;
      });
      return;
    }
    const had = hasOwn(node, token);
    const previous = getOwn(node, token);
    setKey(node, token, value);
    this.journal.push(() => {
      if (had) setKey(node, token, previous);
      else delete node[token];
    });
  }

  add(tokens: readonly string[], value: unknown): string | undefined {
    if (tokens.length === 0) {
      this.setRoot(value);
      return undefined;
    }
    const parentTokens = tokens.slice(0, -1);
    const key = tokens[tokens.length - 1] ?? "";
    const parent = this.resolve(parentTokens);
    if (!parent.found || !isContainer(parent.value)) return "the parent of the target location does not exist";
    if (Array.isArray(parent.value)) {
      const length = parent.value.length;
      const index = key === "-" ? length : ARRAY_INDEX.test(key) ? Number(key) : -1;
      if (index < 0 || index > length) return `array index "${key}" is out of bounds (length ${length})`;
      const array = this.writable(parentTokens);
      if (!Array.isArray(array)) return "the parent of the target location does not exist";
      array.splice(index, 0, value);
      this.journal.push(() => {
        array.splice(index, 1);
      });
      return undefined;
    }
    const object = this.writable(parentTokens);
    if (object === undefined) return "the parent of the target location does not exist";
    this.write(object, key, value);
    return undefined;
  }

  remove(tokens: readonly string[]): string | undefined {
    if (tokens.length === 0) return "the document root cannot be removed";
    if (!this.resolve(tokens).found) return "the target location does not exist";
    const parentTokens = tokens.slice(0, -1);
    const key = tokens[tokens.length - 1] ?? "";
    const parent = this.writable(parentTokens);
    if (parent === undefined) return "the target location does not exist";
    if (Array.isArray(parent)) {
      const index = Number(key);
      const [previous] = parent.splice(index, 1);
      this.journal.push(() => {
        parent.splice(index, 0, previous);
      });
      return undefined;
    }
    const previous = parent[key];
    delete parent[key];
    this.journal.push(() => {
      setKey(parent, key, previous);
    });
    return undefined;
  }

  replace(tokens: readonly string[], value: unknown): string | undefined {
    if (tokens.length === 0) {
      this.setRoot(value);
      return undefined;
    }
    if (!this.resolve(tokens).found) return "the target location does not exist";
    const parent = this.writable(tokens.slice(0, -1));
    if (parent === undefined) return "the target location does not exist";
    this.write(parent, tokens[tokens.length - 1] ?? "", value);
    return undefined;
  }

  rollback(): void {
    for (let i = this.journal.length - 1; i >= 0; i--) this.journal[i]?.();
    this.journal.length = 0;
  }
}

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Applies an RFC 6902 patch (`add`, `remove`, `replace`, `move`, `copy`, `test`) to `doc`.
 * Never throws and never mutates a node outside `options.owned`; on failure the document is
 * unchanged and the result names the failing operation.
 */
export function applyJsonPatch(doc: unknown, patch: unknown, options: JsonPatchOptions = {}): JsonPatchResult {
  if (!Array.isArray(patch)) return { ok: false, opIndex: -1, message: "a JSON Patch must be an array of operations" };
  const patcher = new Patcher(doc, options.owned ?? new WeakSet());
  for (let opIndex = 0; opIndex < patch.length; opIndex++) {
    const message = applyOperation(patcher, patch[opIndex]);
    if (message !== undefined) {
      patcher.rollback();
      return { ok: false, opIndex, message: `operation ${opIndex} ${describeValue(patch[opIndex])}: ${message}` };
    }
  }
  return { ok: true, doc: patcher.root };
}

function applyOperation(patcher: Patcher, operation: unknown): string | undefined {
  if (!isPlainObject(operation)) return "is not an object";
  const { op, path } = operation;
  if (typeof path !== "string") return 'has no string "path"';
  const tokens = parseJsonPointer(path);
  if (tokens === undefined) return `"path" ${JSON.stringify(path)} is not a valid JSON Pointer`;
  const hasValue = hasOwn(operation, "value");
  switch (op) {
    case "add":
      return hasValue ? patcher.add(tokens, operation.value) : 'has no "value"';
    case "remove":
      return patcher.remove(tokens);
    case "replace":
      return hasValue ? patcher.replace(tokens, operation.value) : 'has no "value"';
    case "test": {
      if (!hasValue) return 'has no "value"';
      const target = patcher.resolve(tokens);
      if (!target.found) return "the target location does not exist";
      return jsonEqual(target.value, operation.value) ? undefined : "test failed: the value differs";
    }
    case "move":
    case "copy": {
      const { from } = operation;
      if (typeof from !== "string") return 'has no string "from"';
      const fromTokens = parseJsonPointer(from);
      if (fromTokens === undefined) return `"from" ${JSON.stringify(from)} is not a valid JSON Pointer`;
      const source = patcher.resolve(fromTokens);
      if (!source.found) return "the from location does not exist";
      if (op === "copy") return patcher.add(tokens, jsonClone(source.value));
      if (fromTokens.length === tokens.length && fromTokens.every((t, i) => t === tokens[i])) return undefined;
      if (fromTokens.length < tokens.length && fromTokens.every((t, i) => t === tokens[i])) {
        return "the from location is a proper prefix of the path (a value cannot move into itself)";
      }
      return patcher.remove(fromTokens) ?? patcher.add(tokens, source.value);
    }
    default:
      return `has unknown "op" ${JSON.stringify(op)} (expected add, remove, replace, move, copy or test)`;
  }
}
