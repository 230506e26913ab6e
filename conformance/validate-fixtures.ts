/**
 * Loader for the validation fixtures, `conformance/validate/<DefName>/<case>.json` (§10,
 * docs/schema.md). Data only: another language's implementation reads the same files.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readUtf8File } from "./fixture-files.js";

export type FixtureFamily = "common" | "block" | "message" | "event" | "input" | "reduce-result";

export interface ValidateFixture {
  /** `<DefName>/<case>.json`, relative to the fixtures folder. */
  name: string;
  /** The `$def` folder the fixture exemplifies. */
  exemplifies: string;
  description: string;
  spec: string;
  kind: FixtureFamily;
  def?: string;
  document: unknown;
  strict: "valid" | "invalid";
  lenient: "valid" | "invalid" | "unknown";
  /**
   * The semantic-layer rule (docs/validation.md) the document breaks: the schema alone accepts it,
   * so the schema-only checks expect "valid" and the API (schema + semantic layer) the verdicts.
   */
  semantic?: string;
}

const KINDS = new Set(["common", "block", "message", "event", "input", "reduce-result"]);

/** Reads every fixture; a malformed fixture file is an error naming the file and the field. */
export function loadValidateFixtures(dir: string): ValidateFixture[] {
  const out: ValidateFixture[] = [];
  for (const folder of readdirSync(dir).sort()) {
    const folderPath = join(dir, folder);
    if (!statSync(folderPath).isDirectory()) continue;
    for (const file of readdirSync(folderPath).sort()) {
      if (!file.endsWith(".json")) continue;
      const name = `${folder}/${file}`;
      let raw: Record<string, unknown>;
      const text = readUtf8File(join(folderPath, file), name);
      try {
        raw = JSON.parse(text) as Record<string, unknown>;
      } catch (err) {
        throw new Error(`${name}: not valid JSON: ${(err as Error).message}`);
      }
      const bad = (field: string) => new Error(`${name}: fixture field "${field}" is missing or malformed`);
      if (typeof raw.description !== "string") throw bad("description");
      if (typeof raw.spec !== "string") throw bad("spec");
      if (typeof raw.kind !== "string" || !KINDS.has(raw.kind)) throw bad("kind");
      if (raw.def !== undefined && typeof raw.def !== "string") throw bad("def");
      if (!("document" in raw)) throw bad("document");
      if (raw.strict !== "valid" && raw.strict !== "invalid") throw bad("strict");
      if (raw.lenient !== "valid" && raw.lenient !== "invalid" && raw.lenient !== "unknown") throw bad("lenient");
      if (raw.semantic !== undefined && typeof raw.semantic !== "string") throw bad("semantic");
      out.push({
        name,
        exemplifies: folder,
        description: raw.description,
        spec: raw.spec,
        kind: raw.kind as FixtureFamily,
        ...(raw.def !== undefined ? { def: raw.def as string } : {}),
        document: raw.document,
        strict: raw.strict,
        lenient: raw.lenient,
        ...(typeof raw.semantic === "string" ? { semantic: raw.semantic } : {}),
      });
    }
  }
  return out;
}
