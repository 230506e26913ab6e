/**
 * Emitter: the fast accept of events handed in as objects — one function per event type and
 * posture, compiled from the same derived schemas as the AJV validators (§0.2), that answers
 * `true` only when it is certain both that the posture's validator accepts the value and that the
 * value is a JSON tree within the depth cap (§13, the rules of `src/validate/graph.ts`):
 *
 * - every object met is a plain one (prototype `Object.prototype` or none) within the cap;
 * - a typed field is read once, directly, and checked as the validator checks it, and every field
 *   read is one `for…in` finds — an own, enumerable property, so one `JSON.stringify` writes: the
 *   keys `for…in` finds that the schema names are counted against the fields read (a field read
 *   but not found is not enumerable, or inherited; D32), and any other key is an unknown field
 *   (refused under producer-strict, an opaque value under consumer-lenient). The caller makes sure
 *   `Object.prototype` has no enumerable property, so `for…in` finds own keys only;
 * - an opaque value (§0.1: any JSON value, an open bag, an unknown field under consumer-lenient)
 *   goes through the runtime's `isJsonTree`, handed in, so that walk has one definition.
 *
 * `false` means "not certain": the caller takes the usual path (the object walk, then the AJV
 * validator), which words every refusal. So this code never refuses and never reports; it only
 * saves the common valid event the walk and the validator's second look (`make bench`). It is
 * conservative by construction: a keyword it does not model, a `const` that is not a primitive, a
 * combinator whose branches it cannot decide exactly, makes the node answer `false` whenever it is
 * reached. `fast-accept.test.ts` holds "accept ⇒ the validator accepts" on every fixture and on
 * mutations of them.
 */
import type { Defs } from "./bundle.js";
import { CLOSED_KEYWORD } from "./closed-keyword.js";
import type { SchemaNode } from "./load.js";

const q = (v: unknown) => JSON.stringify(v);
/**
 * The negation of test `t`: one comparison turned around (`typeof f !== "string"`, `f !== "text.delta"`),
 * anything else in `!(…)`. The same test in fewer bytes: the accepts are most of the package's size.
 */
function negated(t: string): string {
  const one = /^(typeof \w+|\w+) === ("[^"\\]*"|-?\d+|true|false|null)$/.exec(t);
  return one ? `${one[1]} !== ${one[2]}` : `!(${t})`;
}
/** `x.name`, or `x["name"]` when the name is no identifier: the same read, fewer bytes in the package. */
const field = (x: string, name: string) => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? `${x}.${name}` : `${x}[${q(name)}]`);

/** Keywords AJV does not evaluate here (annotations, and our own keywords the validators ignore). */
const ANNOTATIONS = new Set(["description", "title", "$comment", "examples", "default", "tsType", "deprecated", "agjsonKnownValues"]);
const isAnnotation = (k: string) => ANNOTATIONS.has(k) || k.startsWith("x-agjson");

type Primitive = string | number | boolean | null;
const isPrimitive = (v: unknown): v is Primitive => v === null || ["string", "number", "boolean"].includes(typeof v);
const isNode = (v: unknown): v is SchemaNode => typeof v === "object" && v !== null && !Array.isArray(v);

/** The JS test that `x` is a JSON value of one schema `type`, as AJV (strictNumbers) tests it. */
function typeTest(type: string, x: string): string | undefined {
  switch (type) {
    case "string":
      return `typeof ${x} === "string"`;
    case "boolean":
      return `typeof ${x} === "boolean"`;
    case "null":
      return `${x} === null`;
    case "number":
      return `(typeof ${x} === "number" && ${x} - ${x} === 0)`;
    case "integer":
      // Infinity % 1 and NaN % 1 are NaN: finite integers only, as strictNumbers.
      return `(typeof ${x} === "number" && ${x} % 1 === 0)`;
    case "object":
      return `(typeof ${x} === "object" && ${x} !== null && !Array.isArray(${x}))`;
    case "array":
      return `Array.isArray(${x})`;
    default:
      return undefined;
  }
}

