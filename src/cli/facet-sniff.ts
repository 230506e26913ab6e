/**
 * Which facets a native chunk looks like, read off each facet's own marks in `FACET_TABLE` (§8: the
 * event names and envelope fields of each wire format). Used only to tell a user who passed the
 * wrong `--from` which facet the input probably is; never to choose a facet silently.
 */
import { FACET_TABLE, FACETS, type FacetName } from "../normalize/index.js";

/** Every facet whose stream carries this chunk's marks (usually one; none for a chunk any facet may see). */
export function facetsLike(chunk: unknown): FacetName[] {
  return FACETS.filter((facet) => FACET_TABLE[facet].looksLike(chunk));
}

/** The `--from` help: every facet, provider APIs first, then agent frameworks, in table order. */
export function fromOptionHelp(): string {
  const of = (kind: "provider" | "framework") => FACETS.filter((f) => FACET_TABLE[f].kind === kind).join(", ");
  return `${of("provider")} (provider APIs); ${of("framework")} (agent frameworks)`;
}
