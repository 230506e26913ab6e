/**
 * The run-time half of the SDK pin: re-input's request types are its own structural types, so the
 * runtime and its .d.ts never import a provider SDK and users need not install one. The type half
 * (each request type against the official SDK's) is sdk-types.test-d.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Language, Outcome } from "@google/genai";
import { describe, expect, it } from "vitest";
import type { AgMessage } from "../../generated/lenient-types.js";
import { toGemini } from "./index.js";

describe("re-input and the provider SDKs", () => {
  it("the runtime and its .d.ts never import a provider SDK (users need not install them)", () => {
    const dir = dirname(fileURLToPath(import.meta.url));
    const sources = readdirSync(dir).filter((f) => f.endsWith(".ts") && !f.includes(".test"));
    expect(sources.length).toBeGreaterThan(6);
    for (const f of sources) {
      const text = readFileSync(join(dir, f), "utf8");
      expect(text, f).not.toMatch(/from\s+["'](@anthropic-ai\/sdk|openai|@google\/genai|ai|@ai-sdk\/[a-z-]+)(\/[^"']*)?["']/);
    }
  });

  it("toGemini typed with @google/genai's enums writes the same request as with the JSON strings", () => {
    const messages: AgMessage[] = [
      { id: "u", role: "user", content: [{ type: "text", text: "run it" }] },
      {
        id: "a",
        role: "assistant",
        content: [
          { type: "code", language: "python", code: "print(1)" },
          { type: "code-result", outcome: "ok", output: "1" },
          { type: "code", language: "python", code: "while True: pass" },
          { type: "code-result", outcome: "deadline_exceeded", output: "" },
          { type: "code-result", outcome: "failed", output: "boom" },
        ],
      },
    ];
    const plain = toGemini(messages);
    const typed = toGemini(messages, { enums: { Outcome, Language } });
    expect(typed).toEqual(plain);
    expect(plain.request.contents[1]?.parts.map((p) => p.codeExecutionResult?.outcome ?? p.executableCode?.language)).toEqual([
      "PYTHON",
      "OUTCOME_OK",
      "PYTHON",
      "OUTCOME_DEADLINE_EXCEEDED",
      "OUTCOME_FAILED",
    ]);
  });
});
