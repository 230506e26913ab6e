/**
 * `agjson normalize --from <facet>` (DESIGN §6): one Normalizer (§8.0) over the native chunks of a
 * chunk-per-line file or a raw SSE capture; prints AgEvent NDJSON with seq from 0, flush included.
 */
import { createNormalizer, isFacetName, readNativeChunks, FACETS } from "../normalize/index.js";
import { readInput } from "./records.js";

export async function normalizeCommand(file: string | undefined, from: string): Promise<number> {
  if (!isFacetName(from)) {
    process.stderr.write(`agjson normalize: unknown facet "${from}"; use one of ${FACETS.join(", ")}\n`);
    return 2;
  }
  let text: string;
  try {
    text = new TextDecoder().decode(await readInput(file));
  } catch (err) {
    process.stderr.write(`agjson normalize: cannot read ${file}: ${(err as Error).message}\n`);
    return 2;
  }
  const normalizer = createNormalizer(from);
  const lines: string[] = [];
  for (const chunk of readNativeChunks(text)) for (const e of normalizer.push(chunk)) lines.push(JSON.stringify(e));
  for (const e of normalizer.flush()) lines.push(JSON.stringify(e));
  process.stdout.write(lines.length ? lines.join("\n") + "\n" : "");
  return 0;
}
