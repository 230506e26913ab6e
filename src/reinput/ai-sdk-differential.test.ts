/**
 * Differential against the Vercel AI SDK (issue 18): the same conversations converted by
 * `@ai-sdk/anthropic`, `@ai-sdk/openai` (responses and chat) and `@ai-sdk/google` through `ai`'s
 * generateText, captured as the body each POSTs to a loopback server, compared with agjson's
 * request. Every difference must match a rule below — each one documented in docs/reinput.md
 * ("Differences from the Vercel AI SDK") with the reason agjson's body is right.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, type LanguageModel } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AgMessage } from "../../generated/lenient-types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import { normalizeAll, readNativeChunks, type FacetName } from "../normalize/index.js";
import { reduce } from "../reduce/index.js";
import { toModelMessages } from "./ai-sdk-messages.test-support.js";
import { toAnthropic, toGemini, toOpenAIChat, toOpenAIResponses } from "./index.js";
import { startProviderLoopback, type ProviderLoopback } from "./loopback.test-support.js";
import { isRecord } from "../json-guards.js";

const ROOT = join(import.meta.dirname, "../..");

/** A recorded first response, the client's answers to its calls, and a follow-up question. */
function conversation(facet: FacetName, file: string, firstOnly = false): AgMessage[] {
  const chunks = readNativeChunks(readFileSync(join(ROOT, "fixtures/providers", file), "utf8"));
  const all = reduce(normalizeAll(facet, chunks)).result.messages;
  const turn = firstOnly ? all.slice(0, 1) : all;
  const calls = turn.flatMap((m) => m.content.flatMap((b) => (b.type === "tool-call" && b.providerExecuted !== true ? [b] : [])));
  return [
    { id: "sys", role: "system", content: [{ type: "text", text: "Be brief." }] },
    { id: "q", role: "user", content: [{ type: "text", text: "Please help." }] },
    ...turn,
    ...(calls.length > 0
      ? [
          {
            id: "results",
            role: "tool" as const,
            content: calls.map((c) => ({
              type: "tool-result" as const,
              toolCallId: c.toolCallId,
              content: [{ type: "text" as const, text: "22°C, sunny" }],
            })),
          },
        ]
      : []),
    { id: "next", role: "user", content: [{ type: "text", text: "And tomorrow?" }] },
  ];
}

interface Difference {
  path: string;
  ours: unknown;
  theirs: unknown;
}

/** Structural differences (arrays by index, objects by key). */
function diff(ours: unknown, theirs: unknown, path = ""): Difference[] {
  if (JSON.stringify(ours) === JSON.stringify(theirs)) return [];
  if (Array.isArray(ours) && Array.isArray(theirs) && ours.length === theirs.length)
    return ours.flatMap((o, i) => diff(o, theirs[i], `${path}[${i}]`));
  if (isRecord(ours) && isRecord(theirs)) {
    const keys = [...new Set([...Object.keys(ours), ...Object.keys(theirs)])].sort();
    return keys.flatMap((k) => diff(ours[k], theirs[k], `${path}.${k}`));
  }
  return [{ path, ours, theirs }];
}

const CONVERSATIONS: Array<{ name: string; facet: FacetName; file: string; firstOnly?: boolean }> = [
  { name: "anthropic thinking", facet: "anthropic", file: "anthropic/anthropic-combined-context-editing.1.chunks.txt" },
  { name: "anthropic tool use", facet: "anthropic", file: "anthropic/anthropic-json-tool.1.chunks.txt" },
  {
    name: "openai reasoning + function call",
    facet: "openai-responses",
    file: "openai-responses/azure-reasoning-encrypted-content.1.chunks.txt",
    firstOnly: true,
  },
  { name: "openai chat text", facet: "openai-chat", file: "openai-chat/openai-text.chunks.txt" },
  { name: "gemini tool call", facet: "gemini", file: "google/google-tool-call.chunks.txt" },
  { name: "gemini reasoning", facet: "gemini", file: "google/google-reasoning.chunks.txt" },
];

