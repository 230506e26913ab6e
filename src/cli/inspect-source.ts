/**
 * What `agjson inspect` reads (docs/inspect.md): anything the CLI reads — an AgEvent stream (NDJSON,
 * SSE or a JSON array), a native stream of any of the 15 facets (told by the same sniffing
 * `agjson normalize` uses to name a wrong `--from`, plus the framework shapes, or given with
 * `--from`), or an AgReduceResult (`agjson reduce` output too) — turned into a source for the
 * inspector: records to validate and fold, with each normalized event's native chunk.
 */
import { createNormalizer, FACETS, isFacetName, nativeChunksOf, type FacetName } from "../normalize/index.js";
import { DEFAULT_PARSE_CAPS, parseCapped, validateReduceResult, type Lenient } from "../validate/index.js";
import { facetsLike } from "./facet-sniff.js";
import { InputFormatError, readRecords, type RawRecord } from "./records.js";
import type { EventIssue, InspectRecord, LoadedSource } from "../inspect/protocol.js";
import { isRecord } from "../json-guards.js";

/** `--from` values: a facet, or `agjson` for an AgEvent stream. */
export const INSPECT_FROM = ["agjson", ...FACETS] as const;

/** Records sniffed before deciding what the input is. */
const SNIFF_RECORDS = 200;
/** Largest record (a native chunk may carry inline media). */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** The reduce result a document holds: an AgReduceResult, or `agjson reduce`'s `{result, …}`. */
function reduceResultOf(value: unknown): unknown {
  if (!isRecord(value)) return undefined;
  if (Array.isArray(value.messages) && Array.isArray(value.turns)) return value;
  if (isRecord(value.result) && "needsResync" in value) return reduceResultOf(value.result);
  return undefined;
}

/** The most frequent facet the sniffs name among the first records, or undefined. */
function sniffFacet(values: unknown[]): FacetName | undefined {
  const votes = new Map<FacetName, number>();
  for (const v of values) {
    // The marks of FACET_TABLE, the same that `normalize` names a wrong --from by (a framework row
    // excludes the provider shape it wraps: an ADK event is not a Gemini chunk).
    for (const f of facetsLike(v)) votes.set(f, (votes.get(f) ?? 0) + 1);
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

function looksLikeAgEvent(v: unknown): boolean {
  return isRecord(v) && typeof v.type === "string" && typeof v.seq === "number" && !/^[A-Z]/.test(v.type);
}

/** Reads `bytes` as the inspector's source, or says why it cannot (a message for the user). */
export async function loadInspectSource(bytes: Uint8Array, name: string, from: string | undefined): Promise<LoadedSource | string> {
  if (from !== undefined && from !== "agjson" && !isFacetName(from))
    return `unknown --from "${from}"; use one of ${INSPECT_FROM.join(", ")}`;
  const raw: RawRecord[] = [];
  try {
    for await (const batch of readRecords(once(bytes), { format: "auto", maxRecordBytes: MAX_RECORD_BYTES })) raw.push(...batch);
  } catch (err) {
    if (err instanceof InputFormatError) return `${name}: ${err.message}`;
    throw err;
  }
  const caps = { maxBytes: MAX_RECORD_BYTES, maxDepth: DEFAULT_PARSE_CAPS.maxDepth };
  const parsed = raw.map((r) => ("error" in r ? r : { ...r, parsed: parseCapped(r.text, caps) }));
  const values = parsed.slice(0, SNIFF_RECORDS).flatMap((r) => ("parsed" in r && r.parsed.ok ? [r.parsed.value] : []));

  if (from === undefined && raw.length === 1 && values.length === 1) {
    const result = reduceResultOf(values[0]);
    if (result !== undefined) return resultSource(result, name);
  }
  const events =
    from === "agjson" || (from === undefined && values.length > 0 && values.filter(looksLikeAgEvent).length * 2 >= values.length);
  if (events) {
    const records: InspectRecord[] = parsed.map((r) =>
      "error" in r
        ? { error: r.error }
        : r.parsed.ok
          ? { value: r.parsed.value, text: r.text }
          : { error: r.parsed.errors.map((e) => e.message).join("; "), text: r.text.slice(0, 100_000) },
    );
    const bad = records.filter((r) => "error" in r).length;
    return {
      meta: {
        name,
        source: "AgEvent stream",
        ...(bad > 0 ? { note: `${bad} record(s) could not be read as JSON; they are listed under Problems` } : {}),
      },
      records,
    };
  }
  const facet = from ?? sniffFacet(values);
  if (facet === undefined) {
    if (raw.length === 0) return { meta: { name, source: "empty input" }, records: [] };
    return `${name}: cannot tell what this input is (not AgEvents, not an AgReduceResult, no facet's chunks recognized); give --from with one of ${INSPECT_FROM.join(", ")}`;
  }
  return nativeSource(raw, facet, name, from === undefined);
}

function resultSource(value: unknown, name: string): LoadedSource {
  const issues: EventIssue[] = [];
  const strict = validateReduceResult(value, { posture: "strict" });
  if (!strict.ok)
    for (const e of strict.errors) issues.push({ source: "strict", path: e.path, message: e.message, rule: e.keyword, spec: e.spec });
  const lenient = validateReduceResult(value, { posture: "lenient" });
  if (!lenient.ok)
    for (const e of lenient.errors) issues.push({ source: "lenient", path: e.path, message: e.message, rule: e.keyword, spec: e.spec });
  const empty: Lenient.AgReduceResult = { messages: [], artifacts: [], memory: [], turns: [] };
  return {
    meta: { name, source: "AgReduceResult", ...(lenient.ok ? {} : { note: "the result is not a valid AgReduceResult: see Problems" }) },
    result: { value: lenient.ok ? lenient.result : empty, issues },
  };
}

/** The native chunks normalized by the facet (§8.0), each event pointing at the chunk whose push emitted it. */
function nativeSource(raw: RawRecord[], facet: FacetName, name: string, sniffed: boolean): LoadedSource {
  const natives: unknown[] = [];
  const records: InspectRecord[] = [];
  // Every chunk comes from nativeChunksOf: parsed from capped text, nothing to look up per chunk (§13.2).
  const normalizer = createNormalizer(facet, { parsed: true });
  let unreadable = 0;
  for (const r of raw) {
    if ("error" in r) {
      unreadable++;
      continue;
    }
    for (const chunk of nativeChunksOf(r.text, DEFAULT_PARSE_CAPS.maxDepth)) {
      const at = natives.push(chunk) - 1;
      for (const e of normalizer.push(chunk)) records.push({ value: e, natives: [at] });
    }
  }
  const last = natives.length - 1;
  for (const e of normalizer.flush()) records.push({ value: e, ...(last >= 0 ? { natives: [last] } : {}) });
  const notes = [
    sniffed ? `read as ${facet} (detected; --from ${facet} to say so)` : `read as ${facet}`,
    `${natives.length} native chunk(s)`,
  ];
  if (unreadable > 0) notes.push(`${unreadable} record(s) could not be cut from the input`);
  return { meta: { name, source: `${facet} (normalized)`, note: notes.join("; ") }, natives, records };
}
