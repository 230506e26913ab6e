/**
 * The package as a user gets it (issue 22): `npm pack` of the built checkout, linted by
 * are-the-types-wrong and publint, installed into a fresh temporary project (its dependencies
 * come from the npm registry), then used from there: every code entry of the `exports` map is
 * imported and required (iterated, so a new entry point is covered without editing this test),
 * the CLI runs on a sample, runs the conformance fixtures it ships and generates code for Python,
 * Go and TypeScript (the last after installing its optional peers), and TypeScript compiles an
 * ES module and a CommonJS module that use the types, plus the generated code, and every entry
 * under node16, nodenext and bundler resolution with skipLibCheck off.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
  version: string;
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const devDependencies = pkg.devDependencies;
// 3 MB, raised by 150 kB for what this release added: agjson inspect (its server, command and
// page, ~56 kB), the pydantic-ai facet (~33 kB), and the loopback request guard and the bridge
// servers' caps (~17 kB); then by 100 kB for the generated fast accept of events (~95 kB minified,
// both postures; codegen/emit-fast-accept.ts); then by 50 kB for the accepts of the content-block
// carriers (tool.done and the others, ~60 kB, less the 16 kB of ajv-formats' table the validators
// no longer carry); then by 50 kB for re-input's requests typed as the provider SDKs' own shapes
// and its exact number texts, with the strict validators' extrasIn hint (together 23.4 kB), the
// samples docs/cli.md reads (4.6 kB) and the rooted strict per-family schemas (1.9 kB): 3,279,958 →
// 3,309,811 B measured with npm pack — README "The npm package".
const UNPACKED_BUDGET = 3_350_000;
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

let work = "";
let project = "";
let tarball = "";
let packed: { unpackedSize: number; files: { path: string; size: number }[] };

function run(cmd: string, args: string[], cwd = project, input?: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd,
    encoding: "utf8",
    input,
    maxBuffer: 64 << 20,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.status !== 0) throw new Error(`${what} exited ${r.status}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

const agjson = (...args: string[]) => run(join(project, "node_modules/.bin/agjson"), args);

beforeAll(() => {
  if (!existsSync(join(ROOT, "dist/esm/src/index.js"))) throw new Error("dist/ is missing: run `make build` first");
  work = mkdtempSync(join(tmpdir(), "agjson-smoke-"));
  // --ignore-scripts: dist/ is already built (make test builds first); pack what is there.
  const out = ok(run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", work], ROOT), "npm pack");
  const info = (JSON.parse(out) as { filename: string; unpackedSize: number; files: { path: string; size: number }[] }[])[0]!;
  tarball = join(work, info.filename);
  packed = info;
  project = join(work, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    JSON.stringify({ name: "agjson-smoke", version: "0.0.0", private: true, type: "module" }, null, 2),
  );
  ok(run("npm", ["install", ...NPM_FLAGS, tarball]), "npm install <agjson tarball>");
}, 300_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("the packed tarball", () => {
  it(`ships only dist/, the bin, the samples docs/cli.md reads, README, LICENSE and notices, under ${UNPACKED_BUDGET} bytes unpacked`, () => {
    const outside = packed.files
      .map((f) => f.path)
      .filter(
        (p) =>
          !p.startsWith("dist/") &&
          !p.startsWith("samples/") &&
          !["package.json", "README.md", "LICENSE", "THIRD-PARTY-NOTICES.md", "bin/agjson.js"].includes(p),
      );
    expect(outside).toEqual([]);
    expect(packed.files.filter((f) => f.path.endsWith(".map") || f.path.includes(".test."))).toEqual([]);
    console.log(`unpacked: ${packed.unpackedSize} bytes in ${packed.files.length} files`);
    expect(packed.unpackedSize).toBeLessThan(UNPACKED_BUDGET);
  });

  it("is clean for are-the-types-wrong (node16 CommonJS and ESM, bundler) and publint", () => {
    // The node16 profile: TypeScript's node10 resolution predates `exports` and cannot see subpaths.
    ok(run(join(ROOT, "node_modules/.bin/attw"), ["--profile", "node16", "--format", "table-flipped", tarball], ROOT), "attw");
    const lint = ok(run(join(ROOT, "node_modules/.bin/publint"), ["--strict", tarball], ROOT), "publint");
    expect(lint).toMatch(/All good/);
  });
});

describe("installed in a fresh project", () => {
  it("a command that needs a bridge's optional peer, run without it, exits 2 naming the install command (quoted for any shell)", () => {
    const events = join(project, "one-turn.ndjson");
    writeFileSync(events, `${JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" })}\n`);
    const convert = agjson("convert", "--to", "ag-ui", events);
    expect([convert.status, convert.stdout]).toEqual([2, ""]);
    expect(convert.stderr).toMatch(/--to ag-ui needs @ag-ui\/core and zod .*: npm install "@ag-ui\/core@\^1" zod \(/);
    const acp = run(join(project, "node_modules/.bin/agjson"), ["acp", "--replay", events], project, "");
    expect(acp.status).toBe(2);
    expect(acp.stderr).toMatch(/needs @agentclientprotocol\/sdk .*: npm install "@agentclientprotocol\/sdk@\^2\.4" \(/);
  });

  it("imports and requires every code entry of the exports map, with the same exports (the bridges' optional peers installed)", () => {
    // The bridges import their protocol's SDK types at run time (optional peers, like the
    // generator's tools): a user of ./bridges/ag-ui or ./bridges/acp installs them. Only those two,
    // so the gen --lang ts test below still starts without the generator's peers.
    const bridgePeers = ["@ag-ui/core", "@agentclientprotocol/sdk"].map((name) => `${name}@${pkg.peerDependencies[name]}`);
    ok(run("npm", ["install", ...NPM_FLAGS, "--save-dev", ...bridgePeers]), "npm install <bridge peers>");
    const script = `
      import { createRequire } from "node:module";
      const require = createRequire(import.meta.url);
      const { exports } = require("agjson/package.json");
      const out = {};
      for (const [key, target] of Object.entries(exports)) {
        if (typeof target !== "object" || !target.import) continue;
        const spec = "agjson" + key.slice(1);
        out[key] = { esm: Object.keys(await import(spec)).sort(), cjs: Object.keys(require(spec)).sort() };
      }
      console.log(JSON.stringify(out));`;
    writeFileSync(join(project, "entries.mjs"), script);
    const r = run(process.execPath, ["entries.mjs"]);
    const entries = JSON.parse(ok(r, "import/require of the entries")) as Record<string, { esm: string[]; cjs: string[] }>;
    expect(r.stderr).toBe("");
    const keys = Object.entries(pkg.exports)
      .filter(([, t]) => typeof t === "object")
      .map(([k]) => k);
    expect(Object.keys(entries).sort()).toEqual(keys.sort());
    for (const [key, e] of Object.entries(entries)) {
      expect(e.esm.length, key).toBeGreaterThan(0);
      expect(e.cjs, key).toEqual(e.esm);
    }
    const lenient = entries["./validate/lenient"]!.esm;
    expect(lenient).toEqual(expect.arrayContaining(["validateEvent", "validateInput", "validateMessage"]));
  }, 300_000);

  it("validates and folds with both module systems", () => {
    const event = JSON.stringify({ type: "turn.start", seq: 0, threadId: "th", turnId: "t1" });
    const esm = ok(
      run(process.execPath, [
        "--input-type=module",
        "-e",
        `
      import { validateEvent } from "agjson/validate/strict";
      import { reduce } from "agjson/reduce";
      const e = ${event};
      console.log(JSON.stringify({ ok: validateEvent(e).ok, unknownField: validateEvent({ ...e, x: 1 }).ok, turns: reduce([e]).result.turns.length }));`,
      ]),
      "ESM use",
    );
    const cjs = ok(
      run(process.execPath, [
        "-e",
        `
      const { validateEvent } = require("agjson/validate/lenient");
      const { reduce } = require("agjson");
      const e = ${event};
      console.log(JSON.stringify({ ok: validateEvent(e).ok, unknownField: validateEvent({ ...e, x: 1 }).ok, turns: reduce([e]).result.turns.length }));`,
      ]),
      "CJS use",
    );
    expect(JSON.parse(esm)).toEqual({ ok: true, unknownField: false, turns: 1 });
    expect(JSON.parse(cjs)).toEqual({ ok: true, unknownField: true, turns: 1 });
  });

  it("resolves the published schemas, both postures, bundled and per family", () => {
    const out = ok(
      run(process.execPath, [
        "-e",
        `
      const ids = [];
      for (const p of ["strict", "lenient"]) for (const f of ["agjson", "common", "block", "message", "event", "input", "reduce-result"]) ids.push(require("agjson/schema/" + p + "/" + f + ".schema.json").$id);
      console.log(JSON.stringify(ids));`,
      ]),
      "schema resolution",
    );
    const ids = JSON.parse(out) as string[];
    expect(ids).toHaveLength(14);
    expect(new Set(ids).size).toBe(14);
    expect(ids).toContain("https://silverprotocol.io/AgJSON/schema/1.0.0-draft.1/lenient/event.schema.json");
  });

  it("runs the CLI on the samples it ships, as docs/cli.md shows: --version, validate, reduce, normalize", () => {
    expect(ok(agjson("--version"), "agjson --version").trim()).toBe(pkg.version);
    const samples = "node_modules/agjson/samples";
    expect(ok(agjson("validate", "--posture", "strict", `${samples}/chat-with-tool.ndjson`), "agjson validate")).toMatch(
      /^23 event records: all valid \(strict\)$/m,
    );
    const folded = JSON.parse(ok(agjson("reduce", `${samples}/chat-with-tool.ndjson`), "agjson reduce")) as {
      result: { messages: unknown[] };
    };
    expect(folded.result.messages.length).toBeGreaterThan(0);
    const events = ok(agjson("normalize", "--from", "anthropic", `${samples}/anthropic-weather.chunks.txt`), "agjson normalize");
    expect(ok(run(join(project, "node_modules/.bin/agjson"), ["validate", "--posture", "strict"], project, events), "validate -")).toMatch(
      /^18 event records: all valid \(strict\)$/m,
    );
  });

  it("opens a recording in the inspector: the URL on stdout, the page, its bundle and the five regions' answers (docs/inspect.md)", async () => {
    cpSync(join(ROOT, "samples/anthropic-weather.chunks.txt"), join(project, "weather.txt"));
    const child = spawn(join(project, "node_modules/.bin/agjson"), ["inspect", "weather.txt", "--no-open"], { cwd: project });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = "";
        child.stdout!.on("data", (c: Buffer) => {
          out += c.toString("utf8");
          const m = /^(http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]+)$/m.exec(out);
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`agjson inspect exited ${code}`)));
      });
      const token = new URL(url).searchParams.get("token")!;
      const get = async (path: string) => {
        const res = await fetch(new URL(`${path}${path.includes("?") ? "&" : "?"}token=${token}`, url));
        expect(res.status, path).toBe(200);
        return res.text();
      };
      expect(await get("/")).toContain('<script type="module" src="/page.js');
      expect((await get("/page.js")).length).toBeGreaterThan(1000);
      expect((await get("/page.css")).length).toBeGreaterThan(100);
      expect(JSON.parse(await get("/api/docs"))).toEqual([expect.objectContaining({ source: "anthropic (normalized)" })]);
      expect(JSON.parse(await get("/api/docs/1/fold")).messagesTotal).toBeGreaterThan(0);
      expect(JSON.parse(await get("/api/docs/1/problems")).total).toBeGreaterThanOrEqual(0);
      expect(JSON.parse(await get("/api/docs/1/protocols")).protocols).toHaveLength(3);
      expect(JSON.parse(await get("/api/docs/1/next")).targets).toHaveLength(4);
    } finally {
      child.kill("SIGTERM");
    }
  });

  it("runs every conformance fixture it ships and says what it ran", () => {
    const out = ok(agjson("conformance"), "agjson conformance");
    expect(out).toMatch(/^validate\/: \d+ fixtures$/m);
    expect(out).toMatch(/^reduce\/: \d+ fixtures$/m);
    expect(out).toMatch(/^normalize\/: \d+ fixtures$/m);
    expect(out).not.toMatch(/skipped/);
    expect(out).toMatch(/^\d+ passed, 0 failed$/m);
  });

  it("generates Python and Go from the shipped schemas without the generator's peers", () => {
    ok(agjson("gen", "--lang", "python", "--out", "gen-py"), "gen --lang python");
    ok(agjson("gen", "--lang", "go", "--out", "gen-go"), "gen --lang go");
    expect(readFileSync(join(project, "gen-py/agjson_types.py"), "utf8")).toMatch(/def parse_event/);
    expect(existsSync(join(project, "gen-go/go.mod"))).toBe(true);
    for (const f of ["gen-py/agjson_types.py", "gen-go/go.mod"]) expect(readFileSync(join(project, f), "utf8")).toMatch(/agjson gen/);
  });

  it("generates TypeScript after installing the optional peers, with a clear message before", () => {
    const before = agjson("gen", "--lang", "ts", "--out", "gen-ts");
    expect(before.status).toBe(2);
    // The install line runs as a user pastes it into a shell: a range such as ">=0.25.0" left
    // unquoted there is a redirect (it would write a file named "=0.25.0" and drop the range).
    const line = /^Install them in your project: (npm install --save-dev .*)$/m.exec(before.stderr)?.[1];
    expect(line, before.stderr).toMatch(/ "ajv@[^"]+"/);
    const listed = readdirSync(project);
    ok(run("sh", ["-c", `${line} ${NPM_FLAGS.join(" ")}`]), "the printed npm install line");
    expect(readdirSync(project).filter((f) => !listed.includes(f))).toEqual([]);
    for (const name of ["ajv", "esbuild", "json-schema-to-typescript"])
      expect(existsSync(join(project, "node_modules", name, "package.json")), name).toBe(true);
    ok(agjson("gen", "--lang", "ts", "--out", "gen-ts"), "gen --lang ts");
    const out = ok(
      run(process.execPath, [
        "--input-type=module",
        "-e",
        `
      import { validateAgEvent } from "./gen-ts/validators/lenient.js";
      import { validateAgEvent as strict } from "./gen-ts/validators/strict.js";
      const e = { type: "turn.start", seq: 0, threadId: "th", turnId: "t1", extra: 1 };
      console.log(JSON.stringify([validateAgEvent(e), strict(e)]));`,
      ]),
      "generated validators",
    );
    expect(JSON.parse(out)).toEqual([true, false]);
  }, 300_000);

  it("compiles TypeScript that uses the types and imports every entry, skipLibCheck off: node16 and nodenext (ES module and CommonJS), bundler", () => {
    writeFileSync(
      join(project, "use.mts"),
      `
      import type { AgEvent, AgInput, Lenient } from "agjson";
      import { validateEvent } from "agjson/validate/lenient";
      import { reduce } from "agjson/reduce";
      import type { AgEvent as Generated, AgLenientEvent as GeneratedLenient } from "./gen-ts/types.js";
      import { validateAgEvent } from "./gen-ts/validators/lenient.js";
      const x: unknown = JSON.parse("{}");
      const r = validateEvent(x);
      // A lenient parse is typed leniently all the way down; a strict (producer) value is one too.
      if (r.ok && r.known) { const e: Lenient.AgKnownEvent | Lenient.AgExtEvent = r.event; console.log(reduce([e]).result.turns.length); }
      declare const produced: AgEvent;
      const g: Generated = produced;
      console.log(reduce([g]).result.turns.length);
      if (r.ok) console.log(reduce([r.event]).needsResync);
      if (validateAgEvent(x)) { const e: GeneratedLenient = x; console.log(e.type); }
      export const input: AgInput["kind"] = "start";
    `,
    );
    writeFileSync(
      join(project, "use.cts"),
      `
      import type { AgMessage } from "agjson";
      import { validateMessage } from "agjson/validate/strict";
      import { createNormalizer } from "agjson/normalize";
      const r = validateMessage({});
      if (r.ok) { const m: AgMessage = r.message; console.log(m.role); }
      console.log(typeof createNormalizer);
    `,
    );
    // Every code entry of the exports map (iterated, so a new one is covered), imported from an ES
    // module, a CommonJS module and a bundler-resolved module.
    const specs = Object.entries(pkg.exports)
      .filter(([, t]) => typeof t === "object")
      .map(([key]) => `agjson${key.slice(1)}`);
    const everyEntry =
      specs.map((spec, i) => `import * as entry${i} from "${spec}";`).join("\n") +
      `\nexport const entries = [${specs.map((_, i) => `entry${i}`).join(", ")}];\n`;
    for (const file of ["entries.mts", "entries.cts", "entries.ts"]) writeFileSync(join(project, file), everyEntry);
    // The node entries' declarations name Node's types (node:http), as a Node project has them.
    ok(run("npm", ["install", ...NPM_FLAGS, "--save-dev", `@types/node@${devDependencies["@types/node"]}`]), "npm install @types/node");
    // skipLibCheck off: the package's own declarations (and those of the peers they import) are
    // checked as a user's strict project checks them — an ESM-only peer imported from the CommonJS
    // declarations once failed here (TS1479, TS1541) while skipLibCheck hid it.
    const base = { target: "es2022", strict: true, noEmit: true, types: ["node"], skipLibCheck: false, allowJs: false };
    const configs: Record<string, { compilerOptions: object; files: string[] }> = {
      node16: {
        compilerOptions: { ...base, module: "node16", moduleResolution: "node16" },
        files: ["use.mts", "use.cts", "entries.mts", "entries.cts"],
      },
      nodenext: {
        compilerOptions: { ...base, module: "nodenext", moduleResolution: "nodenext" },
        files: ["use.mts", "use.cts", "entries.mts", "entries.cts"],
      },
      bundler: { compilerOptions: { ...base, module: "esnext", moduleResolution: "bundler" }, files: ["entries.ts"] },
    };
    for (const [name, config] of Object.entries(configs)) {
      writeFileSync(join(project, `tsconfig.${name}.json`), JSON.stringify(config));
      const tsc = run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", `tsconfig.${name}.json`]);
      // tsc prints nothing when every file compiles; on failure the diagnostics are the diff.
      expect({ config: name, status: tsc.status, output: tsc.stdout + tsc.stderr }).toEqual({ config: name, status: 0, output: "" });
    }
  }, 300_000);
});
