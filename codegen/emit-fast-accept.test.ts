/**
 * The fast accept (emit-fast-accept.ts) may only save work: `validateEvent` gives the same answer
 * with it as without it, for every value — valid, invalid, hostile (§13) — in both postures
 * (§0.2) and under every option. And it must save work: the events a stream is made of are
 * accepted by it, or it is a slower path in disguise.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { allDefs } from "./bundle.js";
import { loadSchemaSet } from "./load.js";
import { readFixtureFiles } from "../conformance/fixture-files.js";
import { KNOWN_EVENT_TYPES } from "../generated/fold-scaffold.js";
import type * as Lenient from "../generated/lenient-types.js";
import { strictRuleSites } from "../generated/semantic-rules.js";
import * as lenientGenerated from "../generated/validators/lenient.js";
import * as strictGenerated from "../generated/validators/strict.js";
import {
  KnownEventTable,
  validateLenientEventWith,
  validateStrictEventWith,
  type CheckOptions,
  type LenientEventValidators,
  type StrictKnownEvent,
  type StrictEventValidators,
} from "../src/validate/core.js";
import { isJsonTree } from "../src/validate/graph.js";
import { schemaArbitrary } from "../test/schema-arbitrary.js";

type Validate = (x: unknown, opts?: CheckOptions) => unknown;

function strictPair(): { fast: Validate; slow: Validate; accepts: lenientGenerated.EventAccepts } {
  const accepts = strictGenerated.createEventAccepts(isJsonTree);
  const fast: StrictEventValidators = {
    byType: new KnownEventTable<StrictKnownEvent>(strictGenerated.knownEventValidators, accepts.byType, strictRuleSites.AgEvent),
    ext: strictGenerated.validateAgExtEvent,
    extAccept: accepts.ext,
    root: strictGenerated.validateAgEvent,
  };
  const slow: StrictEventValidators = {
    byType: new KnownEventTable<StrictKnownEvent>(strictGenerated.knownEventValidators, {}, strictRuleSites.AgEvent),
    ext: strictGenerated.validateAgExtEvent,
    root: strictGenerated.validateAgEvent,
  };
  return { fast: (x, o) => validateStrictEventWith(fast, x, o), slow: (x, o) => validateStrictEventWith(slow, x, o), accepts };
}

function lenientPair(): { fast: Validate; slow: Validate; accepts: lenientGenerated.EventAccepts } {
  const accepts = lenientGenerated.createEventAccepts(isJsonTree);
  const fast: LenientEventValidators = {
    byType: new KnownEventTable<Lenient.AgKnownEvent | Lenient.AgExtEvent>(lenientGenerated.knownEventValidators, accepts.byType),
    ext: lenientGenerated.validateAgExtEvent,
    extAccept: accepts.ext,
    unknown: lenientGenerated.validateAgUnknownEvent,
  };
  const slow: LenientEventValidators = {
    byType: new KnownEventTable<Lenient.AgKnownEvent | Lenient.AgExtEvent>(lenientGenerated.knownEventValidators),
    ext: lenientGenerated.validateAgExtEvent,
    unknown: lenientGenerated.validateAgUnknownEvent,
  };
  return { fast: (x, o) => validateLenientEventWith(fast, x, o), slow: (x, o) => validateLenientEventWith(slow, x, o), accepts };
}

const POSTURES = { strict: strictPair(), lenient: lenientPair() };

/** Events from the conformance fixtures: the validate documents of kind `event`, and every event a normalizer fixture expects. */
function fixtureEvents(): unknown[] {
  const out: unknown[] = [];
  for (const f of readFixtureFiles("conformance/validate")) {
    const fixture = JSON.parse(f.text) as { kind?: string; document?: unknown };
    if (fixture.kind === "event") out.push(fixture.document);
  }
  for (const dir of readdirSync("conformance/normalize")) {
    for (const f of readFixtureFiles(join("conformance/normalize", dir))) {
      const fixture = JSON.parse(f.text) as { expect?: unknown };
      if (Array.isArray(fixture.expect)) out.push(...fixture.expect);
    }
  }
  return out;
}
const FIXTURES = fixtureEvents();

class Instance {
  constructor(fields: object) {
    Object.assign(this, fields);
  }
}

