// IdTable (id-table.ts), the fold's id registries: after any sequence of set/delete/clear it must
// answer exactly as a Map would — including deletions inside probe runs (backward shift) and the
// compaction of deleted entries — and list its entries in insertion order.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "./id-table.js";

type Op = { op: "set"; key: string; value: number } | { op: "delete"; key: string } | { op: "get"; key: string } | { op: "clear" };

/** Few distinct keys, so that sets, overwrites and deletes keep meeting in the same probe runs. */
const key = fc.oneof(
  fc.constantFrom("", "a", "b", "m1", "m1:x", "call_1", "🙂", "é"),
  fc.integer({ min: 0, max: 300 }).map((n) => `k${n}`),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant("set" as const), key, value: fc.integer() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant("delete" as const), key }) },
  // A lookup before a set is the fold's own pattern (a missed lookup's slot is reused by the set).
  { weight: 4, arbitrary: fc.record({ op: fc.constant("get" as const), key }) },
  { weight: 1, arbitrary: fc.constant({ op: "clear" as const }) },
);

function expectSame(table: IdTable<number>, model: Map<string, number>, probes: readonly string[]): void {
  expect(table.size).toBe(model.size);
  for (const probe of probes) {
    expect(table.get(probe)).toBe(model.get(probe));
    expect(table.has(probe)).toBe(model.has(probe));
  }
  const listed: Array<[string, number]> = [];
  table.forEach((value, id) => listed.push([id, value]));
  expect(listed).toEqual([...model.entries()]);
}

describe("IdTable", () => {
  it("answers as a Map after any sequence of set, delete and clear", () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 400 }), (ops) => {
        const table = new IdTable<number>();
        const model = new Map<string, number>();
        const probes = new Set<string>(["absent"]);
        for (const step of ops) {
          if (step.op === "set") {
            table.set(step.key, step.value);
            model.set(step.key, step.value);
            probes.add(step.key);
          } else if (step.op === "delete") {
            expect(table.delete(step.key)).toBe(model.delete(step.key));
          } else if (step.op === "get") {
            expect(table.get(step.key)).toBe(model.get(step.key));
            expect(table.has(step.key)).toBe(model.has(step.key));
          } else {
            table.clear();
            model.clear();
          }
        }
        expectSame(table, model, [...probes]);
      }),
      { numRuns: 300 },
    );
  });

  it("grows past many doublings and deletes every other key", () => {
    const table = new IdTable<number>();
    const model = new Map<string, number>();
    const keys = Array.from({ length: 50_000 }, (_, i) => `m${i}:x`);
    keys.forEach((id, i) => {
      // Half the keys are looked up (and missed) first, as the fold does before registering an id.
      if (i % 2 === 1) expect(table.get(id)).toBeUndefined();
      table.set(id, i);
      model.set(id, i);
    });
    keys.forEach((id, i) => {
      if (i % 2 === 0) expect(table.delete(id)).toBe(model.delete(id));
    });
    expectSame(table, model, keys.concat("m50000:x"));
  });
});
