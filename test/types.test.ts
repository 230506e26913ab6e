/**
 * Type-level suite (issue 3): every valid fixture type-checks against its generated TS type with
 * `satisfies`, and every invalid fixture whose fault TypeScript can see (an unknown field, a wrong
 * type, a missing field, an unknown tag or enum value, a TS-expressible cross-field rule) fails to.
 * The file is rendered from the fixtures and compiled with the TypeScript API (tsc --noEmit).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { FAMILY_ROOT } from "../codegen/load.js";
import { generatedValidator } from "../conformance/generated-validators.js";
import { loadValidateFixtures, type ValidateFixture } from "../conformance/validate-fixtures.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const fixtures = loadValidateFixtures(join(root, "conformance/validate"));

/** AJV keywords whose failure TypeScript's structural types also reject. */
const TS_VISIBLE = new Set(["additionalProperties", "required", "enum", "const", "discriminator"]);

function targetDef(f: ValidateFixture): string {
  return f.def ?? FAMILY_ROOT[f.kind]!;
}

/** A TS expression for a JSON value; providerMetadata goes through the brand constructor (§2). */
function literal(value: unknown, key?: string): string {
  if (key === "providerMetadata" && value && typeof value === "object" && !Array.isArray(value)) {
    return `providerMeta(${literal(value)})`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => literal(v)).join(", ")}]`;
  if (value && typeof value === "object") {
    return `{ ${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${literal(v, k)}`)
      .join(", ")} }`;
  }
  return JSON.stringify(value);
}

/** Whether TypeScript should reject this strict-invalid fixture, judged from AJV's precise error. */
function tsShouldReject(f: ValidateFixture): boolean {
  const v = generatedValidator("strict", targetDef(f));
  if (v(f.document)) return false;
  const precise = (v.errors ?? []).filter((e) => !["if", "then", "else"].includes(e.keyword));
  if (precise.length !== 1) return false;
  const e = precise[0]!;
  if (e.keyword === "type") return e.params.type !== "integer";
  // `ext.${string}.${string}` cannot state the ext pattern's casing rules (§0.4, §12).
  if (e.keyword === "discriminator" && String(e.params.tagValue).startsWith("ext.")) return false;
  if (e.keyword === "oneOf" && targetDef(f) === "AgEvent" && (f.document as { type?: string }).type === "memory.write") return true;
  return TS_VISIBLE.has(e.keyword);
}

