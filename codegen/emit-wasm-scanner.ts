/**
 * Compiles `wasm/fast-scanner.ts` (AssemblyScript) into `generated/fast-scanner.wasm.ts`: the
 * module's bytes as base64, so that the gateway loads it from plain JavaScript on every runtime
 * (no file to locate, no bundler rule) and `agjson gen --check` sees any drift. AssemblyScript is a
 * development dependency only; its output for a given version and these options is deterministic.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** Options the module is built with: fastest code, the stub runtime (no GC: the scanner allocates nothing), SIMD. */
const OPTIONS = { optimizeLevel: 3, shrinkLevel: 0, runtime: "stub", noAssert: true, enable: ["simd"], initialMemory: 1 } as const;

export async function emitWasmScanner(root: string, banner: string): Promise<string> {
  const source = readFileSync(join(root, "wasm/fast-scanner.ts"), "utf8");
  const { default: asc } = await import("assemblyscript/asc");
  const result = await asc.compileString(source, { ...OPTIONS, enable: [...OPTIONS.enable] });
  if (result.error || !result.binary) {
    throw new Error(`agjson gen: wasm/fast-scanner.ts did not compile: ${result.error?.message ?? ""}\n${result.stderr.toString()}`);
  }
  const base64 = Buffer.from(result.binary).toString("base64");
  const lines: string[] = [];
  for (let at = 0; at < base64.length; at += 100) lines.push(`  ${JSON.stringify(base64.slice(at, at + 100))}`);
  return (
    `${banner}\n\n` +
    `/** The gateway's WebAssembly scanner (${result.binary.length} bytes), base64: see src/gateway/wasm-scanner.ts. */\n` +
    `export const FAST_SCANNER_WASM: string = [\n${lines.join(",\n")},\n].join("");\n`
  );
}
