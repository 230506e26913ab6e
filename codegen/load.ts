/**
 * Loads the canonical schema files of `schema/` (docs/schema.md). Every other codegen layer works on
 * the `SchemaSet` this returns, so file order and key order are fixed here once, so output is deterministic.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** A JSON Schema node as read from disk. */
export type SchemaNode = { [key: string]: unknown };

/** The six schema families (docs/schema.md), in dependency order. */
export const FAMILIES = ["common", "block", "message", "event", "input", "reduce-result"] as const;
export type Family = (typeof FAMILIES)[number];

/** Root `$def` of each family: what a document of that family is validated against. */
export const FAMILY_ROOT: Record<Family, string | undefined> = {
  common: undefined,
  block: "AgBlock",
  message: "AgMessage",
  event: "AgEvent",
  input: "AgInput",
  "reduce-result": "AgReduceResult",
};

export const SPEC_VERSION = "1.0.0-draft.1";
export const ID_PREFIX = `https://silverprotocol.io/AgJSON/schema/${SPEC_VERSION}/`;

export interface SchemaFile {
  family: Family;
  /** Path relative to the repository root, e.g. `schema/event.schema.json`. */
  path: string;
  schema: SchemaNode;
}

export interface SchemaSet {
  files: SchemaFile[];
  /** Every `$def` by name (names are unique across files, enforced by lint). */
  defs: Map<string, { family: Family; schema: SchemaNode }>;
}

/** The repository root, found from this module's location (works from `codegen/` and `dist/codegen/`). */
export function repoRoot(): string {
  let dir = resolve(fileURLToPath(new URL(".", import.meta.url)));
  for (let i = 0; i < 4; i++) {
    try {
      readFileSync(join(dir, "package.json"));
      if (readdirSync(dir).includes("schema")) return dir;
    } catch {
      // keep walking up
    }
    dir = resolve(dir, "..");
  }
  throw new Error("agjson: cannot find the repository root (a folder with package.json and schema/)");
}

export function familyFileName(family: Family): string {
  return `${family}.schema.json`;
}

/**
 * Reads `schema/*.schema.json`; a missing or unparsable file is an error naming the file. `dir`:
 * where the files are when not in `root/schema` — the npm package's dist/schema/strict, which also
 * holds the bundle, so only the repository's folder must hold nothing but the families.
 */
export function loadSchemaSet(root = repoRoot(), dir?: string): SchemaSet {
  const canonical = dir === undefined;
  dir ??= join(root, "schema");
  const files: SchemaFile[] = [];
  const defs = new Map<string, { family: Family; schema: SchemaNode }>();
  const present = new Set(readdirSync(dir));
  for (const family of FAMILIES) {
    const name = familyFileName(family);
    if (!present.has(name)) throw new Error(`agjson: schema/${name} is missing`);
    const path = `schema/${name}`;
    let schema: SchemaNode;
    try {
      schema = JSON.parse(readFileSync(join(dir, name), "utf8")) as SchemaNode;
    } catch (err) {
      throw new Error(`agjson: ${path} is not valid JSON: ${(err as Error).message}`);
    }
    files.push({ family, path, schema });
    const fileDefs = (schema.$defs ?? {}) as Record<string, SchemaNode>;
    for (const key of Object.keys(fileDefs).sort()) {
      if (!defs.has(key)) defs.set(key, { family, schema: fileDefs[key]! });
    }
  }
  for (const extra of canonical ? [...present].filter((f) => f.endsWith(".schema.json")).sort() : []) {
    if (!FAMILIES.some((f) => familyFileName(f) === extra)) {
      throw new Error(`agjson: schema/${extra} is not one of the families ${FAMILIES.join(", ")}`);
    }
  }
  return { files, defs };
}

/** Resolves a `$ref` string relative to the family it appears in to a `$def` name. */
export function refTarget(ref: string): { file?: string; def: string } | undefined {
  const m = /^(?:([a-z-]+\.schema\.json))?#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref);
  if (!m) return undefined;
  return m[1] ? { file: m[1], def: m[2]! } : { def: m[2]! };
}