function numberBounds(node: SchemaNode, x: string, isNumber = false): string[] | undefined {
  const out: string[] = [];
  for (const [k, op] of [
    ["minimum", ">="],
    ["maximum", "<="],
    ["exclusiveMinimum", ">"],
    ["exclusiveMaximum", "<"],
  ] as const) {
    const b = node[k];
    if (b === undefined) continue;
    if (typeof b !== "number") return undefined;
    // JSON Schema bounds bind numbers only; `isNumber`: the type test before this one said so.
    out.push(isNumber ? `${x} ${op} ${b}` : `(typeof ${x} !== "number" || ${x} ${op} ${b})`);
  }
  return out;
}

/**
 * The exact verdict of `node` on `x` as a JS expression, or `undefined` when this emitter cannot
 * state it exactly: for the cross-field rules (`not`, `anyOf`, `oneOf`, `if`), which read a few
 * fields' presence and constant values. `x` is a value already known to be JSON.
 */
export function exactTest(node: unknown, x: string): string | undefined {
  if (node === true) return "true";
  if (node === false) return "false";
  if (!isNode(node)) return undefined;
  const parts: string[] = [];
  const objectParts: string[] = [];
  for (const [k, v] of Object.entries(node)) {
    if (isAnnotation(k)) continue;
    switch (k) {
      case "type": {
        const types = Array.isArray(v) ? v : [v];
        const tests = types.map((t) => (typeof t === "string" ? typeTest(t, x) : undefined));
        if (tests.some((t) => t === undefined)) return undefined;
        parts.push(`(${tests.join(" || ")})`);
        break;
      }
      case "const":
        if (!isPrimitive(v)) return undefined;
        parts.push(`${x} === ${q(v)}`);
        break;
      case "enum":
        if (!Array.isArray(v) || !v.every(isPrimitive)) return undefined;
        parts.push(`(${v.map((e) => `${x} === ${q(e)}`).join(" || ") || "false"})`);
        break;
      case "minimum":
      case "maximum":
      case "exclusiveMinimum":
      case "exclusiveMaximum": {
        const b = numberBounds({ [k]: v }, x);
        if (b === undefined) return undefined;
        parts.push(...b);
        break;
      }
      case "required":
        if (!Array.isArray(v) || !v.every((r) => typeof r === "string")) return undefined;
        objectParts.push(...v.map((r) => `${field(x, r)} !== undefined`));
        break;
      case "properties": {
        if (!isNode(v)) return undefined;
        for (const [name, sub] of Object.entries(v)) {
          const at = field(x, name);
          const t = exactTest(sub, at);
          if (t === undefined) return undefined;
          if (t !== "true") objectParts.push(`(${at} === undefined || ${t})`);
        }
        break;
      }
      case "not": {
        const t = exactTest(v, x);
        if (t === undefined) return undefined;
        parts.push(`!(${t})`);
        break;
      }
      case "allOf":
      case "anyOf":
      case "oneOf": {
        if (!Array.isArray(v) || v.length === 0) return undefined;
        const tests = v.map((s) => exactTest(s, x));
        if (tests.some((t) => t === undefined)) return undefined;
        if (k === "allOf") parts.push(`(${tests.join(" && ")})`);
        else if (k === "anyOf") parts.push(`(${tests.join(" || ")})`);
        else parts.push(`((${tests.map((t) => `(${t} ? 1 : 0)`).join(" + ")}) === 1)`);
        break;
      }
      case "if": {
        const i = exactTest(v, x);
        const t = exactTest(node.then ?? true, x);
        const e = exactTest(node.else ?? true, x);
        if (i === undefined || t === undefined || e === undefined) return undefined;
        parts.push(`(${i} ? ${t} : ${e})`);
        break;
      }
      case "then":
      case "else":
        if (node.if === undefined) break; // without `if` they are ignored
        break;
      default:
        return undefined;
    }
  }
  // `required` and `properties` bind objects only.
  if (objectParts.length > 0) parts.push(`(${typeTest("object", x)} ? ${objectParts.join(" && ")} : true)`);
  return parts.length === 0 ? "true" : parts.join(" && ");
}

