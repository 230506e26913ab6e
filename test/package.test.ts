/**
 * The published surface: the package's `exports` resolve to built files that load without a Node
 * built-in in the main entry (it is meant for browsers too), the CLI's bin runs from a checkout,
 * and the bundled schemas are where `agjson/schema/<family>.schema.json` points.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as { exports: Record<string, unknown>; bin: Record<string, string> };

function node(code: string): string {
  return execFileSync(process.execPath, ["--input-type=module", "-e", code], { cwd: root, encoding: "utf8" });
}

describe("package surface", () => {
  it("is built (make test and npm ci build dist/ first)", () => {
    expect(existsSync(`${root}/dist/src/index.js`), "dist/ is missing: run `npm run build`").toBe(true);
  });

  it("resolves every exports entry to a file", () => {
    for (const [key, target] of Object.entries(pkg.exports)) {
      if (key.includes("*")) continue;
      const files = typeof target === "string" ? [target] : Object.values(target as Record<string, string>);
      for (const f of files) expect(existsSync(`${root}/${f}`), `${key} → ${f}`).toBe(true);
    }
    for (const family of ["common", "block", "message", "event", "input", "reduce-result"]) {
      expect(existsSync(`${root}/generated/schema/${family}.schema.json`), family).toBe(true);
    }
  });

  it("loads the main entry by package name, with validation and reduce working", () => {
    const out = node(`
      import { validateEvent, reduce, KNOWN_EVENT_TYPES } from "agjson";
      const e = { type: "turn.start", seq: 0, threadId: "th", turnId: "t1" };
      const v = validateEvent(e, { posture: "strict" });
      const r = reduce([e]);
      console.log(JSON.stringify({ ok: v.ok, known: KNOWN_EVENT_TYPES.length, turns: r.result.turns.length }));
    `);
    expect(JSON.parse(out)).toEqual({ ok: true, known: 50, turns: 1 });
  });

  it("keeps Node built-ins out of the main entry's module graph (it bundles for a browser)", async () => {
    const { build } = await import("esbuild");
    const result = await build({ entryPoints: [`${root}/dist/src/index.js`], bundle: true, platform: "browser", format: "esm", write: false, logLevel: "silent" });
    expect(result.errors).toEqual([]);
    const size = result.outputFiles[0]!.contents.length;
    expect(size).toBeGreaterThan(10_000);
  });

  it("runs the CLI bin", () => {
    const out = execFileSync(process.execPath, [`${root}/${pkg.bin.agjson}`, "--help"], { encoding: "utf8" });
    expect(out).toMatch(/validate/);
    expect(out).toMatch(/reduce/);
  });
});