describe("generated TypeScript types", () => {
  it("accept every valid fixture and reject the invalid ones TypeScript can see", () => {
    const lines = [`import { providerMeta } from "../generated/types.js";`, `import type * as T from "../generated/types.js";`, ""];
    const where: string[] = [];
    let rejected = 0;
    fixtures.forEach((f, i) => {
      const def = targetDef(f);
      if (f.strict === "valid") {
        const expr = def === "AgProviderMeta" ? literal(f.document, "providerMetadata") : literal(f.document);
        lines.push(`// ${f.name}`, `export const f${i} = ${expr} satisfies T.${def};`);
        where[lines.length - 1] = f.name;
      } else if (tsShouldReject(f)) {
        rejected++;
        lines.push(
          `// ${f.name}`,
          `// @ts-expect-error ${f.description.replace(/\n/g, " ").slice(0, 80)}`,
          `export const f${i} = ${literal(f.document)} satisfies T.${def};`,
        );
        where[lines.length - 1] = f.name;
      }
    });
    // Hand-written checks of what the generated types promise beyond the fixtures.
    lines.push(
      `import type { FoldHandlers } from "../generated/fold-scaffold.js";`,
      "// unions narrow on their discriminant, ext included",
      "export function narrows(e: T.AgEvent): string {",
      "  switch (e.type) {",
      '    case "text.delta": return e.delta;',
      '    case "tool.done": return e.toolCallId;',
      '    default: return e.type.startsWith("ext.") ? "ext" : "other";',
      "  }",
      "}",
      'export function blockNarrows(b: T.AgBlock): string | undefined { return b.type === "tool-call" ? b.name : undefined; }',
      "// the ext template literal rejects a type with no key segment",
      '// @ts-expect-error "ext.acme" is not `ext.${string}.${string}`',
      'export const extBad: T.AgExtEvent = { type: "ext.acme", seq: 0 };',
      "// AgProviderMeta is nominally distinct from AgMeta (§2): a plain object needs providerMeta()",
      "// @ts-expect-error a plain AgMeta is not an AgProviderMeta",
      'export const brandBad: T.AgProviderMeta = { itemId: "rs_1" };',
      'export const brandOk: T.AgProviderMeta = providerMeta({ itemId: "rs_1" });',
      "// FoldHandlers<S> needs one handler per folding event: a missing one is a compile error",
      "// @ts-expect-error text.delta's handler is missing",
      'export const handlersBad: Pick<FoldHandlers<number>, "text.delta" | "text.start"> = { "text.start": () => undefined };',
    );
    const dir = join(root, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "fixture-types.ts");
    writeFileSync(file, lines.join("\n") + "\n");
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: [],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
      const fixture = where[line] ?? where[line + 1] ?? "?";
      return `${fixture}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    });
    expect(rejected).toBeGreaterThan(50);
    expect(diagnostics).toEqual([]);
  });

  // Issue 21 item 6: the types say what each posture yields (§0.2, §12). Each check below fails to
  // compile against a typing where a lenient parse claims an unknown event is an AgEvent.
  it("differ between the postures where the postures do: a lenient unknown event is an AgUnknownEvent", () => {
    const lines = [
      `import type * as T from "../generated/types.js";`,
      `import type * as L from "../generated/lenient-types.js";`,
      `import * as lenientGen from "../generated/validators/lenient.js";`,
      `import * as strictGen from "../generated/validators/strict.js";`,
      `import * as lenient from "../src/validate/lenient.js";`,
      `import * as strict from "../src/validate/strict.js";`,
      `import { validateEvent, validateInput, validateBlock } from "../src/validate/index.js";`,
      `import { createReducer, reduce } from "../src/reduce/index.js";`,
      "type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;",
      "type Guarded<V> = V extends (data: unknown) => data is infer G ? G : never;",
      "export function assert<C extends true>(): C | undefined { return undefined; }",
      "declare const x: unknown;",
      "// the generated guards: lenient narrows to the lenient type tree (every union with its unknown arm,",
      "// every open enum admitting any string), strict to the schema's own types",
      "assert<Equal<Guarded<typeof lenientGen.validateAgEvent>, L.AgKnownEvent | L.AgExtEvent | L.AgUnknownEvent>>();",
      "assert<Equal<Guarded<typeof strictGen.validateAgEvent>, T.AgEvent>>();",
      "assert<Equal<Guarded<typeof lenientGen.validateAgBlock>, L.AgBlock>>();",
      "assert<Equal<Guarded<typeof strictGen.validateAgBlock>, T.AgBlock>>();",
      "assert<Equal<Guarded<typeof lenientGen.validateAgInput>, L.AgInput>>();",
      "assert<Equal<Guarded<typeof strictGen.validateAgInput>, T.AgInput>>();",
      "assert<Equal<Guarded<typeof lenientGen.validateAgMessage>, L.AgMessage>>();",
      "assert<Equal<Guarded<typeof strictGen.validateAgMessage>, T.AgMessage>>();",
      "// inside a document the postures differ too: a lenient message may hold a block a later minor added",
      "declare const lenientMessage: L.AgMessage;",
      "// @ts-expect-error a lenient message is no schema-typed AgMessage",
      "export const notStrictMessage: T.AgMessage = lenientMessage;",
      "declare const strictMessage: T.AgMessage;",
      "export const strictIsLenient: L.AgMessage = strictMessage;",
      "// an unknown event's type is a string outside the known set: it is no AgEvent",
      "declare const unknownEvent: T.AgUnknownEvent;",
      "// @ts-expect-error an AgUnknownEvent is not an AgEvent",
      "export const notAnEvent: T.AgEvent = unknownEvent;",
      "export const itsType: string = unknownEvent.type;",
      "// agjson/validate/lenient: `known` tells an AgEvent from an AgUnknownEvent",
      "export function lenientEvent(): void {",
      "  const r = lenient.validateEvent(x);",
      "  if (r.ok && r.known) {",
      "    const e: L.AgKnownEvent | L.AgExtEvent = r.event;",
      "    // @ts-expect-error a known lenient event may still hold a value a later minor added (an open enum, a union tag)",
      "    const s: T.AgEvent = r.event;",
      "    void e; void s;",
      "  }",
      "  if (r.ok && !r.known) {",
      "    const u: T.AgUnknownEvent = r.event;",
      "    // @ts-expect-error a lenient parse of an unknown type is not an AgEvent",
      "    const e: T.AgEvent = r.event;",
      "    void u; void e;",
      "  }",
      "  if (r.ok) {",
      "    // @ts-expect-error without `known`, a lenient event may be unknown",
      "    const e: T.AgEvent = r.event;",
      "    void e;",
      "    // reduce() folds what a lenient parse yields (an unknown type folds to nothing, INV-SEQ still sees it)",
      "    reduce([r.event]);",
      "    createReducer().push(r.event);",
      "  }",
      '  if (r.ok && r.known && r.event.type === "text.delta") { const d: string = r.event.delta; void d; }',
      "}",
      "// agjson/validate/strict: everything that passes is known",
      "export function strictEvent(): void {",
      "  const r = strict.validateEvent(x);",
      "  if (r.ok) { const e: T.AgEvent = r.event; const k: true = r.known; void e; void k; }",
      "  const b = strict.validateBlock(x);",
      "  if (b.ok) { const block: T.AgBlock = b.block; void block; }",
      "  const i = strict.validateInput(x);",
      "  if (i.ok) { const input: T.AgInput = i.input; void input; }",
      "}",
      "// lenient blocks and inputs: an unknown tag is its AgUnknown* arm",
      "export function lenientBlockAndInput(): void {",
      "  const b = lenient.validateBlock(x);",
      "  if (b.ok && !b.known) { const u: T.AgUnknownBlock = b.block; void u; }",
      "  // @ts-expect-error a lenient block may be unknown",
      "  if (b.ok) { const block: T.AgBlock = b.block; void block; }",
      "  const i = lenient.validateInput(x);",
      "  if (i.ok && !i.known) { const u: T.AgUnknownInput = i.input; void u; }",
      "  // @ts-expect-error a lenient input may be unknown",
      "  if (i.ok) { const input: T.AgInput = i.input; void input; }",
      "}",
      "// agjson/validate: the posture option picks the result type",
      "export function byOption(): void {",
      '  const s = validateEvent(x, { posture: "strict" });',
      "  if (s.ok) { const k: true = s.known; void k; }",
      "  const l = validateEvent(x);",
      "  // @ts-expect-error the default (lenient) posture may report known: false",
      "  if (l.ok) { const k: true = l.known; void k; }",
      '  const sb = validateBlock(x, { posture: "strict" });',
      "  if (sb.ok) { const block: T.AgBlock = sb.block; void block; }",
      '  const si = validateInput(x, { posture: "strict" });',
      "  if (si.ok) { const input: T.AgInput = si.input; void input; }",
      "}",
    ];
    const dir = join(root, ".tmp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "posture-types.ts");
    writeFileSync(file, lines.join("\n") + "\n");
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: ["node"],
      lib: ["lib.es2023.d.ts", "lib.dom.d.ts"],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const at =
        d.file && d.start !== undefined
          ? `${relative(root, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
          : "?";
      return `${at}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    });
    expect(diagnostics).toEqual([]);
  });
});
