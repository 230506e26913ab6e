/**
 * The object-graph check run before a value handed in as an object is validated (§13): a JSON
 * value is a finite tree, so a cycle, or nesting past the depth cap, is refused with the JSON
 * Pointer where it was found. Text goes through `parseCapped`, whose scan caps depth before
 * parsing; an object never passed through text needs this walk instead. The walk recurses at most
 * `maxDepth` levels, so it cannot exhaust the stack itself. A throwing getter or Proxy trap
 * propagates to the caller, which turns it into a typed issue.
 *
 * It also refuses what is not a JSON value at all (§0.1: the opaque `unknown` is "any JSON value"),
 * because the schema cannot: an opaque slot (`_meta`, `providerMetadata`, state, tool input) accepts
 * anything, and the schema reads properties as JavaScript does while the wire form is what
 * `JSON.stringify` writes. Without this, a BigInt passed validation and then made serializing the
 * document (or a fold of it) throw; NaN, a function, a Symbol or a Date passed and reached the wire
 * as `null`, nothing or a string. So: a leaf must be a string, a finite number, a boolean or null;
 * an array item may not be missing (a hole) or `undefined`; an object must be a plain one (its
 * prototype `Object.prototype` of some realm, or none). A property whose value is `undefined` is
 * absent, as `JSON.stringify` and the schema both read it.
 *
 * An own property that is not enumerable (or has a Symbol key) is no part of the JSON value:
 * `JSON.stringify` does not write it, and the walk passes over it, as over a Vue `markRaw` flag
 * (D32). It matters only where the validator would read it — a field the schema names, such as an
 * event's `type` — because then what is validated is not what is written: {@link watchHiddenReads}
 * finds those, and the validator refuses them.
 */
import { pointerToken } from "./issues.js";

/** Where and why a value is not a JSON tree; `undefined` when it is one within the cap. */
export interface GraphProblem {
  path: string;
  /** `cap` for nesting past the cap (as `parseCapped` reports it), `structure` for a cycle or a value that is not JSON. */
  keyword: "cap" | "structure";
  message: string;
}

// The messages both walks (inspectGraph, snapshotJson) give, so the two cannot drift apart.
const capMessage = (maxDepth: number): string => `nests deeper than the ${maxDepth}-level cap (§13); _meta and other opaque values count`;
const CYCLE = "is a cycle: it contains itself, which no JSON text can (§0.1)";
const NOT_ENUMERABLE =
  "is a property that is not enumerable: JSON.stringify leaves it out, so the validator would judge a field the JSON value does not hold (§0.1, D32)";
const INHERITED =
  "is inherited from the object's prototype, not its own: JSON.stringify leaves it out, so the validator would judge a field the JSON value does not hold (§0.1, D32)";

/** Why a leaf (not an object) is no JSON value; `undefined` when it is one. */
function leafProblem(value: unknown, inArray: boolean): string | undefined {
  switch (typeof value) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(value) ? undefined : `is ${String(value)}, which is not a JSON number (§0.1)`;
    case "undefined":
      // An object property holding undefined is absent (JSON.stringify drops it, the schema reads it
      // as missing); an array slot cannot be absent — JSON.stringify would write null.
      return inArray ? "is undefined (or a hole in a sparse array), which is not a JSON value (§0.1)" : undefined;
    case "bigint":
      return `is the BigInt ${String(value)}, which is not a JSON value (§0.1): JSON.stringify throws on it; give a number, or a string for digits a double cannot hold`;
    case "function":
      return "is a function, which is not a JSON value (§0.1)";
    case "symbol":
      return "is a Symbol, which is not a JSON value (§0.1)";
    default:
      return value === null ? undefined : `is a ${typeof value}, which is not a JSON value (§0.1)`;
  }
}

/** Why an object that is not an array is no JSON object; `undefined` when it is a plain one. */
function objectProblem(node: object): string | undefined {
  const proto: unknown = Object.getPrototypeOf(node);
  if (proto === null || Object.getPrototypeOf(proto) === null) return undefined;
  let name = "an object whose prototype is not Object.prototype";
  try {
    const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
    if (typeof ctor?.name === "string" && ctor.name !== "" && ctor.name !== "Object") name = `an instance of ${ctor.name}`;
  } catch {
    // A prototype whose constructor cannot be read is still not a plain object.
  }
  return `is ${name}, not a plain JSON object (§0.1): what JSON.stringify writes of it (its own enumerable fields, or its toJSON) is not what the schema reads (inherited fields too); pass plain data`;
}