let server: ProviderLoopback;
beforeAll(async () => {
  server = await startProviderLoopback([{ status: 500, body: '{"error":{"message":"loopback capture"}}' }]);
});
afterAll(async () => server.close());

async function aiSdkBody(
  model: LanguageModel,
  messages: AgMessage[],
  providerOptions?: Record<string, Record<string, boolean>>,
): Promise<Record<string, unknown>> {
  const before = server.requests.length;
  const { instructions, messages: modelMessages } = toModelMessages(messages);
  await generateText({
    model,
    messages: modelMessages,
    maxRetries: 0,
    ...(instructions ? { instructions } : {}),
    ...(providerOptions ? { providerOptions } : {}),
  }).catch(() => undefined);
  const body = server.requests[before]?.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) throw new Error("the AI SDK posted no JSON body");
  return { ...body };
}

type J = Record<string, unknown>;
const isJ = (x: unknown): x is J => typeof x === "object" && x !== null && !Array.isArray(x);
const arr = (x: unknown): unknown[] => (Array.isArray(x) ? x : []);
/** agjson's id rule for ids a target rejects (short ids keep their readable form). */
const sanitize = (id: unknown): unknown =>
  typeof id === "string" && !/^[A-Za-z0-9_-]+$/.test(id) ? id.replace(/[^A-Za-z0-9_-]/g, "_") : id;
const clone = <T>(x: T): T => JSON.parse(JSON.stringify(x));

/**
 * The documented differences (docs/reinput.md, "Differences from the Vercel AI SDK"), applied to
 * the AI SDK's body: what remains must equal agjson's body exactly.
 */
const RULES = {
  anthropic(body: J): J {
    for (const m of arr(body.messages))
      for (const b of isJ(m) ? arr(m.content) : []) {
        if (!isJ(b)) continue;
        // AI1: a tool_result's text as a content block list, not a bare string (equivalent).
        if (b.type === "tool_result" && typeof b.content === "string") b.content = [{ type: "text", text: b.content }];
        // AI2: ids Anthropic rejects (^[a-zA-Z0-9_-]+$) are mapped, on the call and its result.
        if (b.type === "tool_use") b.id = sanitize(b.id);
        if (b.type === "tool_result") b.tool_use_id = sanitize(b.tool_use_id);
      }
    return body;
  },
  responses(input: unknown[], ours: unknown[]): unknown[] {
    return input.map((item, i) => {
      if (!isJ(item)) return item;
      // AI3: message items carry their explicit `type: "message"`.
      if ("role" in item && item.type === undefined) item.type = "message";
      // AI4: system messages keep the role "system" unless { systemRole: "developer" }.
      if (item.role === "developer") item.role = "system";
      // AI5: all-text content as one string (equivalent).
      const content = arr(item.content);
      if ("role" in item && content.length > 0 && content.every((c) => isJ(c) && c.type === "input_text"))
        item.content = content.map((c) => (isJ(c) ? c.text : "")).join("\n");
      // AI6: a function_call goes back under its own fc_ item id (§10 item 4), which the AI SDK omits with store:false.
      const o = ours[i];
      if (item.type === "function_call" && item.id === undefined && isJ(o) && typeof o.id === "string" && o.id.startsWith("fc_"))
        item.id = o.id;
      // AI2 again: call ids.
      if (typeof item.call_id === "string") item.call_id = sanitize(item.call_id);
      return item;
    });
  },
  chat(messages: unknown[]): unknown[] {
    for (const m of messages) {
      if (!isJ(m)) continue;
      for (const c of arr(m.tool_calls)) if (isJ(c)) c.id = sanitize(c.id);
      if (typeof m.tool_call_id === "string") m.tool_call_id = sanitize(m.tool_call_id);
    }
    return messages;
  },
  gemini(contents: unknown[], foreign: boolean, ownPart: ReadonlySet<string>): unknown[] {
    const out: J[] = [];
    for (const c of contents) {
      if (!isJ(c)) continue;
      const parts: J[] = [];
      for (const p of arr(c.parts)) {
        if (!isJ(p)) continue;
        // AI7: reasoning of another provider is never sent as a Gemini thought (§13.2).
        if (foreign && p.thought === true && p.thoughtSignature === undefined) continue;
        // AI12: a signature that came on an empty part of its own goes back on one, not a thought (D18).
        if (p.thought === true && p.text === "" && typeof p.thoughtSignature === "string" && ownPart.has(p.thoughtSignature)) {
          delete p.thought;
          parts.push(p);
          continue;
        }
        // AI8: a signature that came on a non-thought part goes back on that part (§8 item 8).
        const prev = parts[parts.length - 1];
        if (
          p.thought === true &&
          p.text === "" &&
          typeof p.thoughtSignature === "string" &&
          prev &&
          typeof prev.text === "string" &&
          prev.thought !== true
        ) {
          prev.thoughtSignature = p.thoughtSignature;
          continue;
        }
        for (const key of ["functionCall", "functionResponse"] as const) {
          const x = p[key];
          // AI9: a call Gemini gave no id is answered by name and position, without agjson's derived id (§8 item 2).
          if (isJ(x) && typeof x.id === "string" && x.id.includes(":tool-call:")) delete x.id;
        }
        // AI10: the result goes under Gemini's documented `output` key, not {name, content}.
        const fr = p.functionResponse;
        if (isJ(fr) && isJ(fr.response) && "content" in fr.response) fr.response = { output: fr.response.content };
        parts.push(p);
      }
      // AI11: consecutive turns of one role are one content (function responses, then the next question).
      const last = out[out.length - 1];
      if (last && last.role === c.role) (last.parts as J[]).push(...parts);
      else out.push({ role: c.role, parts });
    }
    return out;
  },
};

