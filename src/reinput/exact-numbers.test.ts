/**
 * §13.2: opaque values (tool arguments and results, replay blobs, providerMetadata) are echoed
 * byte-identical. A caller who parsed the conversation with `parseExactNumbers` (JsonNumberText
 * leaves) or `parseKeepingExact` (plain doubles with exact twins) from `agjson/wire` gets every
 * number of a tool input and a tool result back as its own text — in the JSON the request carries
 * (written with `stringifyExact`) and inside the JSON strings a target wants (`arguments`, a
 * result sent as text).
 */
import { describe, expect, it } from "vitest";
import type { AgMessage } from "../../generated/lenient-types.js";
import { JsonNumberText, parseExactNumbers, parseKeepingExact, stringifyExact } from "../wire/exact-numbers.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "./index.js";

/** Four numbers a double cannot write back: past the range, negative zero, 34 digits, 23 digits. */
const NUMBERS = `{"big":1e400,"neg0":-0,"exact":0.1000000000000000055511151231257827,"huge":12345678901234567890123}`;

/** A call whose input, and a result whose data block and structuredContent, hold {@link NUMBERS}. */
const CONVERSATION = `[
  {"id":"u","role":"user","content":[{"type":"text","text":"Go."}]},
  {"id":"a","role":"assistant","content":[
    {"type":"tool-call","toolCallId":"call_1","name":"f","input":${NUMBERS}},
    {"type":"tool-result","toolCallId":"call_1","content":[{"type":"data","name":"d","data":${NUMBERS}}],"structuredContent":${NUMBERS}}
  ]}
]`;

/** Where each target carries the input and the result: as JSON (`json`) or as a JSON string (`text`). */
const WHERE = {
  anthropic: {
    fn: toAnthropic,
    json: ["/messages/1/content/0/input"],
    text: ["/messages/2/content/0/content/0/text", "/messages/2/content/0/content/1/text"],
  },
  "openai-responses": { fn: toOpenAIResponses, json: [], text: ["/input/1/arguments", "/input/2/output"] },
  "openai-chat": { fn: toOpenAIChat, json: [], text: ["/messages/1/tool_calls/0/function/arguments", "/messages/2/content"] },
  gemini: {
    fn: toGemini,
    json: ["/contents/1/parts/0/functionCall/args", "/contents/2/parts/0/functionResponse/response/output"],
    text: ["/contents/2/parts/0/functionResponse/response/content"],
  },
} as const;

function at(value: unknown, pointer: string): unknown {
  let v = value;
  for (const key of pointer.split("/").slice(1)) v = (v as Record<string, unknown>)[key];
  return v;
}

/** Every text holding the four numbers, whatever separates them (a result's parts joined by "\n"). */
function numberTexts(text: string): string[] {
  return text.split("\n");
}

describe("reinput keeps the text of every number of an opaque value (§13.2)", () => {
  for (const [target, where] of Object.entries(WHERE)) {
    for (const [parser, parse] of [
      ["parseExactNumbers", parseExactNumbers],
      ["parseKeepingExact", parseKeepingExact],
    ] as const) {
      it(`${target}, messages read with ${parser}`, () => {
        const messages = parse(CONVERSATION) as AgMessage[];
        const { request } = where.fn(messages);
        // Written back with stringifyExact, the request holds the input and the result as they came.
        const written = parseExactNumbers(stringifyExact(request));
        for (const p of where.json) expect(stringifyExact(at(written, p)), p).toBe(NUMBERS);
        for (const p of where.text) {
          const text = at(request, p);
          expect(typeof text, p).toBe("string");
          for (const part of numberTexts(text as string)) expect(part, p).toBe(NUMBERS);
        }
      });
    }
  }

  it("the JSON a request carries holds the caller's JsonNumberText leaves themselves", () => {
    const messages = parseExactNumbers(CONVERSATION) as AgMessage[];
    const big = (messages[1]!.content[0] as { input: { big: unknown } }).input.big;
    expect(big).toBeInstanceOf(JsonNumberText);
    expect(at(toGemini(messages).request, "/contents/1/parts/0/functionCall/args/big")).toBe(big);
    expect(at(toAnthropic(messages).request, "/messages/1/content/0/input/big")).toBe(big);
  });

  it("a tool input that is a bare number is wrapped as an object, its text kept (Anthropic and Gemini want objects)", () => {
    const messages = parseExactNumbers(CONVERSATION.replace(`"input":${NUMBERS}`, `"input":1e400`)) as AgMessage[];
    const anthropic = toAnthropic(messages, { onInvalid: "repair" });
    expect(stringifyExact(at(anthropic.request, "/messages/1/content/0/input"))).toBe(`{"input":1e400}`);
    expect(anthropic.report.map((e) => e.reason)).toContain("converted-block");
    const gemini = toGemini(messages, { onInvalid: "repair" });
    expect(stringifyExact(at(gemini.request, "/contents/1/parts/0/functionCall/args"))).toBe(`{"input":1e400}`);
    expect(toOpenAIChat(messages).request.messages[1]).toMatchObject({ tool_calls: [{ function: { arguments: "1e400" } }] });
  });

  it("structuredContent already in a text block (the MCP convention) is still not sent twice", () => {
    const messages = parseExactNumbers(
      CONVERSATION.replace(`[{"type":"data","name":"d","data":${NUMBERS}}]`, `[{"type":"text","text":${JSON.stringify(NUMBERS)}}]`),
    ) as AgMessage[];
    const { request, report } = toOpenAIChat(messages);
    expect(request.messages[2]).toEqual({ role: "tool", tool_call_id: "call_1", content: NUMBERS });
    expect(report.map((e) => e.reason)).not.toContain("structured-as-text");
  });
});

describe("where the target types a number, a kept number text is sent as its double and reported (§13.2: never silently)", () => {
  it("a Responses shell call: timeout_ms of the input, exit_code of the recorded output", () => {
    const messages = parseExactNumbers(`[
      {"id":"u","role":"user","content":[{"type":"text","text":"ls"}]},
      {"id":"a","role":"assistant","metadata":{"openai":{}},"content":[
        {"type":"tool-call","toolCallId":"call_1","name":"shell","itemId":"sh_1","input":{"commands":["ls"],"timeout_ms":1.0e3}}
      ]},
      {"id":"t","role":"tool","content":[
        {"type":"tool-result","toolCallId":"call_1","content":[],"structuredContent":[{"stdout":"a","stderr":"","outcome":{"type":"exit","exit_code":-0}}]}
      ]}
    ]`) as AgMessage[];
    const { request, report } = toOpenAIResponses(messages);
    expect(request.input.slice(1)).toMatchObject([
      { type: "shell_call", action: { commands: ["ls"], timeout_ms: 1000 } },
      { type: "shell_call_output", output: [{ stdout: "a", stderr: "", outcome: { type: "exit", exit_code: -0 } }] },
    ]);
    expect(report.filter((e) => e.reason === "number-as-double").map((e) => [e.messageId, e.field])).toEqual([
      ["a", "input.timeout_ms"],
      ["t", "output exit_code"],
    ]);
  });
});
