// Provider stream files (the `<provider>/<name>.chunks.txt` layout of fixtures/providers, one JSON
// chunk per line) turned back into the HTTP streaming bodies the provider's API sends.
import fs from "node:fs";
import path from "node:path";

/** The wire formats the replay server can speak, keyed by the fixtures/providers directory names that use them. */
export const PROVIDER_DIRS = {
  anthropic: "anthropic",
  "openai-responses": "openai-responses",
  "open-responses": "openai-responses",
  xai: "openai-responses",
  "openai-chat": "openai-chat",
  google: "google",
};

/** The API path each wire format is served on (any prefix before it is accepted). */
export function formatOfPath(url) {
  const p = url.split("?")[0];
  if (/\/messages$/.test(p)) return "anthropic";
  if (/\/responses$/.test(p)) return "openai-responses";
  if (/\/chat\/completions$/.test(p)) return "openai-chat";
  if (/:(stream)?[gG]enerateContent$/.test(p)) return "google";
  return undefined;
}

/** The JSON chunks of one `.chunks.txt` file. */
export function readChunkFile(file) {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l, i) => {
      try {
        return JSON.parse(l);
      } catch (e) {
        throw new Error(`${file}:${i + 1}: not JSON (${e.message})`);
      }
    });
}

/** The wire format of a chunk file: from its directory name, else sniffed from its first chunk. */
export function formatOfFile(file, chunks) {
  const dir = path.basename(path.dirname(file));
  if (PROVIDER_DIRS[dir]) return PROVIDER_DIRS[dir];
  const first = chunks[0] ?? {};
  if (first.type === "message_start") return "anthropic";
  if (typeof first.type === "string" && first.type.startsWith("response.")) return "openai-responses";
  if (first.object === "chat.completion.chunk") return "openai-chat";
  if (Array.isArray(first.candidates)) return "google";
  return undefined;
}

/**
 * Splits a file holding several responses back to back (a recorded tool loop) into one chunk list
 * per HTTP response: a new response starts at each `message_start` / `response.created` / new chat id.
 */
export function splitResponses(format, chunks) {
  const out = [];
  let chatId;
  for (const c of chunks) {
    let starts = out.length === 0;
    if (format === "anthropic") starts ||= c.type === "message_start";
    else if (format === "openai-responses") starts ||= c.type === "response.created";
    else if (format === "openai-chat") starts ||= c.id !== undefined && chatId !== undefined && c.id !== chatId;
    if (format === "openai-chat" && c.id !== undefined) chatId = c.id;
    if (starts) out.push([]);
    out[out.length - 1].push(c);
  }
  return out;
}

/** The SSE body the provider sends for these chunks. */
export function sseBody(format, chunks) {
  let s = "";
  for (const c of chunks) {
    if (format === "anthropic" || format === "openai-responses") s += `event: ${c.type}\ndata: ${JSON.stringify(c)}\n\n`;
    else if (format === "google") s += `data: ${JSON.stringify(c)}\r\n\r\n`;
    else s += `data: ${JSON.stringify(c)}\n\n`;
  }
  if (format === "openai-chat") s += "data: [DONE]\n\n";
  return s;
}

/**
 * The whole Anthropic `Message` a stream's chunks add up to: what `/v1/messages` answers a
 * non-streaming request for the same response (`message_start`'s message, each content block with
 * its deltas applied, `message_delta`'s stop reason and usage).
 */
export function anthropicMessageOf(chunks) {
  let message;
  const partialJson = new Map();
  for (const c of chunks) {
    if (c.type === "message_start") message = structuredClone(c.message);
    else if (!message) continue;
    else if (c.type === "content_block_start") message.content[c.index] = structuredClone(c.content_block);
    else if (c.type === "content_block_delta") {
      const block = message.content[c.index];
      const d = c.delta;
      if (d.type === "text_delta") block.text = (block.text ?? "") + d.text;
      else if (d.type === "input_json_delta") partialJson.set(c.index, (partialJson.get(c.index) ?? "") + d.partial_json);
      else if (d.type === "thinking_delta") block.thinking = (block.thinking ?? "") + d.thinking;
      else if (d.type === "signature_delta") block.signature = d.signature;
      else if (d.type === "citations_delta") (block.citations ??= []).push(d.citation);
      else throw new Error(`anthropicMessageOf: no rule for delta ${d.type}`);
    } else if (c.type === "content_block_stop" && partialJson.has(c.index)) {
      const text = partialJson.get(c.index);
      message.content[c.index].input = text === "" ? {} : JSON.parse(text);
    } else if (c.type === "message_delta") {
      Object.assign(message, c.delta);
      message.usage = { ...message.usage, ...c.usage };
    }
  }
  if (!message) throw new Error("anthropicMessageOf: no message_start");
  return message;
}

