// Deterministic tool stubs (docs/record.md "Scenarios"): a scenario names its tools and says what
// each returns; adapters turn these framework-neutral stubs into their framework's tool objects.

/**
 * @typedef {{ name: string, description: string, parameters: object, needsApproval: boolean,
 *   execute: (args: unknown) => Promise<unknown> }} StubTool
 */

const ANY_OBJECT = { type: "object", properties: {}, additionalProperties: true };

/**
 * The StubTools of a scenario's `tools` map (`{ name: { description?, parameters?, returns?, throws?,
 * needsApproval?, delayMs? } }`). `delayMs` makes the stub settle on a timer, not in the same
 * microtask run: a framework's stream consumer is then idle, waiting, when the tool's outcome lands.
 */
export function buildStubTools(spec = {}) {
  return Object.entries(spec).map(([name, s]) => ({
    name,
    description: s.description ?? `Stub tool ${name}`,
    parameters: s.parameters ?? ANY_OBJECT,
    needsApproval: s.needsApproval === true,
    async execute(args) {
      if (typeof s.delayMs === "number" && s.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, s.delayMs));
      if (s.throws !== undefined) throw new Error(String(s.throws));
      return s.returns !== undefined ? s.returns : { ok: true, tool: name, args };
    },
  }));
}