/** What the emitter builds for one posture: function declarations, and the name of each `$def`'s. */
class AcceptModule {
  readonly #defs: Defs;
  /** Each declaration by the name it declares, in the order written (a callee before its first caller is not needed: they are hoisted). */
  readonly #decls = new Map<string, string>();
  readonly #byDef = new Map<string, string>();
  #next = 0;

  // The posture is in the derived schemas themselves: strict's objects carry `closedProperties`.
  constructor(defs: Defs) {
    this.#defs = defs;
  }

  /**
   * The declarations `roots` reach (directly or through each other), in the order written: what
   * the module must hold for those functions.
   */
  sourceFor(roots: string[]): string {
    const reached = this.reach(roots);
    return [...this.#decls]
      .filter(([name]) => reached.has(name))
      .map(([, text]) => text)
      .join("\n");
  }

  /** The names of the declarations `roots` reach, themselves included. */
  reach(roots: string[]): Set<string> {
    const reached = new Set<string>();
    const visit = (name: string): void => {
      const text = this.#decls.get(name);
      if (text === undefined || reached.has(name)) return;
      reached.add(name);
      for (const [ref] of text.matchAll(/\b(?:accept\w+|leaf\d+|pattern\d+)\b/g)) visit(ref);
    };
    for (const r of roots) visit(r);
    return reached;
  }

  /** The function accepting `$def` `name`: `(v, level, max) => boolean`. */
  defFunction(name: string): string {
    const known = this.#byDef.get(name);
    if (known !== undefined) return known;
    const fn = `accept${name.replace(/[^A-Za-z0-9_]/g, "_")}`;
    this.#byDef.set(name, fn);
    const def = this.#defs[name];
    this.#decls.set(fn, ""); // registered first: a recursive $def refers to itself
    this.#decls.set(fn, this.#function(fn, def === undefined ? ["return false;"] : this.#body(def)));
    return fn;
  }

  #function(name: string, body: string[]): string {
    return `function ${name}(v, level, max) {\n  ${body.join("\n  ")}\n}`;
  }

