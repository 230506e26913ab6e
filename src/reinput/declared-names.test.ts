// Re-input takes what reduce() returns and what a lenient parse yields: consumer-lenient types
// (§0.2, §12; generated/lenient-types.ts), whose names the strict tree (generated/types.ts) shares.
// The declarations a user's editor reads must say which tree they mean: `Lenient.AgMessage`, never
// a bare `AgMessage` that reads as the strict one. Each module's .d.ts is emitted here as the
// package build writes it (declarations keep the type names the source writes).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const MODULES = ["anthropic", "openai-responses", "openai-chat", "gemini", "conversation", "tool-result", "report", "ids"];
const TARGETS = { anthropic: "toAnthropic", "openai-responses": "toOpenAIResponses", "openai-chat": "toOpenAIChat", gemini: "toGemini" };

function declarationOf(module: string): string {
  const fileName = join(import.meta.dirname, `${module}.ts`);
  const out = ts.transpileDeclaration(readFileSync(fileName, "utf8"), {
    fileName,
    compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 },
  });
  expect(out.diagnostics ?? []).toEqual([]);
  return out.outputText;
}

describe("agjson/reinput declarations name the lenient types as lenient", () => {
  for (const module of MODULES) {
    it(`${module}.d.ts imports generated/lenient-types only as the Lenient namespace`, () => {
      const dts = declarationOf(module);
      const imports = dts.split("\n").filter((l) => l.includes("generated/lenient-types"));
      for (const line of imports) expect(line).toBe('import type * as Lenient from "../../generated/lenient-types.js";');
    });
  }

  for (const [module, fn] of Object.entries(TARGETS)) {
    it(`${fn} takes readonly Lenient.AgMessage[] | Lenient.AgReduceResult`, () => {
      const line = declarationOf(module)
        .split("\n")
        .find((l) => l.startsWith(`export declare function ${fn}(`));
      expect(line).toContain("(input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,");
    });
  }
});
