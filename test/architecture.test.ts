// The module layers of docs/architecture.md, checked: every relative import of a shipped module in
// src/ (tests and test support aside) stays inside what its room may import. A new edge that
// breaks the one-way flow fails here with the file and the import, instead of surfacing later as a
// cycle or as the CLI pulling the generator into every command.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(import.meta.dirname, "..");

/**
 * The package's public entry points as source files: each code entry of `exports` in package.json
 * (`./dist/esm/src/wire/index.js` → `src/wire/index.ts`). The CLI is a user of the library like any
 * other and reaches it only through these (#21 item 4).
 */
const ENTRY_POINTS: readonly string[] = Object.values(
  (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports,
).flatMap((target) => {
  const esm: unknown = typeof target === "object" && target !== null ? Reflect.get(target, "import") : undefined;
  return typeof esm === "string" && esm.startsWith("./dist/esm/") ? [esm.slice("./dist/esm/".length).replace(/\.js$/, ".ts")] : [];
});

/** What each room may import, as repository-relative path prefixes (docs/architecture.md "The rooms"). */
const MAY_IMPORT: Record<string, readonly string[]> = {
  // The one JSON guard every room shares (isRecord); it imports nothing.
  "src/json-guards.ts": [],
  "src/wire": ["src/wire/", "src/json-guards.ts"],
  "src/validate": ["src/validate/", "generated/", "src/json-guards.ts"],
  "src/reduce": ["src/reduce/", "generated/", "src/validate/", "src/json-guards.ts"],
  // Opaque values keep their number texts (§13.2) through the one module that reads and writes
  // them; the rest of the wire module (the framers) stays out of the re-input bundle.
  "src/reinput": ["src/reinput/", "generated/", "src/wire/exact-numbers.ts", "src/json-guards.ts"],
  "src/gateway": ["src/gateway/", "generated/", "src/validate/", "src/wire/", "src/json-guards.ts"],
  // The one sideways edge: the ag-ui facet reads AG-UI content and messages with the converters the
  // bridge writes them with, so the two directions cannot drift.
  "src/normalize": [
    "src/normalize/",
    "generated/",
    "src/validate/",
    "src/reduce/",
    "src/wire/",
    "src/bridges/ag-ui/content.ts",
    "src/bridges/ag-ui/messages.ts",
    "src/bridges/ag-ui/carry.ts",
    "src/bridges/ag-ui/vocabulary.ts",
    "src/json-guards.ts",
  ],
  "src/bridges": [
    "src/bridges/",
    "generated/",
    "src/validate/",
    "src/reduce/",
    "src/wire/",
    "src/normalize/",
    "src/reinput/",
    "src/gateway/",
    "src/json-guards.ts",
  ],
  // The commands use the library through its public entry points only, and the generated types.
  "src/cli": ["src/cli/", ...ENTRY_POINTS, "generated/types.ts", "src/inspect/protocol.ts", "src/json-guards.ts"],
  // The inspector's page runs in a browser: it renders what the server sends (the shapes in
  // protocol.ts) and ships none of the library a second time.
  "src/inspect/page": ["src/inspect/page/", "src/inspect/protocol.ts", "src/json-guards.ts"],
  // The inspector's server computes with the library as the CLI does: its public entry points.
  "src/inspect": ["src/inspect/", ...ENTRY_POINTS, "generated/types.ts", "src/json-guards.ts"],
  "src/index.ts": ["src/", "generated/"],
};

/** Imports only reached through `import()` inside one command, never at module level. */
const LAZY_ONLY: Record<string, readonly string[]> = { "src/cli": ["codegen/", "conformance/", "src/inspect/"] };

function shipped(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...shipped(p));
    else if (name.endsWith(".ts") && !name.endsWith(".d.ts") && !/\.test\.ts$|\.test-support\.ts$/.test(name)) out.push(p);
  }
  return out;
}

