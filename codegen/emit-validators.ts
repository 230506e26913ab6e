/**
 * Emitter: the producer-strict and consumer-lenient validators (§0.2), as AJV standalone code
 * bundled by esbuild into self-contained ESM (AJV's ESM output still calls `require` for its
 * runtime helpers — ajv#1976 — and bundling resolves that), plus `.d.ts` type guards. Compiled with
 * AJV's draft-07 class on the derived copies: no schema compilation and no `ajv` import at run time.
 *
 * One module per posture exports a validator for every `$def`, each `$def` compiled once. The
 * output is formatted (esbuild without minification) so a schema change reads as a reviewable
 * diff; the package build minifies it (scripts/build-package.mjs). A bundler keeps only the
 * functions a consumer reaches: importing the lenient AgEvent validator alone pulls no input or
 * reduce-result code (test/package-size.test.ts measures it).
 */
import AjvModule, { Name } from "ajv";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import { build } from "esbuild";
import { packageRoot } from "./package-root.js";
import type { Defs } from "./bundle.js";
import { deriveLenient, deriveStrict, lenientRoots } from "./derive.js";
import { closedPropertiesKeyword } from "./closed-keyword.js";
import { emitFastAccept } from "./emit-fast-accept.js";
import { DATE_TIME_SOURCE, isDateTime } from "./date-time-format.js";

// Both ship CommonJS; under NodeNext their default import is the namespace object.
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as typeof import("ajv").default;
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ??
  standaloneCodeModule) as typeof import("ajv/dist/standalone/index.js").default;

export type Posture = "strict" | "lenient";
/** Largest referenced schema (in keywords) the strict modules inline. */
const STRICT_INLINE_REFS = 12;
const SCHEMA_ID = "agjson";

/** The exported validator name of a `$def`: `AgEvent` → `validateAgEvent`. */
export function validatorName(def: string): string {
  return `validate${def}`;
}

/**
 * `inlineRefs`: the lenient modules keep each referenced `$def` a function (the lenient event
 * module is what browsers load, and inlining grows it past 30 KB min+gz); the strict modules —
 * producer-side, where size matters less than the per-event cost — inline small `$def`s, which
 * saves a call and its options object per nested value.
 */
