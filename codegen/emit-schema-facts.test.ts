// The schema-facts emitter (emit-schema-facts.ts) on a small schema: each event type's fields and each
// other object $def's, in schema order, each table checked by the compiler against the generated types.
import { describe, expect, it } from "vitest";
import type { Defs } from "./bundle.js";
import { emitSchemaFacts } from "./emit-schema-facts.js";
import type { EventEntry } from "./event-table.js";

const envelope = { type: { type: "string" }, seq: { type: "integer" }, id: { type: "string" } };
const defs: Defs = {
  AgSpecVersion: { type: "string", pattern: "^1\\.0\\.0$" },
  AgExtEvent: { type: "object", properties: envelope },
  AgPingEvent: { type: "object", properties: { ...envelope, type: { const: "ping" }, at: { type: "string" } } },
  AgTextBlock: { type: "object", properties: { type: { const: "text" }, text: { type: "string" } } },
  AgBlock: { oneOf: [{ $ref: "#/$defs/AgTextBlock" }], discriminator: { propertyName: "type" } },
  AgStartInput: { type: "object", properties: { kind: { const: "start" }, turnId: { type: "string" } } },
  AgInput: { oneOf: [{ $ref: "#/$defs/AgStartInput" }], discriminator: { propertyName: "kind" } },
  AgRole: { type: "string", enum: ["user", "assistant"] },
  AgEmptyObject: { type: "object" },
};
const events: EventEntry[] = [{ type: "ping", def: "AgPingEvent", profile: "CORE", fold: "live-only" }];

describe("emitSchemaFacts: field tables", () => {
  const out = emitSchemaFacts(defs, events, "1.0.0", "// banner");

  it("lists each event type's fields in schema order, checked against its generated type", () => {
    expect(out).toContain(
      `export const EVENT_FIELDS = {\n  "ping": ["type", "seq", "id", "at"],\n} as const satisfies { readonly [K in AgKnownEventType]: readonly FieldOf<AgEventByType[K]>[] };`,
    );
  });

  it("lists every other object $def's fields (not the events, not an object without properties)", () => {
    const table = /export const DEF_FIELDS = \{\n([^}]*)\}/.exec(out)?.[1];
    expect(table).toBe(`  AgExtEvent: ["type", "seq", "id"],\n  AgTextBlock: ["type", "text"],\n  AgStartInput: ["kind", "turnId"],\n`);
    expect(out).toContain(
      "export interface AgObjectDefs {\n  AgExtEvent: T.AgExtEvent;\n  AgTextBlock: T.AgTextBlock;\n  AgStartInput: T.AgStartInput;\n}",
    );
  });

  it("emits fieldsOtherThan, the rest of a field list in its order", () => {
    expect(out).toContain(
      "export function fieldsOtherThan<F extends string, X extends F>(fields: readonly F[], except: readonly X[]): Exclude<F, X>[] {",
    );
  });
});