function roomOf(file: string): string {
  const rel = relative(root, file);
  return Object.keys(MAY_IMPORT).find((room) => rel === room || rel.startsWith(`${room}/`)) ?? rel;
}

/** Relative imports of a module: static (`from "…"`, `import "…"`) and dynamic (`import("…")`). */
function importsOf(file: string): { target: string; lazy: boolean }[] {
  const text = readFileSync(file, "utf8");
  const found: { target: string; lazy: boolean }[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s+)["'](\.{1,2}\/[^"']+)["']/g)) found.push({ target: m[1]!, lazy: false });
  for (const m of text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) found.push({ target: m[1]!, lazy: true });
  return found.map(({ target, lazy }) => ({ target: relative(root, resolve(dirname(file), target)).replace(/\.js$/, ".ts"), lazy }));
}

describe("the module layers of docs/architecture.md", () => {
  const files = shipped(join(root, "src"));

  it("finds the rooms", () => {
    expect(files.length).toBeGreaterThan(100);
    for (const room of Object.keys(MAY_IMPORT))
      expect(
        files.some((f) => roomOf(f) === room),
        room,
      ).toBe(true);
  });

  // Modules that every importer reaches through import() only.
  const edges = files.flatMap((f) => importsOf(f).map((i) => ({ from: relative(root, f), ...i })));
  const lazyModules = new Set(
    [...new Set(edges.filter((e) => e.lazy).map((e) => e.target))].filter((t) => !edges.some((e) => e.target === t && !e.lazy)),
  );

  it("every import of a shipped module stays inside what its room may import", () => {
    const breaks: string[] = [];
    for (const file of files) {
      const room = roomOf(file);
      const allowed = MAY_IMPORT[room];
      if (allowed === undefined) {
        breaks.push(`${relative(root, file)}: in no room of docs/architecture.md`);
        continue;
      }
      for (const { target, lazy } of importsOf(file)) {
        if (allowed.some((prefix) => target.startsWith(prefix))) continue;
        // Lazy: an import() here, or a static import in a command module the CLI loads by import() alone.
        const loadedLazily = lazy || lazyModules.has(relative(root, file));
        if (loadedLazily && (LAZY_ONLY[room] ?? []).some((prefix) => target.startsWith(prefix))) continue;
        breaks.push(`${relative(root, file)} imports ${target}${lazy ? " (import())" : ""}`);
      }
    }
    expect(breaks).toEqual([]);
  });

  it("knows the public entry points the CLI may import", () => {
    for (const entry of [
      "src/index.ts",
      "src/validate/index.ts",
      "src/reduce/index.ts",
      "src/normalize/index.ts",
      "src/gateway/index.ts",
      "src/wire/index.ts",
      "src/bridges/source/index.ts",
    ]) {
      expect(ENTRY_POINTS, entry).toContain(entry);
    }
    for (const entry of ENTRY_POINTS)
      expect(
        files.map((f) => relative(root, f)),
        entry,
      ).toContain(entry);
    // A module below an entry point is not one.
    expect(MAY_IMPORT["src/cli"]!.some((p) => "src/wire/exact-numbers.ts".startsWith(p))).toBe(false);
  });

  it("loads the conformance command only by import() (it imports the runner)", () => {
    expect(lazyModules.has("src/cli/conformance-command.ts")).toBe(true);
  });

  it("loads the inspector only by import() (inspect, and proxy / serve with --inspect), and keeps the library out of its page", () => {
    expect(lazyModules.has("src/cli/inspect-command.ts")).toBe(true);
    expect(lazyModules.has("src/cli/inspect-live.ts")).toBe(true);
    expect(roomOf(join(root, "src/inspect/page/main.ts"))).toBe("src/inspect/page");
    expect(MAY_IMPORT["src/inspect/page"]!.some((p) => "src/reduce/index.ts".startsWith(p))).toBe(false);
  });

  it("would catch a back-arrow (validate importing reduce) and the CLI importing the generator at module level", () => {
    const allowed = MAY_IMPORT["src/validate"]!;
    expect(allowed.some((p) => "src/reduce/index.ts".startsWith(p))).toBe(false);
    expect(MAY_IMPORT["src/cli"]!.some((p) => "codegen/gen.ts".startsWith(p))).toBe(false);
  });
});

