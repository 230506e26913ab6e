/**
 * Property tests of the two postures (§0.2, issue 3). Seeds are every strictly-valid fixture
 * document (at least one per `$def`); fast-check then
 *  (a) injects an unknown field into a random closed object, or an unknown event/block type —
 *      strict rejects every one, lenient accepts every one and leaves the document untouched;
 *  (b) corrupts a random known field with a value of the wrong type — both postures reject, and
 *      an issue carries the JSON Pointer of exactly that field.
 * A schema walker finds the closed objects and typed leaves of a document by following its tags.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDefs } from "../codegen/bundle.js";
import { canonicalAjv } from "../codegen/canonical-ajv.js";
import { FAMILY_ROOT, loadSchemaSet, type SchemaNode } from "../codegen/load.js";
import { loadValidateFixtures } from "../conformance/validate-fixtures.js";
import { pointerToken, validateBlock, validateEvent, validateInput, validateMessage } from "../src/validate/index.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const set = loadSchemaSet(root);
const defs = allDefs(set);
const canonical = canonicalAjv(set);

type Root = "AgEvent" | "AgInput" | "AgMessage" | "AgBlock";
const ROOTS: Root[] = ["AgEvent", "AgInput", "AgMessage", "AgBlock"];

const seeds = loadValidateFixtures(join(root, "conformance/validate"))
  .filter((f) => f.strict === "valid" && !f.def && ROOTS.includes(FAMILY_ROOT[f.kind] as Root))
  .map((f) => ({ name: f.name, root: FAMILY_ROOT[f.kind] as Root, document: f.document }));

interface Walk {
  closed: string[];
  leaves: { path: string; type: "string" | "number" | "boolean" }[];
}

/** Property names a cross-field rule of this object mentions: corrupting them may fail the rule first. */
function ruleFields(schema: SchemaNode): Set<string> {
  const names = new Set<string>();
  const visit = (n: unknown): void => {
    if (Array.isArray(n)) return n.forEach(visit);
    if (!n || typeof n !== "object") return;
    const o = n as SchemaNode;
    if (Array.isArray(o.required)) for (const r of o.required) names.add(String(r));
    if (o.properties) for (const k of Object.keys(o.properties as object)) names.add(k);
    for (const k of ["oneOf", "anyOf", "allOf", "not"]) if (k in o) visit(o[k]);
  };
  for (const k of ["oneOf", "anyOf", "allOf", "not"]) if (k in schema && !isRefList(schema[k])) visit(schema[k]);
  return names;
}

function isRefList(v: unknown): boolean {
  return Array.isArray(v) && v.every((m) => m && typeof m === "object" && "$ref" in (m as object));
}

function deref(s: SchemaNode): { schema: SchemaNode; name?: string } {
  let name: string | undefined;
  while (typeof s.$ref === "string") {
    name = s.$ref.replace("#/$defs/", "");
    s = defs[name]!;
  }
  return { schema: s, ...(name ? { name } : {}) };
}

function walk(schemaIn: SchemaNode, value: unknown, path: string, out: Walk, leavesAllowed: boolean): void {
  const { schema } = deref(schemaIn);
  const arms = (schema.oneOf ?? schema.anyOf) as SchemaNode[] | undefined;
  if (arms && isRefList(arms)) {
    const disc = (schema.discriminator as SchemaNode | undefined)?.propertyName as string | undefined;
    if (disc && value && typeof value === "object") {
      const tag = (value as Record<string, unknown>)[disc];
      const arm = arms.find((a) => ((deref(a).schema.properties ?? {}) as Record<string, SchemaNode>)[disc]?.const === tag);
      if (arm) walk(arm, value, path, out, leavesAllowed);
      return;
    }
    // Untagged: follow the arm the canonical schema accepts; a field error there surfaces at the union.
    const arm = arms.find((a) => canonical.validatorFor(String(a.$ref).replace("#/$defs/", ""))(value));
    if (arm) walk(arm, value, path, out, false);
    return;
  }
  if (schema.type === "object" && value && typeof value === "object" && !Array.isArray(value)) {
    if (schema.additionalProperties === false) out.closed.push(path);
    const props = (schema.properties ?? {}) as Record<string, SchemaNode>;
    const rules = ruleFields(schema);
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      const p = `${path}/${pointerToken(k)}`;
      const ps = props[k];
      if (ps) {
        const leafType = deref(ps).schema.type;
        if (
          leavesAllowed &&
          !("const" in ps) &&
          !rules.has(k) &&
          (leafType === "string" || leafType === "boolean" || leafType === "number")
        ) {
          out.leaves.push({ path: p, type: leafType });
        }
        walk(ps, v, p, out, leavesAllowed);
      } else if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        walk(schema.additionalProperties as SchemaNode, v, p, out, leavesAllowed);
      }
    }
    return;
  }
  if (schema.type === "array" && Array.isArray(value) && schema.items && typeof schema.items === "object") {
    value.forEach((item, i) => walk(schema.items as SchemaNode, item, `${path}/${i}`, out, leavesAllowed));
  }
}

