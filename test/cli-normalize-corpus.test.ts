/**
 * `agjson normalize --from <facet>` as a user runs it (the built bin, a real process) on every
 * recording the repository holds for each facet: the framework recordings (record/recordings/<facet>/),
 * the provider corpus (fixtures/providers/, each file with the facet of its family), the AG-UI
 * recordings (fixtures/agui/), the native streams of the normalize conformance fixtures
 * (conformance/normalize/<facet>/, inline ones written out as a JSON array of chunks) and samples/.
 * Each, with its own `--from`, exits 0 and writes nothing to stderr: the wrong-`--from` hint reads
 * every facet's marks from FACET_TABLE, so no facet's own stream looks like another's (§8.0).
 * Every facet has at least one recording here.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { FACETS, isFacetName, type FacetName } from "../src/normalize/index.js";
import { facetFor } from "../src/normalize/fixture-corpus.test-support.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const bin = join(root, "bin/agjson.js");
const scratch = mkdtempSync(join(tmpdir(), "agjson-normalize-corpus-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function filesUnder(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    });
}

interface Case {
  facet: FacetName;
  /** The file the CLI reads. */
  file: string;
  /** What the case is, for the test name. */
  name: string;
}

function corpus(): Case[] {
  const cases: Case[] = [];
  const seen = new Set<string>();
  const add = (facet: FacetName, file: string, name = relative(root, file)) => {
    if (seen.has(file)) return;
    seen.add(file);
    cases.push({ facet, file, name });
  };
  const recordings = join(root, "record/recordings");
  for (const facet of readdirSync(recordings).sort()) {
    if (!isFacetName(facet)) throw new Error(`record/recordings/${facet}: no facet of that name`);
    for (const f of filesUnder(join(recordings, facet)).filter((f) => f.endsWith(".native.ndjson"))) add(facet, f);
  }
  const providers = join(root, "fixtures/providers");
  // The one `.json` file is an HTTP error body, not a stream.
  for (const f of filesUnder(providers).filter((f) => !f.endsWith("README.md") && !f.endsWith(".json")))
    add(facetFor(relative(providers, f)), f);
  for (const f of filesUnder(join(root, "fixtures/agui")).filter((f) => f.endsWith(".json"))) add("ag-ui", f);
  const conformance = join(root, "conformance/normalize");
  for (const f of filesUnder(conformance).filter((f) => f.endsWith(".json"))) {
    const fixture = JSON.parse(readFileSync(f, "utf8")) as { facet: FacetName; native?: unknown[]; nativeFile?: string };
    if (fixture.nativeFile !== undefined)
      add(fixture.facet, join(root, fixture.nativeFile), `${relative(root, f)} (${fixture.nativeFile})`);
    else {
      const file = join(scratch, relative(conformance, f).replace(/[/\\]/g, "__"));
      writeFileSync(file, JSON.stringify(fixture.native));
      add(fixture.facet, file, `${relative(root, f)} (inline native, as a JSON array)`);
    }
  }
  add("anthropic", join(root, "samples/anthropic-weather.chunks.txt"));
  return cases;
}

function normalizeWithCli(facet: FacetName, file: string): Promise<{ code: number; err: string; lines: number }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [bin, "normalize", "--from", facet, file],
      { cwd: root, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, err: stderr, lines: stdout.split("\n").filter((l) => l !== "").length });
      },
    );
  });
}

const cases = corpus();

describe("agjson normalize --from <own facet> on every committed recording", () => {
  it("every facet has a recording", () => {
    expect(FACETS.filter((f) => !cases.some((c) => c.facet === f))).toEqual([]);
  });

  for (const c of cases) {
    it.concurrent(`${c.facet}: ${c.name}`, { timeout: 120_000 }, async () => {
      const r = await normalizeWithCli(c.facet, c.file);
      expect(r.err).toBe("");
      expect(r.code).toBe(0);
      expect(r.lines).toBeGreaterThan(0);
    });
  }
});

describe("the wrong --from names the facet the input looks like, for every facet (FACET_TABLE marks)", () => {
  for (const facet of FACETS) {
    const first = cases.find((c) => c.facet === facet && !c.file.startsWith(scratch));
    if (first === undefined) continue;
    const wrong: FacetName = facet === "cohere" ? "anthropic" : "cohere";
    it.concurrent(`${facet} (${first.name}) read --from ${wrong}`, { timeout: 120_000 }, async () => {
      const r = await normalizeWithCli(wrong, first.file);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`no chunk of the input looks like ${wrong}; it looks like ${facet} (try --from ${facet})`);
    });
  }
});
