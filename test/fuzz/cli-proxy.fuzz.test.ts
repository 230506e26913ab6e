/**
 * Fuzz target: `agjson proxy` in both postures. The gateway handler `agjson proxy` serves, with
 * arbitrary upstream bytes (cut anywhere) and arbitrary request bodies: never throws, every response
 * is complete (issue 20).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFetchGatewayHandler } from "../../src/gateway/index.js";
import { cliInput, numRuns } from "./cli-input.js";

const input = JSON.stringify({ protocol: "agjson", version: "1.4.0-draft.2", kind: "start", threadId: "th", turnId: "tu", messages: [] });

describe("fuzz: agjson proxy", () => {
  for (const posture of ["strict", "lenient"] as const) {
    it(`${posture}: any upstream stream and request body get a complete response, never a throw`, async () => {
      await fc.assert(
        fc.asyncProperty(
          cliInput,
          fc.constantFrom("text/event-stream", "application/x-ndjson"),
          fc.option(fc.string({ maxLength: 64 })),
          async ([bytes, size], type, body) => {
            const upstream = async () => {
              let at = 0;
              return new Response(
                // One chunk per pull, as a socket delivers them (enqueueing every chunk up front costs
                // Node's stream queue O(n²) shifts: most of a run's time at 1-byte chunks).
                new ReadableStream<Uint8Array>({
                  pull(c) {
                    if (at >= bytes.length) return c.close();
                    c.enqueue(bytes.slice(at, (at += size)));
                  },
                }),
                { status: 200, headers: { "content-type": type } },
              );
            };
            const handler = createFetchGatewayHandler({
              upstream: "http://upstream.invalid/",
              posture,
              fetch: upstream,
              caps: { maxInvalidEvents: 5 },
            });
            const res = await handler(
              new Request("http://gateway.invalid/", {
                method: "POST",
                headers: { "content-type": "application/json" },
                body: body ?? input,
              }),
            );
            expect(res.status).toBeGreaterThanOrEqual(200);
            await res.arrayBuffer();
          },
        ),
        { numRuns },
      );
    });
  }
});