export const CANNED_TEXT = "Done.";

/**
 * The short final text response served when a framework asks for more than the scenario holds
 * (docs/record.md "Follow-up requests"); deterministic so re-recordings compare equal.
 */
export function cannedResponse(format, model = "replay-model") {
  const usage = { input_tokens: 10, output_tokens: 2 };
  if (format === "anthropic") {
    return [
      {
        type: "message_start",
        message: {
          id: "msg_replay_canned",
          type: "message",
          role: "assistant",
          model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...usage, output_tokens: 1 },
        },
      },
      { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: CANNED_TEXT } },
      { type: "content_block_stop", index: 0 },
      { type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 2 } },
      { type: "message_stop" },
    ];
  }
  if (format === "openai-responses") {
    const item = {
      id: "msg_replay_canned",
      type: "message",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text: CANNED_TEXT, annotations: [] }],
    };
    const response = (status, output) => ({
      id: "resp_replay_canned",
      object: "response",
      created_at: 0,
      status,
      model,
      output,
      usage:
        status === "completed"
          ? {
              input_tokens: 10,
              output_tokens: 2,
              total_tokens: 12,
              input_tokens_details: { cached_tokens: 0 },
              output_tokens_details: { reasoning_tokens: 0 },
            }
          : null,
    });
    let n = 0;
    return [
      { type: "response.created", sequence_number: n++, response: response("in_progress", []) },
      { type: "response.output_item.added", sequence_number: n++, output_index: 0, item: { ...item, status: "in_progress", content: [] } },
      {
        type: "response.content_part.added",
        sequence_number: n++,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: { type: "output_text", text: "", annotations: [] },
      },
      { type: "response.output_text.delta", sequence_number: n++, item_id: item.id, output_index: 0, content_index: 0, delta: CANNED_TEXT },
      { type: "response.output_text.done", sequence_number: n++, item_id: item.id, output_index: 0, content_index: 0, text: CANNED_TEXT },
      {
        type: "response.content_part.done",
        sequence_number: n++,
        item_id: item.id,
        output_index: 0,
        content_index: 0,
        part: item.content[0],
      },
      { type: "response.output_item.done", sequence_number: n++, output_index: 0, item },
      { type: "response.completed", sequence_number: n++, response: response("completed", [item]) },
    ];
  }
  if (format === "openai-chat") {
    const base = { id: "chatcmpl-replay-canned", object: "chat.completion.chunk", created: 0, model };
    return [
      { ...base, choices: [{ index: 0, delta: { role: "assistant", content: CANNED_TEXT }, finish_reason: null }] },
      {
        ...base,
        choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
        usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
      },
    ];
  }
  return [
    {
      candidates: [{ content: { role: "model", parts: [{ text: CANNED_TEXT }] }, finishReason: "STOP", index: 0 }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, totalTokenCount: 12 },
      modelVersion: model,
    },
  ];
}

/** The tool calls a provider stream makes (name + id), so the folder mode can stub them. */
export function toolCallsIn(format, chunks) {
  const out = [];
  for (const c of chunks) {
    if (format === "anthropic" && c.type === "content_block_start" && c.content_block?.type === "tool_use") out.push(c.content_block.name);
    if (format === "openai-responses" && c.type === "response.output_item.done" && c.item?.type === "function_call") out.push(c.item.name);
    if (format === "openai-chat")
      for (const ch of c.choices ?? []) for (const t of ch.delta?.tool_calls ?? []) if (t.function?.name) out.push(t.function.name);
    if (format === "google")
      for (const cand of c.candidates ?? [])
        for (const p of cand.content?.parts ?? []) if (p.functionCall?.name) out.push(p.functionCall.name);
  }
  return [...new Set(out)];
}
