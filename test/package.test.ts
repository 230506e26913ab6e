/**
 * The built package surface (issue 22), from the checkout: every code entry of `exports` has its
 * ES module, CommonJS module and declarations in dist/, the main entry bundles for a browser
 * (no Node built-in in its graph), the CLI's bin runs, the published schemas are the repository's
 * files, and a consumer of lenient event validation alone pays at most 36.5 KiB min+gz. The tarball
 * as a user installs it is test/package-smoke.test.ts.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}/package.json`, "utf8")) as {
  version: string;
  exports: Record<string, unknown>;
  bin: Record<string, string>;
};
/**
 * The lenient-only budget, in bytes of minified, gzipped (level 9) browser bundle: 30 KiB, raised
 * by 512 B for the one-pass hostile-object check and the `ext.*` guard an exhaustive switch needs
 * (`isExtEvent`), measured at 31,124 B; then to 36.5 KiB for the generated fast accept of every
 * event type that carries no content block (codegen/emit-fast-accept.ts), measured at 36,802 B:
 * it takes `validateEvent(JSON.parse(line))` from 1.43× to about 1.30× of `JSON.parse` alone
 * (`make bench`). Testing each field inline, D32's view of hidden reads and counting the named
 * keys `for…in` finds made it 36,912 B. The validators' own `date-time` function in place of
 * ajv-formats' table (which a bundler cannot drop) took 2.4 KB out, 34,527 B; the fast accepts of
 * the content-block carriers (tool.done and the others, about 0.03 of validate/JSON.parse) put
 * 2.5 KB back, 36,985 B; field reads written `v.name` and turned-around tests, 36,977 B.
 */
const LENIENT_EVENT_BUDGET = 36 * 1024 + 512;

function codeEntries(): [string, string][] {
  return Object.entries(pkg.exports).flatMap(([key, t]) => {
    if (typeof t !== "object" || t === null) return [];
    const m = /^\.\/dist\/esm\/(.+)\.js$/.exec((t as { import?: string }).import ?? "");
    return m ? [[key, m[1]!] as [string, string]] : [];
  });
}

/** `source` bundled and minified for a browser, as a consumer's bundler would (`external`: peers the consumer brings). */
async function browserBundle(source: string, external: string[] = []): Promise<Uint8Array> {
  const { build } = await import("esbuild");
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: "js" },
    bundle: true,
    minify: true,
    platform: "browser",
    format: "esm",
    write: false,
    logLevel: "silent",
    external,
  });
  return result.outputFiles[0]!.contents;
}

async function bundleSize(source: string): Promise<{ min: number; gz: number }> {
  const code = await browserBundle(source);
  return { min: code.length, gz: gzipSync(code, { level: 9 }).length };
}