async function compilePosture(defs: Defs, exportDefs: string[], banner: string, inlineRefs: boolean | number, tail = ""): Promise<string> {
  const root = packageRoot();
  const ajv = new Ajv({
    strict: false,
    // A number the schema types is a JSON number: finite (§0.1). A value parsed from text skips the
    // hostile-object walk (`parsed`), so `1e400` in a typed field — the Infinity JSON.parse makes of
    // it — must be refused here, as NaN in a hand-made object is.
    strictNumbers: true,
    discriminator: true,
    allErrors: false,
    inlineRefs,
    // No message strings in the output: toIssues (src/validate/issues.ts) words every error from
    // its keyword and params. They were ~10% of the module and 1.5 KB of the 30 KB a browser
    // bundle of lenient event validation may cost.
    messages: false,
    code: { source: true, esm: true, lines: false, formats: new Name(FORMATS) },
  });
  for (const [name, { check }] of Object.entries(OWN_FORMATS)) ajv.addFormat(name, check);
  ajv.addKeyword(closedPropertiesKeyword);
  ajv.addSchema({ $id: SCHEMA_ID, $defs: defs });
  const refs = Object.fromEntries(exportDefs.map((d) => [validatorName(d), `${SCHEMA_ID}#/$defs/${d}`]));
  const source = withOwnFormats(positionalContext(standaloneCode(ajv, refs))) + tail;
  const result = await build({
    // Resolved from agjson's root, not the working directory: from an installed agjson, Ajv's
    // runtime helpers are found beside it (its optional peers) wherever `gen --lang ts` runs; and
    // the module comments esbuild writes name paths from there, the same from codegen/ and dist/.
    stdin: { contents: source, resolveDir: root, loader: "js", sourcefile: "validators.js" },
    absWorkingDir: root,
    // node_modules reached through a symlink (pnpm, a shared install) must not change the output:
    // the path comments stay under root's node_modules, so `gen --check` sees no drift.
    preserveSymlinks: true,
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    minify: false,
    legalComments: "none",
    write: false,
    banner: { js: banner },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/**
 * The formats the schemas use, each a function declaration written into the modules (`check`: the
 * same function, which AJV is given). Not ajv-formats' table: that is built by a top-level
 * call no bundler can drop, so every browser bundle of event validation paid 2.4 KB min+gz for it
 * though no event has a timestamp (`date-time-format.ts` holds that the verdicts are ajv-formats').
 */
const OWN_FORMATS: Readonly<Record<string, { source: string; check: (value: string) => boolean }>> = {
  "date-time": { source: DATE_TIME_SOURCE, check: isDateTime },
};

/** The name a function declaration's source declares. */
function declaredName(source: string): string {
  const name = /^function ([A-Za-z_$][\w$]*)\(/.exec(source)?.[1];
  if (name === undefined) throw new Error(`emit-validators: a format's source is no function declaration: ${source.slice(0, 60)}`);
  return name;
}
/** What AJV's standalone code reads each format from; `withOwnFormats` replaces every read. */
const FORMATS = "agjsonFormats";

/**
 * Points each `const formatsN = agjsonFormats["name"]` of AJV's standalone output at the format's
 * own function and declares that function once. A format the schemas use that has no function here
 * fails the generator (AJV itself refuses a format never added).
 */
export function withOwnFormats(source: string): string {
  const used = new Set<string>();
  const out = source.replace(/\bagjsonFormats\[("[^"]+")\]/g, (_m, quoted: string) => {
    const name = JSON.parse(quoted) as string;
    const own = OWN_FORMATS[name];
    if (own === undefined) throw new Error(`emit-validators: no function for format ${quoted}`);
    used.add(name);
    return declaredName(own.source);
  });
  if (out.includes(FORMATS))
    throw new Error(
      `emit-validators: a format read was not rewritten near: ${out.slice(out.indexOf(FORMATS) - 80, out.indexOf(FORMATS) + 80)}`,
    );
  return [out, ...[...used].map((name) => OWN_FORMATS[name]!.source)].join("\n");
}

/**
 * AJV's standalone functions take their context as an object — `validateN(data, {instancePath,
 * parentData, parentDataProperty, rootData})` — so every nested `$ref` call allocates one, and
 * that allocation is a measurable share of validating a small event (`make bench`): the context
 * is passed positionally instead.
 * This rewrites declarations and call sites; callers outside still call `validateX(data)` (the
 * defaults are unchanged). The generator refuses the output if any object-context call remains,
 * and every fixture, property and differential test runs through the rewritten validators.
 */
export function positionalContext(source: string): string {
  const DECL = /function (validate\d+)\(data, \{instancePath="", parentData, parentDataProperty, rootData=data\}=\{\}\)/g;
  const declared = source.replace(
    DECL,
    (_m, name: string) => `function ${name}(data, instancePath="", parentData, parentDataProperty, rootData=data)`,
  );
  const out = rewriteContextArguments(declared);
  const leftover = /\{instancePath="", parentData/.exec(out) ?? /, \{instancePath[,:][^;]*?rootData\}\)/.exec(out);
  if (leftover)
    throw new Error(`emit-validators: an AJV context object was not rewritten near: ${out.slice(leftover.index, leftover.index + 160)}`);
  return out;
}

const CONTEXT_KEYS = ["instancePath", "parentData", "parentDataProperty", "rootData"] as const;

/** Rewrites each `, {instancePath…,rootData})` call argument to four positional arguments. */
function rewriteContextArguments(src: string): string {
  const marker = ", {instancePath";
  let out = "";
  let from = 0;
  for (;;) {
    const at = src.indexOf(marker, from);
    if (at < 0) return out + src.slice(from);
    const open = at + 2;
    const close = matchingBrace(src, open);
    if (close < 0 || src[close + 1] !== ")") {
      out += src.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    const fields = splitTopLevel(src.slice(open + 1, close));
    const value = (key: string): string => {
      const f = fields.find((x) => x === key || x.startsWith(`${key}:`));
      return f === undefined ? "undefined" : f === key ? key : f.slice(key.length + 1);
    };
    if (!fields.every((f) => CONTEXT_KEYS.some((k) => f === k || f.startsWith(`${k}:`)))) {
      out += src.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    out += `${src.slice(from, at)}, ${CONTEXT_KEYS.map(value).join(", ")}`;
    from = close + 1;
  }
}

/** Index of the bracket closing the one at `open`, skipping string literals; -1 when unbalanced. */
function matchingBrace(src: string, open: number): number {
  let depth = 0;
  let quote = "";
  for (let k = open; k < src.length; k++) {
    const c = src[k]!;
    if (quote) {
      if (c === "\\") k++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") {
      depth--;
      if (depth === 0) return k;
    }
  }
  return -1;
}

/** Splits an object literal's body on its top-level commas. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let k = 0; k < body.length; k++) {
    const c = body[k]!;
    if (quote) {
      if (c === "\\") k++;
      else if (c === quote) quote = "";
      continue;
    }
    if (c === '"' || c === "'" || c === "`") quote = c;
    else if (c === "{" || c === "(" || c === "[") depth++;
    else if (c === "}" || c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      parts.push(body.slice(start, k).trim());
      start = k + 1;
    }
  }
  parts.push(body.slice(start).trim());
  return parts;
}

/**
 * A discriminator table exported beside the validators: wire `type` → that variant's validator.
 * A caller that has already read `type` (validateEvent must, to tell known from ext from unknown)
 * goes straight to the variant, skipping the union's second megamorphic `type` load and its
 * if-chain of string compares — about a third of the per-event cost on the validation bench.
 */
export interface TypeTable {
  /** Exported name of the table. */
  name: string;
  /** The union `$def` whose variants the table covers (for the `.d.ts`). */
  union: string;
  doc: string;
  entries: { type: string; def: string }[];
}

function typeTableSource(t: TypeTable): string {
  const rows = t.entries.map((e) => `  ${JSON.stringify(e.type)}: ${validatorName(e.def)},`);
  return `\nexport const ${t.name} = Object.freeze({\n${rows.join("\n")}\n});\n`;
}

export interface PostureValidators {
  strictJs: string;
  lenientJs: string;
  /** The strict module's type guards: each `$def` as the schema states it. */
  strictDts: string;
  /**
   * The lenient module's: the same, except where the posture widens a family root (an unknown
   * event type, block type or input kind passes, §0.2, §12), plus its unknown-event arm.
   */
  lenientDts: string;
}

/** The shared declarations both posture modules' `.d.ts` import. */
export function emitValidatorTypes(dtsBanner: string): string {
  return [
    dtsBanner,
    "/** One AJV error, as AJV reports it (`instancePath` is a JSON Pointer). */",
    "export interface RawValidationError {",
    "  instancePath: string;",
    "  schemaPath: string;",
    "  keyword: string;",
    "  params: Record<string, unknown>;",
    "  message?: string;",
    "}",
    "",
    "/** A generated validator: a type guard whose failures are left on `.errors`. */",
    "export interface GeneratedValidator<T> {",
    "  (data: unknown): data is T;",
    "  errors?: RawValidationError[] | null;",
    "}",
    "",
    "/**",
    " * A fast accept: `true` only when `value` (at nesting `level`, the root being 1) is certainly valid and",
    ' * certainly a JSON tree within `maxDepth` levels; `false` means "take the validator", never "invalid".',
    " */",
    "export type EventAccept = (value: unknown, level: number, maxDepth: number) => boolean;",
    "",
    "/** One posture's fast accepts: each named event type's, and the `ext.*` arm's (§12). */",
    "export interface EventAccepts {",
    "  readonly byType: { readonly [type: string]: EventAccept };",
    "  readonly ext: EventAccept;",
    "}",
    "",
  ].join("\n");
}

/**
 * `$def` names with every `$def` after the ones it references. AJV caches what `getSchema`
 * compiles at the instance level, where later `$ref`s find it; exported in this order, each
 * `$def` becomes one function. In another order a `$def` compiled first through a reference is
 * compiled again when exported (measured: 290 functions for 162 `$def`s, 849 KB minified, against
 * 181 and 469 KB for the lenient posture).
 */
export function dependencyOrder(defs: Defs): string[] {
  const order: string[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string): void => {
    if (state.has(name)) return;
    state.set(name, "visiting");
    for (const dep of directRefs(defs[name])) if (defs[dep]) visit(dep);
    state.set(name, "done");
    order.push(name);
  };
  for (const name of Object.keys(defs)) visit(name);
  return order;
}

function directRefs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const x of node) directRefs(x, out);
  } else if (node && typeof node === "object") {
    for (const [k, v] of Object.entries(node)) {
      if (k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")) out.push(v.slice("#/$defs/".length));
      else if (k !== "const" && k !== "enum") directRefs(v, out);
    }
  }
  return out;
}

/**
 * The strict and the lenient module, each exporting a validator for every `$def` (and the
 * event-type table), with one `.d.ts` both share.
 */
export async function emitPostureValidators(
  defs: Defs,
  knownEventTypes: string[],
  banner: (what: string) => string,
  dtsBanner: string,
  byType: TypeTable,
): Promise<PostureValidators> {
  const exportDefs = dependencyOrder(defs);
  const tail = typeTableSource(byType);
  const roots = lenientRoots(defs);
  // Lenient also exports its unknown-event arm, before AgEvent (which references it: exported
  // later, it would be compiled twice).
  const lenientExports = exportDefs.flatMap((d) => (d === "AgEvent" ? ["AgUnknownEvent", d] : [d]));
  const strictDefs = deriveStrict(defs, knownEventTypes);
  const lenientDefs = deriveLenient(defs, knownEventTypes);
  const strictJs = await compilePosture(
    strictDefs,
    exportDefs,
    banner("producer-strict validators of every $def (§0.2, §12)"),
    STRICT_INLINE_REFS,
    tail + emitFastAccept(strictDefs, byType.entries),
  );
  const lenientJs = await compilePosture(
    lenientDefs,
    lenientExports,
    banner("consumer-lenient validators of every $def (§0.2, §12)"),
    false,
    tail + emitFastAccept(lenientDefs, byType.entries),
  );
  const dts = (posture: Posture): string => {
    const lines = [
      dtsBanner,
      // Lenient guards narrow to the consumer-lenient type tree: the same names, widened where the
      // lenient validators accept more (unknown union tags, open enums; emit-types.ts).
      posture === "lenient" ? `import type * as T from "../lenient-types.js";` : `import type * as T from "../types.js";`,
      `import type { EventAccept, EventAccepts, GeneratedValidator } from "./types.js";`,
      `export type { GeneratedValidator, RawValidationError, EventAccept, EventAccepts } from "./types.js";`,
      "",
    ];
    for (const d of Object.keys(defs)) {
      const widened = posture === "lenient" ? roots.find((r) => r.root === d) : undefined;
      if (widened) {
        if (d === "AgEvent") {
          lines.push(
            `/** Validates an AgUnknownEvent: an event of a type this version does not know, its envelope checked (consumer-lenient, §0.2, §12). */`,
          );
          lines.push(`export declare const ${validatorName("AgUnknownEvent")}: GeneratedValidator<T.AgUnknownEvent>;`);
        }
        lines.push(
          `/** Validates a ${d} as a consumer reads it (schema \`#/$defs/${d}\`): an unknown \`${widened.tag}\` passes as an ${widened.unknown} (§0.2, §12). */`,
        );
        lines.push(`export declare const ${validatorName(d)}: GeneratedValidator<T.${d}>;`);
        continue;
      }
      lines.push(`/** Validates a ${d} (schema \`#/$defs/${d}\`). */`);
      lines.push(`export declare const ${validatorName(d)}: GeneratedValidator<T.${d}>;`);
    }
    lines.push(
      "/** The fast accept of events handed in as objects (codegen/emit-fast-accept.ts), given the runtime's walk of opaque values. */",
      `export declare function createEventAccepts(isJsonTree: (value: unknown, maxDepth: number) => boolean): EventAccepts;`,
    );
    lines.push(`/** ${byType.doc} */`);
    lines.push(
      `export declare const ${byType.name}: { readonly [K in T.${byType.union}["type"]]: GeneratedValidator<Extract<T.${byType.union}, { type: K }>> };`,
    );
    return lines.join("\n") + "\n";
  };
  return { strictJs, lenientJs, strictDts: dts("strict"), lenientDts: dts("lenient") };
}