function walkDocument(rootDef: Root, doc: unknown): Walk {
  const out: Walk = { closed: [], leaves: [] };
  walk({ $ref: `#/$defs/${rootDef}` }, doc, "", out, true);
  return out;
}

function at(doc: unknown, pointer: string): Record<string, unknown> {
  let cur = doc as Record<string, unknown>;
  for (const token of pointer.split("/").slice(1)) cur = cur[token.replace(/~1/g, "/").replace(/~0/g, "~")] as Record<string, unknown>;
  return cur;
}

function validate(rootDef: Root, doc: unknown, posture: "strict" | "lenient") {
  const o = { posture };
  switch (rootDef) {
    case "AgEvent":
      return validateEvent(doc, o);
    case "AgInput":
      return validateInput(doc, o);
    case "AgMessage":
      return validateMessage(doc, o);
    case "AgBlock":
      return validateBlock(doc, o);
  }
}

const seedArb = fc.constantFrom(...seeds);
const unknownKey = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,12}$/).map((s) => `future${s[0]!.toUpperCase()}${s.slice(1)}`);

describe("posture properties (§0.2)", () => {
  it("has seeds for every root family", () => {
    for (const r of ROOTS)
      expect(
        seeds.some((s) => s.root === r),
        r,
      ).toBe(true);
  });

  it("an unknown field in any closed object: strict rejects, lenient accepts it untouched", () => {
    fc.assert(
      fc.property(seedArb, fc.nat(), unknownKey, fc.jsonValue(), (seed, pick, key, value) => {
        const doc = structuredClone(seed.document);
        const { closed } = walkDocument(seed.root, doc);
        fc.pre(closed.length > 0);
        const target = at(doc, closed[pick % closed.length]!);
        fc.pre(!(key in target));
        target[key] = value;
        const copy = structuredClone(doc);
        expect(validate(seed.root, doc, "strict").ok, `${seed.name} + ${closed[pick % closed.length]}/${key}`).toBe(false);
        expect(validate(seed.root, doc, "lenient").ok, `${seed.name} + ${closed[pick % closed.length]}/${key}`).toBe(true);
        expect(doc).toEqual(copy);
      }),
      { numRuns: 1500 },
    );
  });

  it("an unknown event type: strict rejects, lenient accepts with known:false", () => {
    const events = seeds.filter((s) => s.root === "AgEvent" && !String((s.document as { type: string }).type).startsWith("ext."));
    fc.assert(
      fc.property(fc.constantFrom(...events), fc.stringMatching(/^[a-z]{2,8}\.[a-z]{2,8}$/), (seed, type) => {
        fc.pre(!validateEvent({ type, seq: 0 }, { posture: "strict" }).ok);
        const doc = { ...(seed.document as object), type };
        expect(validateEvent(doc, { posture: "strict" }).ok).toBe(false);
        const lenient = validateEvent(doc, { posture: "lenient" });
        expect(lenient.ok && !lenient.known, seed.name).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("an unknown block type inside content: strict rejects, lenient accepts", () => {
    const messages = seeds.filter((s) => s.root === "AgMessage");
    fc.assert(
      fc.property(
        fc.constantFrom(...messages),
        fc.stringMatching(/^[a-z]{3,10}$/),
        fc.dictionary(unknownKey, fc.jsonValue(), { maxKeys: 3 }),
        (seed, type, extra) => {
          fc.pre(!["text", "image", "audio", "file", "document", "resource", "code", "reasoning", "compaction", "data"].includes(type));
          const doc = structuredClone(seed.document) as { content: unknown[] };
          doc.content.push({ ...extra, type });
          expect(validateMessage(doc, { posture: "strict" }).ok).toBe(false);
          expect(validateMessage(doc, { posture: "lenient" }).ok, seed.name).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a known field of the wrong type: both postures reject with that field's pointer", () => {
    fc.assert(
      fc.property(seedArb, fc.nat(), (seed, pick) => {
        const doc = structuredClone(seed.document);
        const { leaves } = walkDocument(seed.root, doc);
        fc.pre(leaves.length > 0);
        const leaf = leaves[pick % leaves.length]!;
        const slash = leaf.path.lastIndexOf("/");
        const parent = at(doc, leaf.path.slice(0, slash));
        const key = leaf.path
          .slice(slash + 1)
          .replace(/~1/g, "/")
          .replace(/~0/g, "~");
        parent[key] = leaf.type === "string" ? 12345 : "not-a-" + leaf.type;
        for (const posture of ["strict", "lenient"] as const) {
          const r = validate(seed.root, doc, posture);
          expect(r.ok, `${posture} ${seed.name} ${leaf.path}`).toBe(false);
          if (!r.ok)
            expect(
              r.errors.map((e) => e.path),
              `${posture} ${seed.name} ${leaf.path}`,
            ).toContain(leaf.path);
        }
      }),
      { numRuns: 1500 },
    );
  });
});