/** Values that are not JSON, or JSON the schema may not allow, to put in a field (§0.1, §13). */
const ODD_VALUES: (() => unknown)[] = [
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => 10n,
  () => undefined,
  () => null,
  () => "text",
  () => 1.5,
  () => -1,
  () => 2 ** 60,
  () => ({}),
  () => [],
  () => [undefined],
  // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
  () => [1, , 2],
  () => new Date(0),
  () => new Instance({ a: 1 }),
  () => () => 1,
  () => Symbol("s"),
  () => Object.create(null) as object,
  () => ({ nested: { deeper: { deepest: [Number.NaN] } } }),
];

/** The value with one thing changed, in each way that matters to the fast accept. */
function variants(doc: unknown): unknown[] {
  if (typeof doc !== "object" || doc === null || Array.isArray(doc)) return [doc];
  const base = doc as Record<string, unknown>;
  const out: unknown[] = [doc, structuredClone(doc)];
  const keys = Object.keys(base);
  for (const k of keys) {
    const { [k]: _gone, ...rest } = base;
    out.push(rest);
    for (const odd of ODD_VALUES) out.push({ ...base, [k]: odd() });
    const inner = base[k];
    if (typeof inner === "object" && inner !== null) {
      const first = Array.isArray(inner) ? 0 : Object.keys(inner)[0];
      if (first !== undefined) {
        for (const odd of ODD_VALUES.slice(0, 4)) {
          const copy = Array.isArray(inner) ? [...inner] : { ...inner };
          (copy as Record<string | number, unknown>)[first] = odd();
          out.push({ ...base, [k]: copy });
        }
      }
      // The nested object with a prototype that is not a plain object's.
      if (!Array.isArray(inner)) out.push({ ...base, [k]: new Instance(inner) });
    }
    // A field that is there but not enumerable: JSON.stringify leaves it out (§0.1).
    const hidden = { ...base };
    Object.defineProperty(hidden, k, { value: base[k], enumerable: false });
    out.push(hidden);
    // The same, with an unknown field that makes up the count of enumerable keys: a plain one, and
    // one no JSON holds (a count of keys alone would let it through unchecked).
    for (const extra of [1, 10n]) {
      const balanced: Record<string, unknown> = { ...base, vendorField: extra };
      Object.defineProperty(balanced, k, { value: base[k], enumerable: false });
      out.push(balanced);
    }
  }
  for (const odd of ODD_VALUES) out.push({ ...base, vendorField: odd() });
  const extraHidden = { ...base };
  Object.defineProperty(extraHidden, "vendorField", { value: 1, enumerable: false });
  out.push(extraHidden);
  out.push(new Instance(base));
  out.push(Object.assign(Object.create(null) as object, base));
  out.push(Object.assign(Object.create({}) as object, base));
  out.push(Object.assign(Object.create({ inherited: 1 }) as object, base));
  const { type, ...untyped } = base;
  out.push(Object.assign(Object.create({ type }) as object, untyped));
  out.push(new Proxy(base, {}));
  out.push(
    new Proxy(base, {
      ownKeys: () => {
        throw new Error("keys");
      },
    }),
  );
  const cyclic: Record<string, unknown> = { ...base, _meta: {} };
  (cyclic._meta as Record<string, unknown>).self = cyclic;
  out.push(cyclic);
  let deep: unknown = 1;
  for (let i = 0; i < 70; i++) deep = { d: deep };
  out.push({ ...base, _meta: deep });
  return out;
}

/** What a verdict says, comparable: the errors, `known`, and whether the event is the value handed in. */
function verdict(result: unknown, x: unknown): unknown {
  const r = result as { ok: boolean; known?: boolean; event?: unknown; errors?: unknown };
  return r.ok ? { ok: true, known: r.known, same: r.event === x } : { ok: false, errors: r.errors };
}

const OPTIONS: (CheckOptions | undefined)[] = [undefined, { maxDepth: 3 }, { maxDepth: 1 }, { parsed: true }];

function sameWithAndWithout(x: unknown): void {
  for (const [posture, { fast, slow }] of Object.entries(POSTURES)) {
    for (const opts of OPTIONS) {
      expect(verdict(fast(x, opts), x), `${posture} ${JSON.stringify(opts)}`).toEqual(verdict(slow(x, opts), x));
    }
  }
}

