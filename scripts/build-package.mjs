#!/usr/bin/env node
// Builds dist/, the code the package ships, from the `exports` map of package.json:
//
//   dist/esm/…  every module an `exports` entry or the CLI reaches, ES modules, minified; each
//               entry's .d.ts re-exports the CommonJS one;
//   dist/cjs/…  one CommonJS module per `exports` entry (package.json `"type": "commonjs"` in
//               that folder) that loads the ES entry through require(esm), and the .d.ts of every
//               module the entries' declarations reach.
//
// Entries come from package.json alone: a new entry point is one line there,
//   "./reinput": { "import": "./dist/esm/src/reinput/index.js", "require": "./dist/cjs/src/reinput/index.js" },
// and nothing else. The modules reached are found by esbuild (its metafile of a throw-away bundle),
// so dist/ holds exactly what the entries and the CLI import, nothing the tests or tools use.
//
// CommonJS is not a second copy of the library: the ES modules are loaded by Node's require(esm)
// (Node >= 20.19, 22.12; `engines`), which keeps the package small (a transformed copy measured
// 0.54 MB) and gives `import` and `require` the same module instances.
//
// Source maps are not shipped (the package carries no sources for them to point at); the readable
// code is in the repository.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, posix, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, transform } from "esbuild";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAGE = join(ROOT, ".build/tsc");
const DIST = join(ROOT, "dist");
/** The bin's module (bin/agjson.js imports it); ESM only. */
const CLI_ENTRY = "src/cli/main.js";
const VALIDATORS = "generated/validators/";

/** `exports` entries that point at code: subpath → module path relative to dist/esm and dist/cjs. */
export function codeEntries(pkg) {
  const out = new Map();
  for (const [key, target] of Object.entries(pkg.exports)) {
    if (typeof target !== "object" || target === null) continue;
    const esm = /^\.\/dist\/esm\/(.+\.js)$/.exec(target.import ?? "");
    const cjs = /^\.\/dist\/cjs\/(.+\.js)$/.exec(target.require ?? "");
    if (!esm && !cjs) continue;
    if (!esm || !cjs || esm[1] !== cjs[1] || Object.keys(target).some((c) => c !== "import" && c !== "require")) {
      throw new Error(
        `package.json exports["${key}"]: write it as { "import": "./dist/esm/<path>.js", "require": "./dist/cjs/<path>.js" } (same <path>; types are the .d.ts beside each)`,
      );
    }
    out.set(key, esm[1]);
  }
  return out;
}

function stage() {
  rmSync(STAGE, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", join(ROOT, "tsconfig.build.json"), "--outDir", STAGE, "--sourceMap", "false"],
    { stdio: "inherit" },
  );
  // tsc does not copy the generated validators (plain .js with .d.ts beside them).
  for (const name of readdirSync(join(ROOT, VALIDATORS))) cpSync(join(ROOT, VALIDATORS, name), join(STAGE, VALIDATORS, name));
}

/** Modules (paths relative to STAGE) that `entries` import, statically or dynamically. */
async function reached(entries) {
  const result = await build({
    entryPoints: entries.map((e) => join(STAGE, e)),
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    packages: "external",
    outdir: join(ROOT, ".build/closure"),
    write: false,
    metafile: true,
    logLevel: "error",
  });
  return Object.keys(result.metafile.inputs)
    .map((p) => relative(STAGE, resolve(ROOT, p)).split("\\").join("/"))
    .sort();
}