/**
 * Whether `root` is certainly a JSON tree within `maxDepth` levels, by the rules of
 * {@link inspectGraph}, decided in one pass that builds no JSON Pointer: the common case — a value
 * that is one, fresh from `JSON.parse` or plain data — costs no string and no list but
 * `getOwnPropertyNames`'. `false` means "look again with {@link inspectGraph}", which says where
 * and why; a cycle shows up here as nesting past the cap, so no list of ancestors is kept. Keys
 * come from `for…in` (own enumerable ones once the prototype is a plain object's; an inherited
 * enumerable key, or a non-enumerable own one, makes the counts differ and the answer `false`, so
 * that a caller can watch what its validator reads of them: {@link watchHiddenReads}).
 * A throwing getter or Proxy trap propagates, as from {@link inspectGraph}.
 */
export function isJsonTree(root: unknown, maxDepth: number): boolean {
  return typeof root === "object" && root !== null ? isTreeWithin(root, 1, maxDepth) : isJsonLeaf(root, false);
}

function isJsonLeaf(value: unknown, inArray: boolean): boolean {
  switch (typeof value) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return value - value === 0; // finite: NaN and ±Infinity give NaN
    case "undefined":
      return !inArray;
    default:
      return value === null;
  }
}

function isTreeWithin(node: object, level: number, maxDepth: number): boolean {
  if (level > maxDepth) return false;
  if (Array.isArray(node)) {
    const length = node.length;
    for (let i = 0; i < length; i++) {
      const item: unknown = node[i];
      if (typeof item === "object" && item !== null ? !isTreeWithin(item, level + 1, maxDepth) : !isJsonLeaf(item, true)) return false;
    }
    return true;
  }
  const proto: unknown = Object.getPrototypeOf(node);
  if (proto !== Object.prototype && proto !== null && Object.getPrototypeOf(proto) !== null) return false;
  let keys = 0;
  for (const key in node) {
    keys++;
    const item: unknown = (node as Record<string, unknown>)[key];
    // Strings first: most of an event's fields are.
    if (typeof item === "string") continue;
    if (typeof item === "object" && item !== null ? !isTreeWithin(item, level + 1, maxDepth) : !isJsonLeaf(item, false)) return false;
  }
  return Object.getOwnPropertyNames(node).length === keys;
}

/**
 * The first place `root` is not a JSON tree within `maxDepth` levels. With `values: false` only the
 * cap and cycles are looked for (the reducer's depth cap, which locates a problem it already found).
 */
export function inspectGraph(root: unknown, maxDepth: number, values = true): GraphProblem | undefined {
  if (typeof root !== "object" || root === null) {
    const leaf = values ? leafProblem(root, false) : undefined;
    return leaf === undefined ? undefined : { path: "", keyword: "structure", message: leaf };
  }
  const ancestors: object[] = [];
  const structure = (path: string, message: string): GraphProblem => ({ path, keyword: "structure", message });
  const visit = (node: object, path: string): GraphProblem | undefined => {
    if (ancestors.length >= maxDepth) {
      return { path, keyword: "cap", message: capMessage(maxDepth) };
    }
    if (ancestors.includes(node)) return structure(path, CYCLE);
    ancestors.push(node);
    if (Array.isArray(node)) {
      const length = node.length;
      for (let i = 0; i < length; i++) {
        const item: unknown = node[i];
        if (typeof item === "object" && item !== null) {
          const found = visit(item, `${path}/${i}`);
          if (found !== undefined) return found;
        } else if (values) {
          const leaf = leafProblem(item, true);
          if (leaf !== undefined) return structure(`${path}/${i}`, leaf);
        }
      }
    } else {
      if (values) {
        const problem = objectProblem(node);
        if (problem !== undefined) return structure(path, problem);
      }
      const record = node as Record<string, unknown>;
      // Own enumerable keys: what JSON.stringify writes (D32).
      const keys = Object.keys(record);
      for (const key of keys) {
        const item = record[key];
        if (typeof item === "object" && item !== null) {
          const found = visit(item, `${path}/${pointerToken(key)}`);
          if (found !== undefined) return found;
        } else if (values) {
          const leaf = leafProblem(item, false);
          if (leaf !== undefined) return structure(`${path}/${pointerToken(key)}`, leaf);
        }
      }
    }
    ancestors.pop();
    return undefined;
  };
  return visit(root, "");
}

/**
 * A plain copy of `root` — the JSON value it stands for, every property read exactly once — or the
 * first place it is not a JSON tree within `maxDepth` levels (the rules of {@link inspectGraph}).
 * For a boundary that validates a value and then uses it (`createValidatingReducer`): a getter or
 * Proxy could otherwise answer the validator one thing and the fold another. A throwing getter or
 * Proxy trap propagates to the caller, which turns it into a typed issue. `hidden`: `root` held own
 * properties that are not enumerable, which the copy leaves out, as `JSON.stringify` does (D32).
 */
