// Gemini facet: the §4 safety_blocked and §8 item 8 branches the recorded streams do not reach
// (non-SAFETY blocks, a prompt block with no blocked rating, a refused call that was signed).
import { describe, expect, it } from "vitest";
import type { AgEvent } from "../../../generated/types.js";
import { GeminiFacet } from "./gemini.js";
import { conformant, of, runFacet } from "../facet.test-support.js";

const run = (chunks: unknown[]): AgEvent[] => runFacet(new GeminiFacet(), chunks);

const chunk = (parts: unknown[], extra: Record<string, unknown> = {}) => ({
  candidates: [{ content: { role: "model", parts }, index: 0, ...extra }],
  usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 },
  modelVersion: "gemini-2.5-flash",
  responseId: "resp-safety-01",
});

describe("Gemini facet", () => {
  it("a RECITATION / SPII / PROHIBITED_CONTENT / BLOCKLIST stop keeps the collapsed reason as a safety category (§4 safety_blocked)", () => {
    for (const reason of ["RECITATION", "SPII", "PROHIBITED_CONTENT", "BLOCKLIST", "IMAGE_SAFETY"]) {
      const events = conformant(
        run([
          chunk([{ text: "Once upon" }]),
          chunk([], {
            finishReason: reason,
            safetyRatings: [{ category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" }],
          }),
        ]),
      );
      expect(of(events, "turn.done")).toMatchObject([
        {
          finishReason: "safety_blocked",
          safety: [
            { category: "HARM_CATEGORY_HATE_SPEECH", probability: "NEGLIGIBLE" },
            { category: reason, blocked: true },
          ],
        },
      ]);
    }
  });

  it("a SAFETY stop whose ratings name the blocked category adds nothing; one with no ratings keeps SAFETY (§4 safety_blocked)", () => {
    const rated = conformant(
      run([
        chunk([{ text: "x" }]),
        chunk([], {
          finishReason: "SAFETY",
          safetyRatings: [{ category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH", blocked: true }],
        }),
      ]),
    );
    expect(of(rated, "turn.done")[0]!.safety).toEqual([{ category: "HARM_CATEGORY_HARASSMENT", probability: "HIGH", blocked: true }]);
    const bare = conformant(run([chunk([{ text: "x" }]), chunk([], { finishReason: "SAFETY" })]));
    expect(of(bare, "turn.done")[0]!.safety).toEqual([{ category: "SAFETY", blocked: true }]);
  });

  it("a prompt blocked with no blocked rating names its blockReason as the category (§4 safety_blocked, prompt.blocked)", () => {
    const events = conformant(
      run([
        {
          promptFeedback: { blockReason: "PROHIBITED_CONTENT" },
          usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
          responseId: "resp-pb-01",
        },
      ]),
    );
    expect(of(events, "prompt.blocked")).toMatchObject([
      { reason: "prohibited", safety: [{ category: "PROHIBITED_CONTENT", blocked: true }] },
    ]);
    expect(of(events, "turn.done")).toMatchObject([
      { finishReason: "safety_blocked", safety: [{ category: "PROHIBITED_CONTENT", blocked: true }] },
    ]);
  });

  it("a functionCall part refused for its name is carried whole, its thoughtSignature with it (§8 item 8, §8.0)", () => {
    const events = conformant(
      run([chunk([{ functionCall: { name: 42, args: {} }, thoughtSignature: "c2lnLWZj" }], { finishReason: "STOP" })]),
    );
    const carried = of(events, "ext.google.unparsed");
    expect(carried).toMatchObject([
      { reason: "functionCall name is not a string", raw: { functionCall: { name: 42, args: {} }, thoughtSignature: "c2lnLWZj" } },
    ]);
  });
});
