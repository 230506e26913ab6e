/**
 * Fuzz (COMMON fuzz convention): arbitrary sequences of lenient-valid AgEvents, generated from the
 * schema, through the UI message stream transform and the ACP update mapper: zero throws, and every
 * UI chunk a JSON object with a string `type`; every ACP output an update with a string
 * `sessionUpdate`, or the event itself handed back (ext, ask).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { allDefs } from "../../codegen/bundle.js";
import { loadSchemaSet } from "../../codegen/load.js";
import type { AgLenientEvent } from "../../generated/types.js";
import { validateEvent } from "../../src/validate/index.js";
import { createAcpUpdateMapper } from "../../src/bridges/acp/updates.js";
import { createUIMessageStreamTransform } from "../../src/bridges/ui-message-stream/index.js";
import { schemaArbitrary } from "../schema-arbitrary.js";

const numRuns = Number(process.env.AGJSON_FUZZ_RUNS ?? 300);
const events = fc.array(schemaArbitrary(allDefs(loadSchemaSet()), "AgEvent"), { maxLength: 30 }).map((raw) =>
  raw.flatMap((x): AgLenientEvent[] => {
    const v = validateEvent(x);
    return v.ok && v.known ? [v.event] : [];
  }),
);

describe("bridges never throw on any valid event sequence", () => {
  it("toUIMessageStream transform", () => {
    fc.assert(
      fc.property(events, (list) => {
        const t = createUIMessageStreamTransform();
        const out = [...list.flatMap((e) => t.push(e)), ...t.end()];
        for (const c of out) expect(typeof c.type).toBe("string");
        JSON.stringify(out);
      }),
      { numRuns },
    );
  });

  it("ACP update mapper", () => {
    fc.assert(
      fc.property(events, (list) => {
        const m = createAcpUpdateMapper();
        for (const e of list) {
          for (const o of m.push(e)) {
            // An update is a session/update notification's payload; ext and ask hand the event itself back.
            if (o.kind === "update") expect(typeof o.update.sessionUpdate).toBe("string");
            else if (o.kind === "ask") expect(o.ask).toBe(e);
            else expect(o.event).toBe(e);
            JSON.stringify(o);
          }
        }
      }),
      { numRuns },
    );
  });
});
