/**
 * `agjson convert --to ui-message-stream` as a user runs it: the built CLI turns an AgEvent file
 * into the SSE body the AI SDK's chat transport reads (docs/bridges/ui-message-stream.md).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";
import { describe, expect, it } from "vitest";
import { UI_MESSAGE_STREAM_HEADERS } from "../bridges/ui-message-stream/index.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const agjson = (args: string[], input?: string) =>
  spawnSync(process.execPath, [`${root}bin/agjson.js`, ...args], { cwd: root, input, encoding: "utf8" });

describe("agjson convert --to ui-message-stream", () => {
  it("writes SSE that DefaultChatTransport + readUIMessageStream fold into the sample's UIMessage", async () => {
    const r = agjson(["convert", "--to", "ui-message-stream", "samples/chat-with-tool.ndjson"]);
    expect(r.status).toBe(0);
    expect(r.stdout.startsWith('data: {"type":"start","messageId":"turn_1"}\n\n')).toBe(true);
    expect(r.stdout.endsWith("data: [DONE]\n\n")).toBe(true);
    const transport = new DefaultChatTransport<UIMessage>({
      api: "http://agjson.invalid/",
      fetch: async () => new Response(r.stdout, { headers: UI_MESSAGE_STREAM_HEADERS }),
    });
    const stream = await transport.sendMessages({
      trigger: "submit-message",
      chatId: "c",
      messageId: undefined,
      messages: [],
      abortSignal: undefined,
    });
    let last: UIMessage | undefined;
    for await (const m of readUIMessageStream<UIMessage>({ stream, terminateOnError: true })) last = m;
    expect(last?.parts.map((p) => p.type)).toEqual(["reasoning", "text", "tool-get_weather", "text"]);
    expect(last?.parts[2]).toMatchObject({ state: "output-available", input: { city: "Paris" }, output: { tempC: 18, sky: "rain" } });
  });

  it("reads stdin, skips an invalid record with a line naming it on stderr, and exits 1", () => {
    const r = agjson(
      ["convert", "--to", "ui-message-stream", "-"],
      `{"type":"turn.start","seq":0,"threadId":"th","turnId":"t"}\n{"type":"text.delta","seq":1,"id":"x","delta":5}\n`,
    );
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/record 1: \/delta: must be string/);
    expect(r.stdout).toMatch(/"type":"start","messageId":"t"/);
    expect(r.stdout).toMatch(/"finishReason":"interrupted"/);
  });

  it("exits 2 on an unknown --to", () => {
    const r = agjson(["convert", "--to", "nope", "samples/chat-with-tool.ndjson"]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/option '--to <target>' argument 'nope' is invalid\. Allowed choices are .*\bag-ui\b.*\bui-message-stream\b/);
  });
});
