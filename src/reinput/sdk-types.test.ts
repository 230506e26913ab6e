/**
 * The run-time half of the SDK pin: re-input's request types are its own structural types, so the
 * runtime and its .d.ts never import a provider SDK and users need not install one. The type half
 * (each request type against the official SDK's) is sdk-types.test-d.ts.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

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
});