  /** An inline subschema's function (a `$ref` names its `$def`'s). */
  #subFunction(node: unknown): string {
    if (node === true || (isNode(node) && Object.keys(node).every(isAnnotation))) return "acceptJson";
    if (isNode(node) && typeof node.$ref === "string" && Object.keys(node).every((k) => k === "$ref" || isAnnotation(k))) {
      const ref = node.$ref;
      return ref.startsWith("#/$defs/") ? this.defFunction(ref.slice("#/$defs/".length)) : this.#never();
    }
    const fn = `accept${this.#next++}`;
    this.#decls.set(fn, "");
    this.#decls.set(fn, this.#function(fn, this.#body(node)));
    return fn;
  }

  readonly #regexes = new Map<string, string>();
  #regex(pattern: string): string {
    let name = this.#regexes.get(pattern);
    if (name === undefined) {
      new RegExp(pattern, "u"); // a pattern AJV could not compile fails the generator, not the reader
      name = `pattern${this.#regexes.size}`;
      this.#regexes.set(pattern, name);
      this.#decls.set(name, `const ${name} = new RegExp(${q(pattern)}, "u");`);
    }
    return name;
  }

  #neverName: string | undefined;
  #never(): string {
    if (this.#neverName === undefined) {
      this.#neverName = "acceptNothing";
      this.#decls.set("acceptNothing", "function acceptNothing() {\n  return false;\n}");
    }
    return this.#neverName;
  }

  readonly #leafFunctions = new Map<string, string>();
  /** The function `(x, level, max) => boolean` testing a value against `node`; one per distinct leaf test. */
  #testFunction(node: unknown): string {
    const leaf = this.#leafTest(node, "x");
    if (leaf === undefined) return this.#subFunction(node);
    let name = this.#leafFunctions.get(leaf);
    if (name === undefined) {
      name = `leaf${this.#leafFunctions.size}`;
      this.#leafFunctions.set(leaf, name);
      this.#decls.set(name, `function ${name}(x) {\n  return ${leaf};\n}`);
    }
    return name;
  }

  /** A test of `x` (at `level`) against `node` as an expression, inline for the leaves. */
  #check(node: unknown, x: string, level: string): string {
    const leaf = this.#leafTest(node, x);
    if (leaf !== undefined) return leaf;
    return `${this.#subFunction(node)}(${x}, ${level}, max)`;
  }

  /** A leaf schema (string, number, boolean, a primitive const or enum) as one expression; `undefined` otherwise. */
  #leafTest(node: unknown, x: string): string | undefined {
    if (!isNode(node)) return undefined;
    const keys = Object.keys(node).filter((k) => !isAnnotation(k));
    if (keys.length === 0) return undefined; // any JSON value: the runtime walk
    const type = node.type;
    if (type === "object" || type === "array" || Array.isArray(type)) return undefined;
    if (!keys.every((k) => ["type", "const", "enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "pattern"].includes(k)))
      return undefined;
    const parts: string[] = [];
    if (typeof type === "string") {
      const t = typeTest(type, x);
      if (t === undefined) return undefined;
      parts.push(t);
    }
    if ("const" in node) {
      if (!isPrimitive(node.const)) return undefined;
      parts.push(`${x} === ${q(node.const)}`);
    }
    if ("enum" in node) {
      const e = node.enum;
      if (!Array.isArray(e) || !e.every(isPrimitive) || e.length === 0) return undefined;
      parts.push(`(${e.map((v) => `${x} === ${q(v)}`).join(" || ")})`);
    }
    // A leaf with no type, const or enum could be an object or array: not a leaf.
    if (parts.length === 0) return undefined;
    const bounds = numberBounds(node, x, type === "number" || type === "integer");
    if (bounds === undefined) return undefined;
    parts.push(...bounds);
    if ("pattern" in node) {
      if (typeof node.pattern !== "string") return undefined;
      // AJV compiles a pattern with the `u` flag; it binds strings only.
      parts.push(`(typeof ${x} !== "string" || ${this.#regex(node.pattern)}.test(${x}))`);
    }
    return parts.join(" && ");
  }

  /** The body of a function accepting `v` (at `level`) against `node`. */
  #body(node: unknown): string[] {
    if (node === true) return ["return v !== undefined && isJsonTree(v, max - level + 1);"];
    if (!isNode(node)) return ["return false;"];
    const keys = Object.keys(node).filter((k) => !isAnnotation(k));
    if (keys.length === 0) return ["return v !== undefined && isJsonTree(v, max - level + 1);"];
    const leaf = this.#leafTest(node, "v");
    if (leaf !== undefined) return [`return ${leaf};`];
    if (typeof node.$ref === "string") {
      if (keys.length !== 1) return ["return false;"]; // siblings of $ref: not modelled
      return [`return ${this.#subFunction(node)}(v, level, max);`];
    }
    if (node.type === "object") return this.#objectBody(node);
    if (node.type === "array") return this.#arrayBody(node);
    return ["return false;"];
  }

  #arrayBody(node: SchemaNode): string[] {
    const keys = Object.keys(node).filter((k) => !isAnnotation(k));
    if (!keys.every((k) => ["type", "items", "minItems", "maxItems"].includes(k))) return ["return false;"];
    const out = ["if (!Array.isArray(v) || level > max) return false;"];
    if (typeof node.minItems === "number") out.push(`if (v.length < ${node.minItems}) return false;`);
    if (typeof node.maxItems === "number") out.push(`if (v.length > ${node.maxItems}) return false;`);
    const items = node.items ?? true;
    // A hole reads as undefined, which no item schema accepts here (the walk refuses it too).
    out.push(
      `for (let i = 0; i < v.length; i++) {`,
      `  const x = v[i];`,
      `  if (${negated(this.#check(items, "x", "level + 1"))}) return false;`,
      `}`,
    );
    out.push("return true;");
    return out;
  }

  #objectBody(node: SchemaNode): string[] {
    const supported = [
      "type",
      "properties",
      "required",
      CLOSED_KEYWORD,
      "additionalProperties",
      "allOf",
      "anyOf",
      "oneOf",
      "not",
      "if",
      "then",
      "else",
      "discriminator",
    ];
    const keys = Object.keys(node).filter((k) => !isAnnotation(k));
    if (!keys.every((k) => supported.includes(k))) return ["return false;"];
    const properties = isNode(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const required = Array.isArray(node.required) ? (node.required as string[]) : [];
    // A required field the schema does not describe would be an unknown key here: not modelled.
    if (!required.every((r) => names.includes(r))) return ["return false;"];
    const closed = node[CLOSED_KEYWORD] !== undefined || node.additionalProperties === false;
    if (node[CLOSED_KEYWORD] !== undefined) {
      const listed = node[CLOSED_KEYWORD];
      if (!Array.isArray(listed) || listed.length !== names.length || !names.every((n) => listed.includes(n))) return ["return false;"];
    }
    const extra = node.additionalProperties;
    // The prototype is checked after the fields are read: those reads leave V8 knowing the
    // object's maps, so `Object.getPrototypeOf` folds to a constant instead of a call (`make bench`).
    const out = ['if (typeof v !== "object" || v === null || level > max) return false;'];
    // Each field is read once into `f` and tested inline (no test passed as a function: a call
    // through a parameter shared by every event type is a megamorphic one V8 cannot inline).
    // `n` counts the fields present, to be matched against the keys `for…in` finds: the required
    // ones always (a value without one is refused), each optional one when it is there.
    if (names.length > 0) out.push(`let n = ${names.filter((name) => required.includes(name)).length}, f;`);
    for (const name of names) {
      // Every leaf test and every accept function is false for undefined, so a required field
      // needs no presence test of its own.
      const test = this.#check(properties[name], "f", "level + 1");
      out.push(`f = ${field("v", name)};`);
      if (required.includes(name)) out.push(`if (${negated(test)}) return false;`);
      else out.push(`if (f !== undefined) {`, `  if (${negated(test)}) return false;`, "  n++;", "}");
    }
    // Cross-field rules, and the tagged union (a discriminated oneOf): after the fields, which they read.
    const cross = this.#crossRules(node);
    if (cross === undefined) return ["return false;"];
    out.push(...cross);
    // A tagged union with no fields of its own: the variant (or both branches) checked the whole object.
    const delegated =
      names.length === 0 &&
      extra === undefined &&
      (node.discriminator !== undefined || (node.then !== undefined && node.else !== undefined));
    if (delegated) {
      out.splice(1, 0, "if (!plainObject(v)) return false;");
      out.push("return true;");
      return out;
    }
    out.push("if (!plainObject(v)) return false;");
    // Every key `for…in` finds is a named field or an unknown one: the named ones must be exactly
    // the fields read above (one read but not found is not enumerable, or inherited: D32, left to
    // the walk), and each unknown one is refused (strict) or must be JSON (lenient, §0.2).
    const known = names.length > 0 ? "n" : "0";
    const other = closed
      ? "return false;"
      : `if (!${extra === undefined || extra === true ? "absentOrJson" : this.#testFunction(extra)}(v[k], level + 1, max)) return false;`;
    out.push(
      "let named = 0;",
      "for (const k in v) {",
      "  switch (k) {",
      ...names.map((name) => `    case ${q(name)}:`),
      ...(names.length > 0 ? ["      named++;", "      break;"] : []),
      "    default:",
      `      ${other}`,
      "  }",
      "}",
    );
    out.push(`return named === ${known};`);
    return out;
  }

  /** Statements checking `node`'s combinators on `v`, or `undefined` when one cannot be decided. */
  #crossRules(node: SchemaNode): string[] | undefined {
    const out: string[] = [];
    const disc = node.discriminator;
    if (disc !== undefined) {
      const tag = isNode(disc) ? disc.propertyName : undefined;
      if (typeof tag !== "string" || !Array.isArray(node.oneOf)) return undefined;
      const cases: string[] = [];
      for (const arm of node.oneOf as unknown[]) {
        const ref = isNode(arm) && typeof arm.$ref === "string" ? arm.$ref.slice("#/$defs/".length) : undefined;
        const variant = ref === undefined ? undefined : this.#defs[ref];
        const props = isNode(variant?.properties) ? variant.properties : undefined;
        const tagSchema = props?.[tag];
        if (ref === undefined || !isNode(tagSchema) || !isPrimitive(tagSchema.const)) return undefined;
        cases.push(`case ${q(tagSchema.const)}: if (!${this.defFunction(ref)}(v, level, max)) return false; break;`);
      }
      out.push(`switch (${field("v", tag)}) {`, ...cases.map((c) => `  ${c}`), "  default: return false;", "}");
    } else if (node.oneOf !== undefined) {
      const t = exactTest({ oneOf: node.oneOf }, "v");
      if (t === undefined) return undefined;
      out.push(`if (!(${t})) return false;`);
    }
    for (const k of ["anyOf", "not"] as const) {
      if (node[k] === undefined) continue;
      const t = exactTest({ [k]: node[k] }, "v");
      if (t === undefined) return undefined;
      out.push(`if (!(${t})) return false;`);
    }
    if (node.allOf !== undefined) {
      if (!Array.isArray(node.allOf)) return undefined;
      for (const sub of node.allOf as unknown[]) {
        const t = exactTest(sub, "v");
        if (t === undefined) return undefined;
        out.push(`if (!(${t})) return false;`);
      }
    }
    if (node.if !== undefined) {
      // The lenient tagged union: a known tag takes the closed form, any other a string-tagged object.
      const test = exactTest(node.if, "v");
      if (test === undefined) return undefined;
      const branch = (sub: unknown) => (sub === undefined ? "true" : `${this.#subFunction(sub)}(v, level, max)`);
      out.push(`if (!(${test} ? ${branch(node.then)} : ${branch(node.else)})) return false;`);
    }
    return out;
  }
}

