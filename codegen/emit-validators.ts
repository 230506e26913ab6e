/**
 * Emitter: the producer-strict and consumer-lenient validators (DESIGN §4), as AJV standalone code
 * bundled by esbuild into self-contained ESM (AJV's ESM output still calls `require` for its
 * runtime helpers — ajv#1976 — and bundling resolves that), plus `.d.ts` type guards. Compiled with
 * AJV's draft-07 class on the derived copies: no schema compilation and no `ajv` import at run time.
 */
import AjvModule from "ajv";
import standaloneCodeModule from "ajv/dist/standalone/index.js";
import addFormatsModule from "ajv-formats";
import { build } from "esbuild";
import type { Defs } from "./bundle.js";
import { deriveLenient, deriveStrict } from "./derive.js";

// Both ship CommonJS; under NodeNext their default import is the namespace object.
const Ajv = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as typeof import("ajv").default;
const standaloneCode = ((standaloneCodeModule as unknown as { default?: unknown }).default ?? standaloneCodeModule) as typeof import("ajv/dist/standalone/index.js").default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as typeof import("ajv-formats").default;

export type Posture = "strict" | "lenient";
const SCHEMA_ID = "agjson";

/** The exported validator name of a `$def`: `AgEvent` → `validateAgEvent`. */
export function validatorName(def: string): string {
  return `validate${def}`;
}

async function compilePosture(defs: Defs, exportDefs: string[], banner: string): Promise<string> {
  const ajv = new Ajv({
    strict: false,
    discriminator: true,
    allErrors: false,
    // Every $def is exported, so refs stay separate functions rather than inlined copies.
    inlineRefs: false,
    code: { source: true, esm: true, lines: false },
  });
  addFormats(ajv, { mode: "full", formats: ["date-time"] });
  ajv.addSchema({ $id: SCHEMA_ID, $defs: defs });
  const refs = Object.fromEntries(exportDefs.map((d) => [validatorName(d), `${SCHEMA_ID}#/$defs/${d}`]));
  const source = standaloneCode(ajv, refs);
  const result = await build({
    stdin: { contents: source, resolveDir: process.cwd(), loader: "js", sourcefile: "validators.js" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    minify: true,
    legalComments: "none",
    write: false,
    banner: { js: banner },
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

export interface ValidatorArtifacts {
  strictJs: string;
  lenientJs: string;
  dts: string;
}

export async function emitValidators(
  defs: Defs,
  knownEventTypes: string[],
  banner: (what: string) => string,
  dtsBanner: (what: string) => string,
): Promise<ValidatorArtifacts> {
  const exportDefs = Object.keys(defs);
  const strictJs = await compilePosture(deriveStrict(defs), exportDefs, banner("producer-strict validators (§0.2, §12)"));
  const lenientJs = await compilePosture(deriveLenient(defs, knownEventTypes), exportDefs, banner("consumer-lenient validators (§0.2, §12)"));
  const lines = [
    dtsBanner("type guards for the strict and lenient validators"),
    `import type * as T from "../types.js";`,
    "",
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
  ];
  for (const d of exportDefs) {
    lines.push(`/** Validates a ${d} (schema \`#/$defs/${d}\`). */`);
    lines.push(`export declare const ${validatorName(d)}: GeneratedValidator<T.${d}>;`);
  }
  return { strictJs, lenientJs, dts: lines.join("\n") + "\n" };
}
