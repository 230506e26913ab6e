/**
 * Which facets a native chunk looks like, read off each facet's own marks in `FACET_TABLE` (§8: the
 * event names and envelope fields of each wire format). Used only to tell a user who passed the
 * wrong `--from` which facet the input probably is; never to choose a facet silently.
 */
import { FACET_KINDS, FACET_TABLE, FACETS, type FacetKind, type FacetName } from "../normalize/index.js";

/** Every facet whose stream carries this chunk's marks (usually one; none for a chunk any facet may see). */
export function facetsLike(chunk: unknown): FacetName[] {
  return FACETS.filter((facet) => FACET_TABLE[facet].looksLike(chunk));
}

const KIND_LABEL: Record<FacetKind, string> = { provider: "provider APIs", framework: "agent frameworks", protocol: "agent protocols" };

/** The `--from` help: every facet grouped by kind (provider APIs, agent frameworks, agent protocols), in table order. */
export function fromOptionHelp(): string {
  return FACET_KINDS.map((kind) => `${FACETS.filter((f) => FACET_TABLE[f].kind === kind).join(", ")} (${KIND_LABEL[kind]})`).join("; ");
}