/** The helpers every accept function calls. */
const HELPERS = `function plainObject(v) {
  if (Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
function acceptJson(v, level, max) {
  return v !== undefined && isJsonTree(v, max - level + 1);
}
function absentOrJson(v, level, max) {
  return v === undefined || isJsonTree(v, max - level + 1);
}`;

/**
 * One posture's event accepts: each named event type's and the `ext.*` arm's (§12). An event of a
 * type this version does not know (lenient's AgUnknownEvent) is rare enough to take the validator.
 */
export function emitFastAccept(defs: Defs, events: { type: string; def: string }[]): string {
  const m = new AcceptModule(defs);
  const ext = m.defFunction("AgExtEvent");
  // Every named type gets one, the content-block carriers too (tool.done, content.block,
  // messages.snapshot, artifact.delta): a tool result left to the walk and the validator cost
  // about 0.03 of validate/JSON.parse on the bench's stream, where one event in 46 is a tool.done.
  const rows = events.map((e) => [e.type, m.defFunction(e.def)] as const);
  const body = m.sourceFor([ext, ...rows.map(([, fn]) => fn)]);
  return [
    "",
    "/**",
    " * The fast accept of events handed in as objects (codegen/emit-fast-accept.ts): `true` only when the value",
    ' * is certainly valid and certainly a JSON tree within `max` levels; `false` means "take the validator".',
    " * `isJsonTree` is the runtime's walk of opaque values (src/validate/graph.ts).",
    " */",
    "export function createEventAccepts(isJsonTree) {",
    ...`${HELPERS}\n${body}`.split("\n").map((l) => (l === "" ? l : `  ${l}`)),
    "  return Object.freeze({",
    "    byType: Object.freeze({",
    ...rows.map(([type, fn]) => `      ${q(type)}: ${fn},`),
    "    }),",
    `    ext: ${ext},`,
    "  });",
    "}",
    "",
  ].join("\n");
}
