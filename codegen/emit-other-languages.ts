/**
 * Emitter: types for other languages (Python, Go) — placeholder until the quicktype emitter lands.
 */
import type { Defs } from "./bundle.js";
import type { SchemaSet } from "./load.js";
import type { BlockEntry, EventEntry } from "./event-table.js";

export async function emitOtherLanguages(
  _set: SchemaSet,
  _defs: Defs,
  _events: EventEntry[],
  _blocks: BlockEntry[],
  _banners: { slash: (what: string, source?: string) => string; hash: (what: string, source?: string) => string },
): Promise<Map<string, string>> {
  return new Map();
}
