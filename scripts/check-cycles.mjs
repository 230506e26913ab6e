#!/usr/bin/env node
// Import cycles in the hand-written TypeScript (src/, codegen/, conformance/, bench/, scripts/):
// docs/architecture.md layers the modules one way, and a cycle inside one folder is the same
// tangle at a smaller scale (a module that needs its importer's half-initialised bindings).
// Every relative import counts: static, `import type`, re-exports and `import()` — a type-only
// edge is still a dependency a reader must follow both ways. Prints each cycle and exits 1.
import { readFileSync, readdirSync, statSync, existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The folders checked, repository-relative; `--root DIR` checks another tree (the check's own test). */
export const CHECKED = ["src", "codegen", "conformance"];

function tsFiles(dir) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== "node_modules") out.push(...tsFiles(p));
    } else if (/\.(c|m)?ts$/.test(name) && !name.endsWith(".d.ts")) out.push(p);
  }
  return out;
}

function resolveImport(from, spec) {
  if (!spec.startsWith(".")) return undefined;
  const base = resolve(dirname(from), spec);
  const candidates = [base, base.replace(/\.(c|m)?js$/, ".ts"), base.replace(/\.(c|m)?js$/, ".$1ts"), `${base}.ts`, join(base, "index.ts")];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile() && /\.(c|m)?ts$/.test(c));
}

/** The import graph of every checked file: file → the files it imports. */
export function importGraph(base = root, folders = CHECKED) {
  const graph = new Map();
  for (const folder of folders) {
    for (const file of tsFiles(join(base, folder))) {
      const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
      const targets = new Set();
      for (const ref of info.importedFiles) {
        const target = resolveImport(file, ref.fileName);
        if (target !== undefined) targets.add(target);
      }
      graph.set(file, [...targets].sort());
    }
  }
  return graph;
}

/** Strongly connected components with more than one module (or a module importing itself): Tarjan. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const idx = new Map();
  const low = new Map();
  const cycles = [];
  const strongConnect = (v) => {
    idx.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) cycles.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) strongConnect(v);
  return cycles;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--root");
  const base = at > 0 ? resolve(process.argv[at + 1]) : root;
  const graph = importGraph(base);
  const cycles = findCycles(graph);
  for (const c of cycles) {
    process.stderr.write(`import cycle among ${c.length} modules:\n`);
    for (const f of c) {
      const inside = (graph.get(f) ?? []).filter((t) => c.includes(t)).map((t) => relative(base, t));
      process.stderr.write(`  ${relative(base, f)} → ${inside.join(", ")}\n`);
    }
  }
  if (cycles.length > 0) {
    process.stderr.write(
      `check-cycles: ${cycles.length} cycle(s); layer the modules so each import points one way (docs/architecture.md)\n`,
    );
    process.exit(1);
  }
  process.stdout.write("check-cycles: no import cycle\n");
}
