/**
 * Emitter: AgJSON types for Python and Go, with the union dispatch generated from the
 * discriminator tables and unknown fields and types kept so documents round-trip (§0.2).
 * Why this walks the schema itself instead of rendering quicktype's output: see
 * docs/codegen-other-languages.md.
 */
import type { Defs } from "./bundle.js";
import { FAMILY_ROOT, familyFileName, type SchemaSet } from "./load.js";
import type { BlockEntry, EventEntry } from "./event-table.js";
import { buildModel, type Model } from "./other-languages/model.js";
import { renderPython } from "./other-languages/python.js";
import { renderGo } from "./other-languages/go.js";

/** The Go module path of `generated/go`. */
export const GO_MODULE = "silverprotocol.io/agjson";

/** Checks that the model dispatches exactly as the discriminator tables of event-table.ts say. */
function checkAgainstTables(model: Model, events: EventEntry[], blocks: BlockEntry[]): void {
  const expect = (union: string, table: { type: string; def: string }[]) => {
    const u = model.unions.find((x) => x.name === union);
    const got = (u?.cases ?? []).map((c) => `${c.value}→${c.target.name}`).join(", ");
    const want = table.map((e) => `${e.type}→${e.def}`).join(", ");
    if (got !== want) throw new Error(`other-languages: the ${union} dispatch (${got}) disagrees with the discriminator table (${want})`);
  };
  expect("AgEvent", events);
  expect("AgKnownEvent", events);
  expect("AgBlock", blocks);
}

export async function emitOtherLanguages(
  set: SchemaSet,
  defs: Defs,
  events: EventEntry[],
  blocks: BlockEntry[],
  banners: { slash: (what: string, source?: string) => string; hash: (what: string, source?: string) => string },
): Promise<Map<string, string>> {
  const model = buildModel(defs);
  checkAgainstTables(model, events, blocks);
  const source = (def: string) => `schema/${familyFileName(set.defs.get(def)!.family)}`;
  const roots = Object.values(FAMILY_ROOT).filter((r): r is string => !!r);
  const files = new Map<string, string>();

  const pyRoots: Record<string, string> = {};
  for (const r of roots)
    pyRoots[
      `parse_${r
        .replace(/^Ag/, "")
        .replace(/([a-z])([A-Z])/g, "$1_$2")
        .toLowerCase()}`
    ] = r;
  files.set("python/agjson_types.py", renderPython(model, banners.hash("Python types with union dispatch"), source, pyRoots));

  const goRoots: Record<string, string> = {};
  for (const r of roots) goRoots[`Decode${r.replace(/^Ag/, "")}`] = r;
  for (const [path, content] of renderGo(
    model,
    banners.slash("Go types with a tagged decode switch per union"),
    source,
    goRoots,
    GO_MODULE,
  )) {
    files.set(`go/${path}`, content);
  }
  return files;
}
