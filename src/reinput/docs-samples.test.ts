/**
 * The re-input samples users copy (docs/reinput.md, the re-input section of docs/api.md) compile
 * as written against the official SDKs at the devDependency versions, under the options a user's
 * project has: `--strict --module node16 --moduleResolution node16 --skipLibCheck false`. The
 * samples are read from the markdown on every run, so a doc edit cannot drift from what is
 * checked. `agjson` and its subpaths resolve to this tree's sources (`paths`), so no build is
 * needed and the check sees the same request types the published .d.ts declares.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));

interface Sample {
  /** Where the fence opens, as `file:line`. */
  at: string;
  code: string;
}

/** The ```ts fences of `text` (of `file`), keeping where each starts. */
function tsFences(file: string, text: string, from = 0, to = text.length): Sample[] {
  const samples: Sample[] = [];
  const lines = text.slice(0, to).split("\n");
  const firstLine = text.slice(0, from).split("\n").length - 1;
  for (let i = firstLine; i < lines.length; i++) {
    if (lines[i]?.trim() !== "```ts") continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    expect(end, `${file}:${i + 1}: unclosed fence`).toBeGreaterThan(i);
    samples.push({ at: `${file}:${i + 1}`, code: lines.slice(i + 1, end).join("\n") });
    i = end;
  }
  return samples;
}

function reinputSamples(): Sample[] {
  const reinput = readFileSync(join(root, "docs/reinput.md"), "utf8");
  const api = readFileSync(join(root, "docs/api.md"), "utf8");
  // docs/api.md: the "## Re-input" section only (the other sections' samples are not re-input's).
  const start = api.indexOf("\n## Re-input");
  const next = api.indexOf("\n## ", start + 1);
  expect(start).toBeGreaterThan(0);
  return [...tsFences("docs/reinput.md", reinput), ...tsFences("docs/api.md", api, start, next < 0 ? api.length : next)];
}

/** Each agjson entry point a sample may import, mapped to its source (package.json `exports`). */
function agjsonPaths(): Record<string, string[]> {
  const pkg: { exports: Record<string, unknown> } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const paths: Record<string, string[]> = {};
  for (const [sub, target] of Object.entries(pkg.exports)) {
    const esm = typeof target === "object" && target !== null && "import" in target ? target.import : undefined;
    if (typeof esm !== "string") continue;
    const source = esm.replace(/^\.\/dist\/esm\//, "").replace(/\.js$/, ".ts");
    paths[sub === "." ? "agjson" : `agjson/${sub.slice(2)}`] = [join(root, source)];
  }
  return paths;
}

describe("the re-input samples of the docs compile against the official SDKs", () => {
  // One program over the SDKs' declarations, checked whole (skipLibCheck false): ~25 s alone.
  it("every ```ts sample of docs/reinput.md and docs/api.md's re-input section, as written, with no cast", { timeout: 180_000 }, () => {
    const samples = reinputSamples();
    // The top sample, the SDK section's (every target) and docs/api.md's at least: a fence renamed
    // away from `ts` must not silently leave the check.
    expect(samples.length).toBeGreaterThanOrEqual(5);
    for (const s of samples) {
      // A cast would make anything compile: outside imports (`import * as`) and comments, no `as T`.
      const code = s.code.replace(/^import .*$/gm, "").replace(/\/\/.*$/gm, "");
      expect(code, `${s.at}: a sample casts`).not.toMatch(/\bas\s+(?!const\b)[A-Za-z{[(]/);
    }
    const dir = join(root, ".tmp", "docs-samples");
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const files = samples.map((s, i) => {
      const file = join(dir, `sample-${i}.ts`);
      // `export {}` keeps every sample a module (top-level await) even when it imports nothing.
      writeFileSync(file, `${s.code}\nexport {};\n`);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: false,
      types: ["node"],
      paths: agjsonPaths(),
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const file = d.file?.fileName ?? "";
      const index = files.indexOf(file);
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const at = index >= 0 ? `${samples[index]?.at} (+${line + 1})` : `${relative(root, file)}:${line + 1}`;
      return `${at}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics).toEqual([]);
  });
});
