// `npm run check` (docs/architecture.md "Checks"): each of its steps fails on the problem it
// exists for. The planted problems live in a temporary folder, never in the repository.
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");
const biome = join(root, "node_modules", ".bin", "biome");

function plant(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "agjson-check-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

describe("npm run check", () => {
  it("runs format, lint, cycles, gen --check and types, each as its own step", () => {
    const scripts = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
    const steps = scripts.check!.split("&&").map((s) => s.trim().replace(/^npm run --silent /, ""));
    expect(steps).toEqual(["check:format", "check:lint", "check:cycles", "check:gen", "check:types"]);
    expect(scripts["check:gen"]).toContain("gen --check");
    expect(scripts["check:cycles"]).toContain("scripts/check-cycles.mjs");
  });

  it("check:cycles passes on this repository and names every module of a planted cycle", () => {
    const ok = spawnSync(process.execPath, [join(root, "scripts/check-cycles.mjs")], { cwd: root, encoding: "utf8" });
    expect(ok.stderr).toBe("");
    expect(ok.status).toBe(0);

    const dir = plant({
      "src/a.ts": 'import { b } from "./b.js";\nexport const a = () => b;\n',
      "src/b.ts": 'import type { C } from "./c.js";\nexport const b: C = 1;\n',
      "src/c.ts": 'import { a } from "./a.js";\nexport type C = number;\nexport const c = a;\n',
      "src/leaf.ts": 'import { a } from "./a.js";\nexport const leaf = a;\n',
    });
    const bad = spawnSync(process.execPath, [join(root, "scripts/check-cycles.mjs"), "--root", dir], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain("import cycle among 3 modules");
    for (const name of ["src/a.ts", "src/b.ts", "src/c.ts"]) expect(bad.stderr).toContain(name);
    // A type-only edge closes the cycle too; a module that only imports into it is not part of it.
    expect(bad.stderr).not.toMatch(/^ {2}src\/leaf\.ts/m);
  });

  it("check:format fails on a misformatted file with the repository's settings", () => {
    const dir = plant({ "bad.ts": "export const   x = {a:1,\nb:2}\n", "good.ts": "export const x = { a: 1, b: 2 };\n" });
    const bad = spawnSync(biome, ["format", `--config-path=${root}`, join(dir, "bad.ts")], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stdout + bad.stderr).toContain("Formatter would have printed");
    expect(() => execFileSync(biome, ["format", `--config-path=${root}`, join(dir, "good.ts")], { stdio: "pipe" })).not.toThrow();
  });

  it("check:lint fails on an unused import", () => {
    const dir = plant({ "lint.ts": 'import { join } from "node:path";\n\nexport const x = 1;\n' });
    const bad = spawnSync(biome, ["lint", "--error-on-warnings", `--config-path=${root}`, join(dir, "lint.ts")], { encoding: "utf8" });
    expect(bad.status).toBe(1);
    expect(bad.stdout + bad.stderr).toContain("noUnusedImports");
  });

  // check:gen on a stale generated file: codegen/gen.test.ts ("--check names a stale file …")
  // plants one in a copy of the repository and runs the same runGen({ check: true }).
});
