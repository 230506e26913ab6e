/**
 * The recorded provider-stream corpus (`fixtures/providers/`, copied from the Vercel AI SDK with its
 * Apache-2.0 notice in fixtures/providers/README.md)
 * and which facet normalizes each family. Families with no facet of their own are listed with the
 * reason; they still run through the nearest facet to prove graceful degradation (§8.0).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { FacetName } from "./index.js";
import { readNativeChunks } from "./index.js";

/** Where the corpus lives relative to this repository (overridable for other checkouts). */
export const PROVIDER_FIXTURES_DIR =
  process.env.AGJSON_PROVIDER_FIXTURES ?? join(dirname(fileURLToPath(import.meta.url)), "../../fixtures/providers");

/** A family the package has no facet for: the facet it degrades through and why it is a gap. */
export interface FixtureGap {
  facet: FacetName;
  reason: string;
}

/** Families without a dedicated facet (a committed list of known gaps, each with its reason, so none is skipped silently); none today. */
export const FAMILY_GAPS: Record<string, FixtureGap> = {};

/** The facet that normalizes a corpus file, by family folder (xAI mixes Chat and Responses). */
export function facetFor(file: string): FacetName {
  const family = file.split("/")[0] ?? "";
  if (family in FAMILY_GAPS) return FAMILY_GAPS[family]!.facet;
  switch (family) {
    case "anthropic":
      return "anthropic";
    case "openai-responses":
    case "open-responses":
      return "openai-responses";
    case "google":
      return "gemini";
    case "google-interactions":
      return "gemini-interactions";
    case "amazon-bedrock":
      return "bedrock";
    case "cohere":
      return "cohere";
    case "xai":
      return file.endsWith("xai-text.chunks.txt") ? "openai-chat" : "openai-responses";
    default:
      return "openai-chat";
  }
}

/** One corpus file, read and split into native chunks. */
export interface FixtureFile {
  file: string;
  family: string;
  facet: FacetName;
  gap?: FixtureGap;
  chunks: unknown[];
}

/** Every corpus file except the README, sorted; empty when the corpus is not checked out. */
export function listFixtureFiles(): string[] {
  if (!existsSync(PROVIDER_FIXTURES_DIR)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name !== "README.md") out.push(relative(PROVIDER_FIXTURES_DIR, path));
    }
  };
  walk(PROVIDER_FIXTURES_DIR);
  return out.sort();
}

/** Loads one corpus file. */
export function loadFixture(file: string): FixtureFile {
  const family = file.split("/")[0] ?? "";
  const chunks = readNativeChunks(readFileSync(join(PROVIDER_FIXTURES_DIR, file), "utf8"));
  const gap = FAMILY_GAPS[family];
  return { file, family, facet: facetFor(file), ...(gap ? { gap } : {}), chunks };
}