/** Declaration files the modules' declarations reach (type-only imports have no JS to follow). */
function declarations(modules) {
  const seen = new Set();
  const queue = modules.map((m) => m.replace(/\.js$/, ".d.ts"));
  while (queue.length) {
    const d = queue.pop();
    if (seen.has(d) || !existsSync(join(STAGE, d))) continue;
    seen.add(d);
    const text = readFileSync(join(STAGE, d), "utf8");
    for (const m of text.matchAll(/(?:from\s+|import\s*\(\s*)["'](\.{1,2}\/[^"']+)\.js["']/g)) {
      queue.push(posix.normalize(posix.join(posix.dirname(d), `${m[1]}.d.ts`)));
    }
  }
  return [...seen].sort();
}

function write(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

async function emit(file) {
  const source = readFileSync(join(STAGE, file), "utf8");
  // Whitespace and names only: esbuild's syntax minification rewrites the generated validators
  // into a form a consumer's bundler compresses worse (the lenient event bundle measured 31.5 KB
  // min+gz from it, 29.4 KB without), for 3% fewer bytes here. No `format`: esbuild then leaves
  // module-level names as written, so an exported class keeps its name (`err.constructor.name`,
  // stack traces: `ReinputError`, not `c`) at no measurable size (the tarball is 0.4% smaller packed).
  const out = await transform(source, {
    minifyWhitespace: true,
    minifyIdentifiers: true,
    target: "node20",
    sourcefile: file,
    logLevel: "error",
  });
  write(join(DIST, "esm", file), out.code);
}

/**
 * The inspector's page (docs/inspect.md): one script and one style sheet, bundled for a browser and
 * minified, served by src/inspect/server.ts from dist/inspect/. The page imports no library code
 * (test/architecture.test.ts), so this bundle is the page alone.
 */
export async function buildInspectorPage(outdir = join(DIST, "inspect")) {
  await build({
    entryPoints: { page: join(ROOT, "src/inspect/page/main.ts"), "page-style": join(ROOT, "src/inspect/page/page.css") },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    outdir,
    entryNames: "[name]",
    write: true,
    logLevel: "error",
    legalComments: "none",
  });
  // One name per asset (the server serves /page.js and /page.css).
  renameSync(join(outdir, "page-style.css"), join(outdir, "page.css"));
}

async function main() {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const entries = codeEntries(pkg);
  stage();
  const library = await reached([...entries.values()]);
  const all = [...new Set([...library, ...(await reached([CLI_ENTRY]))])].sort();
  rmSync(DIST, { recursive: true, force: true });
  for (const file of all) await emit(file);
  // Each `require` entry loads its ES module through Node's require(esm) (Node >= 20.19, 22.12,
  // which `engines` already asks for): the library ships once, and `import` and `require` share
  // one instance of each module (no dual-package hazard).
  for (const file of entries.values()) {
    const esm = posix.relative(posix.dirname(`cjs/${file}`), `esm/${file}`);
    write(
      join(DIST, "cjs", file),
      `"use strict";\n// The library ships once, as ES modules (dist/esm); Node's require(esm) loads them.\nmodule.exports = require("${esm.startsWith(".") ? esm : `./${esm}`}");\n`,
    );
  }
  // Declarations ship once, under dist/cjs (read as CommonJS declarations there): the exports
  // entries' and every one they reach; the CLI and its generator are not imported by users. Each
  // ES entry's .d.ts re-exports its CommonJS twin — an ES module may import CommonJS declarations
  // under every moduleResolution (node16, nodenext, bundler), while the reverse fails under node16
  // (TS1479). A second full copy measured 0.44 MB of the 3 MB budget.
  for (const d of declarations(library)) cpSync(join(STAGE, d), join(DIST, "cjs", d));
  for (const file of entries.values()) {
    const d = file.replace(/\.js$/, ".d.ts");
    const cjs = posix.relative(posix.dirname(`esm/${d}`), `cjs/${file}`);
    write(
      join(DIST, "esm", d),
      `// The declarations ship once, beside the CommonJS entries (scripts/build-package.mjs).\nexport * from "${cjs.startsWith(".") ? cjs : `./${cjs}`}";\n`,
    );
  }
  write(join(DIST, "cjs/package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
  await buildInspectorPage();
  // The published JSON Schemas, both postures (§0.2, §12), without the indentation the repository
  // keeps for review: generated/schema/strict/ (the canonical schema/ files, rooted, and their
  // bundle) and generated/schema/lenient/ (docs/codegen.md).
  const schemas = [
    ...["strict", "lenient"].flatMap((p) =>
      readdirSync(join(ROOT, "generated/schema", p)).map((f) => [`generated/schema/${p}/${f}`, `${p}/${f}`]),
    ),
  ];
  for (const [from, to] of schemas) {
    if (from.endsWith(".schema.json"))
      write(join(DIST, "schema", to), `${JSON.stringify(JSON.parse(readFileSync(join(ROOT, from), "utf8")))}\n`);
  }
  // Every conformance fixture, for `agjson conformance` run from the package (fixture-archive.ts).
  const { packFixtures } = await import(pathToFileURL(join(STAGE, "conformance/fixture-archive.js")).href);
  write(join(DIST, "conformance-fixtures.json.br"), packFixtures(ROOT));
  rmSync(join(ROOT, ".build"), { recursive: true, force: true });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