/** Same-shape key order: compare as JSON values. */
const json = (x: unknown): unknown => (x === undefined ? undefined : clone(x));

describe("differential against the Vercel AI SDK", () => {
  for (const c of CONVERSATIONS) {
    it(c.name, async () => {
      const messages = conversation(c.facet, c.file, c.firstOnly);
      const anthropic = createAnthropic({ apiKey: "loopback", baseURL: `${server.url}/v1` });
      const openai = createOpenAI({ apiKey: "loopback", baseURL: `${server.url}/v1` });
      const google = createGoogleGenerativeAI({ apiKey: "loopback", baseURL: `${server.url}/v1beta` });

      const a = RULES.anthropic(await aiSdkBody(anthropic("claude-sonnet-4-5"), messages));
      const ours = toAnthropic(messages).request;
      expect(diff(json(ours.messages), a.messages, "messages")).toEqual([]);
      expect(diff(json(ours.system), a.system, "system")).toEqual([]);

      const oursR = json(toOpenAIResponses(messages).request.input);
      const r = await aiSdkBody(openai.responses("gpt-5"), messages, { openai: { store: false } });
      expect(diff(oursR, RULES.responses(arr(r.input), arr(oursR)), "input")).toEqual([]);

      const ch = await aiSdkBody(openai.chat("gpt-4o"), messages);
      expect(diff(json(toOpenAIChat(messages).request.messages), RULES.chat(arr(ch.messages)), "messages")).toEqual([]);

      const g = await aiSdkBody(google("gemini-2.5-flash"), messages);
      const oursG = toGemini(messages).request;
      // The signatures the facet saw on an empty part of their own (D18).
      const ownPart = new Set(
        messages.flatMap((m) =>
          m.content.flatMap((b) =>
            isKnownBlock(b) && b.type === "reasoning" && b.providerMetadata?.thoughtSignatureOwnPart === true && b.opaque != null
              ? [b.opaque.value]
              : [],
          ),
        ),
      );
      expect(diff(json(oursG.contents), RULES.gemini(arr(g.contents), c.facet !== "gemini", ownPart), "contents")).toEqual([]);
      expect(diff(json(oursG.systemInstruction), g.systemInstruction, "systemInstruction")).toEqual([]);
    });
  }
});