describe("one shared JSON guard (docs/architecture.md: src/json-guards.ts)", () => {
  // The test a helper would copy: `typeof x === "object" && x !== null && !Array.isArray(x)`, or its
  // negation. A helper that narrows further (a prototype check, a JSON value type) wraps isRecord.
  const COPY =
    /typeof ([A-Za-z_$][\w.$]*) === "object" && \1 !== null && !Array\.isArray\(\1\)|typeof ([A-Za-z_$][\w.$]*) !== "object" \|\| \2 === null \|\| Array\.isArray\(\2\)/;
  // codegen/ imports only schema/ (it runs before src/ is built); the inspector's source loader
  // in src/cli/ takes the shared one with the CLI's next change.
  const OWN_COPY = new Set(["src/json-guards.ts"]);

  it("is written once, in src/json-guards.ts, for every shipped module of src/ and conformance/", () => {
    const files = [...shipped(join(root, "src")), ...shipped(join(root, "conformance"))].map((f) => relative(root, f));
    expect(files).toContain("src/json-guards.ts");
    const copies = files.filter((f) => !OWN_COPY.has(f) && COPY.test(readFileSync(join(root, f), "utf8")));
    expect(copies).toEqual([]);
    expect(COPY.test(readFileSync(join(root, "src/json-guards.ts"), "utf8"))).toBe(true);
  });
});

describe('one name per event type (docs/api.md "Types")', () => {
  function allTs(dir: string): string[] {
    const out: string[] = [];
    for (const name of readdirSync(dir).sort()) {
      if (name === "node_modules") continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) out.push(...allTs(p));
      else if (name.endsWith(".ts") && !name.endsWith(".d.ts")) out.push(p);
    }
    return out;
  }
  // `AgEvent` / `AgReduceResult` are the producer-strict types; what a lenient parse yields is
  // `AgLenientEvent` / `AgLenientReduceResult`. An import may not give another type those names.
  const RENAMED_IN = /import\s+(?:type\s+)?\{[^}]*\b\w+\s+as\s+(?:AgEvent|AgLenientEvent|AgReduceResult|AgLenientReduceResult)\b[^}]*\}/;
  const LENIENT_AS_STRICT = /import\s+(?:type\s+)?\{[^}]*\bAgEvent\b[^}]*\}\s*from\s*"[^"]*lenient-types\.js"/;
  // The deprecated name is defined in src/validate (and pinned there by the package tests); the
  // CLI's modules take the rename with the CLI's next change.
  const KEEPS_OLD_NAME = (f: string) => f.startsWith("src/validate/") || f === "test/package-first-hour.test.ts";

  it("no module imports another type under the name AgEvent, AgLenientEvent, AgReduceResult or AgLenientReduceResult", () => {
    const files = ["src", "codegen", "conformance", "bench", "test"].flatMap((d) => allTs(join(root, d))).map((f) => relative(root, f));
    expect(files.length).toBeGreaterThan(300);
    const breaks: string[] = [];
    for (const f of files) {
      if (f.startsWith("src/cli/") || f === "test/architecture.test.ts") continue;
      const text = readFileSync(join(root, f), "utf8");
      if (RENAMED_IN.test(text)) breaks.push(`${f}: renames a type to a strict or lenient event/result name`);
      if (LENIENT_AS_STRICT.test(text)) breaks.push(`${f}: imports the lenient AgEvent as AgEvent (use AgLenientEvent)`);
      if (!KEEPS_OLD_NAME(f) && /\bLenientKnownEvent\b/.test(text)) breaks.push(`${f}: uses the deprecated LenientKnownEvent`);
    }
    expect(breaks).toEqual([]);
  });
});