describe("package surface (built dist/)", () => {
  it("is built (make test and npm ci build dist/ first)", () => {
    expect(existsSync(`${root}/dist/esm/src/index.js`), "dist/ is missing: run `npm run build`").toBe(true);
  });

  it("has, for every code entry of exports, the ES module, the CommonJS module and their declarations", () => {
    const entries = codeEntries();
    expect(entries.map(([k]) => k)).toEqual(
      expect.arrayContaining([".", "./validate", "./validate/lenient", "./validate/strict", "./reduce", "./normalize", "./gateway"]),
    );
    for (const [key, path] of entries) {
      for (const f of [`esm/${path}.js`, `esm/${path}.d.ts`, `cjs/${path}.js`, `cjs/${path}.d.ts`])
        expect(existsSync(join(root, "dist", f)), `${key} → dist/${f}`).toBe(true);
    }
    expect(JSON.parse(readFileSync(join(root, "dist/cjs/package.json"), "utf8"))).toEqual({ type: "commonjs" });
  });

  it("ships no source maps and each posture's validators once (the CommonJS build loads the ES ones)", () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) e.isDirectory() ? walk(join(dir, e.name)) : files.push(join(dir, e.name));
    };
    walk(join(root, "dist"));
    expect(files.filter((f) => f.endsWith(".map"))).toEqual([]);
    const validators = files.filter((f) => /validators\/[^/]+\.js$/.test(f));
    const big = validators.filter((f) => readFileSync(f).length > 10_000).map((f) => f.slice(root.length));
    expect(big.sort()).toEqual(["dist/esm/generated/validators/lenient.js", "dist/esm/generated/validators/strict.js"]);
  });

  it("publishes the repository's schemas: generated/schema, both postures; strict's per-family files are schema/'s, rooted", () => {
    const read = (path: string) => JSON.parse(readFileSync(join(root, path), "utf8")) as Record<string, unknown>;
    for (const posture of ["strict", "lenient"])
      for (const f of readdirSync(join(root, "generated/schema", posture)))
        expect(read(`dist/schema/${posture}/${f}`), `${posture}/${f}`).toEqual(read(`generated/schema/${posture}/${f}`));
    for (const f of readdirSync(join(root, "schema"))) {
      const { $comment, $ref, ...canonical } = read(`dist/schema/strict/${f}`);
      expect(canonical, f).toEqual(read(`schema/${f}`));
      // Validated at its root, a family file checks the family's type; only common has none.
      expect($ref, f).toEqual(f === "common.schema.json" ? undefined : expect.stringMatching(/^#\/\$defs\/Ag\w+$/));
    }
  });

  it("keeps Node built-ins out of the main entry's module graph (it bundles for a browser)", async () => {
    const { min } = await bundleSize(`export * from "./dist/esm/src/index.js";`);
    expect(min).toBeGreaterThan(10_000);
  });

  it("every entry but the servers' bundles for a browser with no Node global left in it (Buffer, process, require)", async () => {
    // esbuild resolves no `node:` import for the browser (the build fails) but leaves a free
    // `Buffer` as it is: it would be a ReferenceError on the first call that reaches it.
    const nodeOnly = new Set(["./gateway", "./bridges/ag-ui", "./bridges/acp"]);
    const checked: string[] = [];
    for (const [key, module] of codeEntries()) {
      if (nodeOnly.has(key)) continue;
      const bundle = await browserBundle(`export * from "./dist/esm/${module}.js";`, ["@ag-ui/*", "zod"]);
      // A feature test (`typeof Buffer == "function" ? Buffer : undefined`) is how a module uses
      // Node's global only where it exists.
      const code = new TextDecoder().decode(bundle).replace(/typeof (\w+)=="function"\?\1:/g, "");
      const free = [...code.matchAll(/(?<![\w$.])(Buffer|process|require|__dirname)(?![\w$])/g)].map((m) => `${key}: ${m[1]}`);
      expect(free).toEqual([]);
      checked.push(key);
    }
    expect(checked).toEqual(expect.arrayContaining([".", "./reinput", "./reduce", "./normalize", "./bridges/ui-message-stream"]));
  });

  it("keeps the name of every exported class (err.constructor.name and stack traces read ReinputError, not a minified letter)", async () => {
    const renamed: string[] = [];
    for (const [key, module] of codeEntries()) {
      const mod = (await import(join(root, "dist/esm", `${module}.js`))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod))
        if (typeof value === "function" && /^class\b/.test(Function.prototype.toString.call(value)) && value.name !== name)
          renamed.push(`${key} ${name}: ${value.name}`);
    }
    expect(renamed).toEqual([]);
  });

  it(`costs a consumer of lenient event validation alone at most ${LENIENT_EVENT_BUDGET} bytes min+gz`, async () => {
    const lenient = await bundleSize(`import { validateEvent } from "./dist/esm/src/validate/lenient.js"; console.log(validateEvent({}));`);
    const both = await bundleSize(`import { validateEvent } from "./dist/esm/src/validate/index.js"; console.log(validateEvent({}));`);
    // Printed so that make test shows the figures the README quotes.
    console.log(`lenient event validation alone: ${lenient.min} B min, ${lenient.gz} B min+gz; both postures: ${both.gz} B min+gz`);
    expect(lenient.gz).toBeLessThanOrEqual(LENIENT_EVENT_BUDGET);
    expect(both.gz).toBeGreaterThan(lenient.gz);
  });

  it("runs the CLI bin: --help and --version", () => {
    const run = (...args: string[]) => execFileSync(process.execPath, [`${root}/${pkg.bin.agjson}`, ...args], { encoding: "utf8" });
    expect(run("--help")).toMatch(/validate[\s\S]*reduce/);
    expect(run("--version").trim()).toBe(pkg.version);
  });
});