export function snapshotJson(
  root: unknown,
  maxDepth: number,
): { ok: true; value: unknown; hidden: boolean } | { ok: false; problem: GraphProblem } {
  const ancestors: object[] = [];
  let hidden = false;
  let problem: GraphProblem | undefined;
  const fail = (path: string, keyword: "cap" | "structure", message: string): undefined => {
    problem = { path, keyword, message };
    return undefined;
  };
  const copyLeaf = (item: unknown, path: string, inArray: boolean): unknown => {
    const leaf = leafProblem(item, inArray);
    return leaf === undefined ? item : fail(path, "structure", leaf);
  };
  const copy = (node: object, path: string): unknown => {
    if (ancestors.length >= maxDepth) return fail(path, "cap", capMessage(maxDepth));
    if (ancestors.includes(node)) return fail(path, "structure", CYCLE);
    ancestors.push(node);
    let out: unknown;
    if (Array.isArray(node)) {
      const length = node.length;
      const items: unknown[] = new Array<unknown>(length);
      for (let i = 0; i < length; i++) {
        const item: unknown = node[i];
        items[i] = typeof item === "object" && item !== null ? copy(item, `${path}/${i}`) : copyLeaf(item, `${path}/${i}`, true);
        if (problem !== undefined) return undefined;
      }
      out = items;
    } else {
      const bad = objectProblem(node);
      if (bad !== undefined) return fail(path, "structure", bad);
      const record = node as Record<string, unknown>;
      const fields: Record<string, unknown> = {};
      const keys = Object.keys(record);
      // An own property Object.keys leaves out is one that is not enumerable.
      if (!hidden && Object.getOwnPropertyNames(record).length !== keys.length) hidden = true;
      for (const key of keys) {
        const at = `${path}/${pointerToken(key)}`;
        const item = record[key];
        const value = typeof item === "object" && item !== null ? copy(item, at) : copyLeaf(item, at, false);
        if (problem !== undefined) return undefined;
        // `__proto__` as an own data field (JSON.parse makes one) stays a field, never a prototype.
        if (value !== undefined) Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
      }
      out = fields;
    }
    ancestors.pop();
    return out;
  };
  const value = typeof root === "object" && root !== null ? copy(root, "") : copyLeaf(root, "", false);
  return problem === undefined ? { ok: true, value, hidden } : { ok: false, problem };
}

/** What a validator read through {@link watchHiddenReads}'s view. */
export interface HiddenReads {
  /** Stands for the root: validate this instead, and every property read through it is watched. */
  readonly view: object;
  /** The first property read that the JSON value does not hold (own but not enumerable, or inherited), if any. */
  first(): GraphProblem | undefined;
}

/**
 * A view of `root`, a JSON tree by {@link inspectGraph}'s rules that holds properties
 * `JSON.stringify` does not write (own ones that are not enumerable, or inherited enumerable ones),
 * through which a validator's reads are watched (D32): such a property is harmless until the
 * validator reads it — a field the schema names — and then the verdict would be about a field the
 * JSON value does not hold. Each object is seen through a Proxy over an empty stand-in (an array for
 * an array), so a frozen object's fields can be handed out as views too without breaking a Proxy
 * invariant. An inherited method (a function) is no field; an array's `length` is its own.
 */
export function watchHiddenReads(root: object): HiddenReads {
  const views = new WeakMap<object, object>();
  let found: GraphProblem | undefined;
  const viewOf = (node: object, path: string): object => {
    const known = views.get(node);
    if (known !== undefined) return known;
    const view = new Proxy(Array.isArray(node) ? [] : {}, {
      get(_stand, key) {
        const value: unknown = Reflect.get(node, key);
        if (typeof key !== "string") return value;
        if (found === undefined) {
          const own = Reflect.getOwnPropertyDescriptor(node, key);
          if (
            own !== undefined
              ? !own.enumerable && !(key === "length" && Array.isArray(node))
              : value !== undefined && typeof value !== "function"
          )
            found = { path: `${path}/${pointerToken(key)}`, keyword: "structure", message: own === undefined ? INHERITED : NOT_ENUMERABLE };
        }
        return typeof value === "object" && value !== null ? viewOf(value, `${path}/${pointerToken(key)}`) : value;
      },
      has: (_stand, key) => Reflect.has(node, key),
      ownKeys: () => Reflect.ownKeys(node),
      getOwnPropertyDescriptor(_stand, key) {
        const own = Reflect.getOwnPropertyDescriptor(node, key);
        if (own === undefined) return undefined;
        // The stand-in's own `length` (an array's) cannot be reported read-only or configurable.
        return key === "length" && Array.isArray(node) ? { ...own, writable: true } : { ...own, configurable: true };
      },
      getPrototypeOf: () => Reflect.getPrototypeOf(node),
    });
    views.set(node, view);
    return view;
  };
  return { view: viewOf(root, ""), first: () => found };
}
