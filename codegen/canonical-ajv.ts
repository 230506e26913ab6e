/**
 * The canonical files loaded into AJV's draft 2020-12 class. Used for two things only: checking the
 * files against the 2020-12 meta-schema, and as the reference implementation the generated
 * (draft-07 class, standalone) validators are differentially tested against. It is never the
 * runtime validator: Ajv2020 turns on unevaluated-property tracking, which doubles the lenient cost
 * (`docs/research/codegen-findings.md` §2).
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import type { AnySchemaObject, ValidateFunction } from "ajv";
import { ID_PREFIX, familyFileName, type SchemaSet } from "./load.js";

// ajv-formats ships CommonJS; under NodeNext its default import is the module namespace.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export const ANNOTATION_KEYWORDS = ["x-agjson-profile", "x-agjson-fold"] as const;

export interface CanonicalAjv {
  ajv: Ajv2020;
  /** Compiled validator for one `$def` of one family. */
  validatorFor(def: string): ValidateFunction;
}

export function metaValidate(set: SchemaSet): string[] {
  const ajv = new Ajv2020({ strict: false, validateSchema: false });
  const problems: string[] = [];
  for (const file of set.files) {
    const ok = ajv.validateSchema(file.schema as AnySchemaObject);
    if (!ok) problems.push(`${file.path}: fails the 2020-12 meta-schema: ${ajv.errorsText(ajv.errors)}`);
  }
  return problems;
}

export function canonicalAjv(set: SchemaSet, opts: { allErrors?: boolean } = {}): CanonicalAjv {
  const ajv = new Ajv2020({ strict: false, discriminator: true, allErrors: opts.allErrors ?? false });
  addFormats(ajv);
  for (const kw of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword: kw, schemaType: "string" });
  for (const file of set.files) ajv.addSchema(file.schema as AnySchemaObject);
  const cache = new Map<string, ValidateFunction>();
  return {
    ajv,
    validatorFor(def) {
      let v = cache.get(def);
      if (!v) {
        const found = set.defs.get(def);
        if (!found) throw new Error(`no $def named ${def}`);
        const ref = `${ID_PREFIX}${familyFileName(found.family)}#/$defs/${def}`;
        v = ajv.getSchema(ref);
        if (!v) throw new Error(`AJV cannot resolve ${ref}`);
        cache.set(def, v);
      }
      return v;
    },
  };
}