describe("the fast accept changes no verdict", () => {
  it("on every conformance fixture event", () => {
    expect(FIXTURES.length).toBeGreaterThan(500);
    for (const doc of FIXTURES) sameWithAndWithout(doc);
  });

  it("on each variant of two fixture events of every type", () => {
    const perType = new Map<unknown, number>();
    for (const doc of FIXTURES) {
      const type = (doc as { type?: unknown }).type;
      const seen = perType.get(type) ?? 0;
      if (seen >= 2) continue;
      perType.set(type, seen + 1);
      for (const x of variants(doc)) sameWithAndWithout(x);
    }
    expect(perType.size).toBeGreaterThan(40);
  });

  it("on events generated from the schema, and their variants", () => {
    const arb = schemaArbitrary(allDefs(loadSchemaSet()), "AgEvent");
    fc.assert(
      fc.property(arb, (doc) => {
        for (const x of variants(doc)) sameWithAndWithout(x);
      }),
      { numRuns: 150 },
    );
  });

  it("on values parsed from text with numbers a double cannot hold, in typed and opaque fields (§13.2)", () => {
    for (const text of [
      '{"type":"text.delta","seq":1,"id":"t","delta":"x","_meta":{"n":1e400}}',
      '{"type":"text.delta","seq":1e400,"id":"t","delta":"x"}',
      '{"type":"tool.args.assembled","seq":2,"toolCallId":"c","input":{"big":-1e400,"precise":0.1000000000000000055511151231257827}}',
      '{"type":"ext.acme.latency","seq":3,"millis":1e400}',
      // JSON.parse makes `__proto__` an own data field, never a prototype.
      '{"type":"text.delta","seq":4,"id":"t","delta":"x","__proto__":{"type":"tool.done"}}',
      '{"type":"ext.acme.x","seq":5,"__proto__":{"a":1}}',
      '{"type":"text.delta","seq":6,"id":"t","delta":"x","_meta":{"__proto__":[1e400]}}',
    ]) {
      sameWithAndWithout(JSON.parse(text));
    }
  });
});

describe("the fast accept changes no verdict under a polluted Object.prototype", () => {
  // Enumerable (what a merge of untrusted JSON into `{}` leaves) or not (code defining a property):
  // a field named like a schema field then reads through the prototype of every plain object.
  for (const enumerable of [true, false]) {
    it(`with ${enumerable ? "an enumerable" : "a non-enumerable"} property named like a field`, () => {
      let checked = 0;
      for (const name of ["turnId", "vendorField"]) {
        Object.defineProperty(Object.prototype, name, { value: "polluted", enumerable, configurable: true, writable: true });
        try {
          for (const doc of FIXTURES.slice(0, 120)) {
            for (const x of [doc, { ...(doc as object), vendorField: 10n }, { ...(doc as object), extra: 1 }]) {
              sameWithAndWithout(x);
              checked++;
            }
          }
        } finally {
          delete (Object.prototype as Record<string, unknown>)[name];
        }
      }
      expect(checked).toBeGreaterThan(600);
    });
  }
});

describe("the fast accept saves work", () => {
  it("exists for every named event type, the content-block carriers (§2) included, in both postures", () => {
    for (const { accepts } of Object.values(POSTURES)) {
      expect(KNOWN_EVENT_TYPES.filter((t) => accepts.byType[t] === undefined)).toEqual([]);
    }
  });

  it("accepts the valid fixture events of every type that has one", () => {
    const acceptedTypes = { strict: new Set<string>(), lenient: new Set<string>() };
    const validTypes = { strict: new Set<string>(), lenient: new Set<string>() };
    let valid = 0;
    let accepted = 0;
    for (const doc of FIXTURES) {
      const type = (doc as { type?: unknown }).type;
      if (typeof type !== "string") continue;
      for (const [posture, { slow, accepts }] of Object.entries(POSTURES) as [keyof typeof POSTURES, (typeof POSTURES)["strict"]][]) {
        const accept = accepts.byType[type] ?? (type.startsWith("ext.") ? accepts.ext : undefined);
        const verdict = slow(doc) as { ok: boolean; known?: boolean };
        // A lenient `ext.Acme.x` (not the ext pattern) passes as an unknown event, which has no fast accept.
        if (accept === undefined || !verdict.ok || verdict.known !== true) continue;
        valid++;
        validTypes[posture].add(type);
        if (accept(doc, 1, 64)) {
          accepted++;
          acceptedTypes[posture].add(type);
        }
      }
    }
    // Producer-strict and consumer-lenient `source`: its payload is a `oneOf` of three shapes with
    // no tag, which the emitter does not decide, so it always takes the validator.
    for (const posture of ["strict", "lenient"] as const) {
      const missed = [...validTypes[posture]].filter((t) => !acceptedTypes[posture].has(t));
      expect(missed, `${posture}: types whose valid fixtures the fast accept never accepts`).toEqual(["source"]);
    }
    expect(accepted / valid).toBeGreaterThan(0.9);
  });
});
