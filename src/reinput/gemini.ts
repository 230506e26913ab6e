/**
 * AgMessage[] → Gemini `contents` + `systemInstruction`. The thoughtSignature goes back on every
 * signed part (§8 item 8): on the functionCall part it came with (tool-call `signature`), on the
 * thought part (reasoning `opaque`), or on the text/code/media part it was attached to (a reasoning
 * block carrying only the signature, `providerMetadata.thoughtSignaturePart`). Calls of one turn
 * stay grouped ahead of their responses (`FC1+sig, FC2, FR1, FR2`, §8 item 7, §10 item 15); a call
 * whose id Gemini never gave (`providerCallIndex`, §8 item 2) is answered by name and position,
 * without an id. The request types are structural; `sdk-types.test-d.ts` checks them against `@google/genai`.
 */
import type * as Lenient from "../../generated/lenient-types.js";
import { BLOCK_TYPES, isKnownSource, type AgKnownBlockType } from "../../generated/schema-facts.js";
import {
  messagesOf,
  ownsBlobs,
  planConversation,
  providerCallIndex,
  type PlacedBlock,
  type PlacedResult,
  type ReinputOptions,
  type ReinputResult,
} from "./conversation.js";
import { Reporter, type BlockLocation } from "./report.js";
import { isJsonObject } from "./opaque-json.js";
import { blockAsText, modelFacing } from "./tool-result.js";

export interface GeminiFunctionResponsePart {
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
}

/** The code-execution outcomes re-input sends, as the REST body spells them. */
export type GeminiOutcome = "OUTCOME_OK" | "OUTCOME_FAILED" | "OUTCOME_DEADLINE_EXCEEDED";
/** The one executable-code language Gemini has (a closed enum, §2 code-language note). */
export type GeminiLanguage = "PYTHON";

/**
 * The values written for Gemini's two enums, by name. `@google/genai` types `Outcome` and
 * `Language` as TypeScript enums, which no string literal is assignable to; passing the SDK's own
 * enum objects (`{ Outcome, Language }`) types the parts with them, with the same JSON strings.
 */
export interface GeminiEnums<O, L> {
  Outcome: Record<GeminiOutcome, O>;
  Language: Record<GeminiLanguage, L>;
}

/** Every part kind but code execution: the same whichever enum values the request is typed with. */
export interface GeminiDataPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: Record<string, unknown>; id?: string; parts?: GeminiFunctionResponsePart[] };
  inlineData?: { mimeType: string; data: string };
  fileData?: { mimeType?: string; fileUri: string };
}

/** A request part; `O` and `L` are the enum value types (the JSON strings unless the SDK's enums were passed). */
export interface GeminiPart<O = GeminiOutcome, L = GeminiLanguage> extends GeminiDataPart {
  executableCode?: { language: L; code: string };
  codeExecutionResult?: { outcome: O; output: string };
}

export interface GeminiContent<O = GeminiOutcome, L = GeminiLanguage> {
  role: "user" | "model";
  parts: GeminiPart<O, L>[];
}

/**
 * The request fragment (REST `generateContent` body). With `@google/genai`, pass its enums
 * (`toGemini(result, { enums: { Outcome, Language } })`), then
 * `ai.models.generateContent({ model, contents: request.contents, config: { systemInstruction: request.systemInstruction } })`.
 */
export interface GeminiRequest<O = GeminiOutcome, L = GeminiLanguage> {
  contents: GeminiContent<O, L>[];
  systemInstruction?: { parts: Array<{ text: string }> };
}

/** Options of `toGemini` with the enum values to type the request with (`@google/genai`'s `{ Outcome, Language }`). */
export interface GeminiEnumOptions<O, L> extends ReinputOptions {
  enums: GeminiEnums<O, L>;
}

/** The enums as the REST body spells them: what `toGemini` writes whatever it is typed with. */
const JSON_ENUMS: GeminiEnums<GeminiOutcome, GeminiLanguage> = {
  Outcome: { OUTCOME_OK: "OUTCOME_OK", OUTCOME_FAILED: "OUTCOME_FAILED", OUTCOME_DEADLINE_EXCEEDED: "OUTCOME_DEADLINE_EXCEEDED" },
  Language: { PYTHON: "PYTHON" },
};

/** Lenient.AgMessage[] (or the Lenient.AgReduceResult reduce() returns) → Gemini `contents` + `systemInstruction`, with the report. */
export function toGemini(input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult, opts?: ReinputOptions): ReinputResult<GeminiRequest>;
/** The same request typed with the enum values given: `{ enums: { Outcome, Language } }` from `@google/genai` types it as the SDK's `Content[]`. */
export function toGemini<O, L>(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: GeminiEnumOptions<O, L>,
): ReinputResult<GeminiRequest<O, L>>;
export function toGemini<O, L>(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: ReinputOptions | GeminiEnumOptions<O, L> = {},
): ReinputResult<GeminiRequest<O, L>> | ReinputResult<GeminiRequest> {
  return "enums" in opts ? geminiRequest(input, opts, opts.enums) : geminiRequest(input, opts, JSON_ENUMS);
}

function geminiRequest<O, L>(
  input: readonly Lenient.AgMessage[] | Lenient.AgReduceResult,
  opts: ReinputOptions,
  enums: GeminiEnums<O, L>,
): ReinputResult<GeminiRequest<O, L>> {
  const report = new Reporter();
  const plan = planConversation(messagesOf(input), "gemini", opts, report);
  const system: Array<{ text: string }> = [];
  const contents: GeminiContent<O, L>[] = [];
  const dropped = new Set<string>();
  let seenTurn = false;

  const push = (role: "user" | "model", parts: GeminiPart<O, L>[]): void => {
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };

  for (const seg of plan) {
    if (seg.kind === "system") {
      if (seenTurn)
        report.changed(
          "system-hoisted",
          seg.at,
          "Gemini has one system instruction: this system message was moved to `systemInstruction`.",
        );
      for (const p of seg.blocks) {
        const text = blockAsText(p.block);
        if (text !== undefined && text !== "" && p.block.type !== "data") system.push({ text });
        else report.dropped("unsupported-block", p, `A ${p.block.type} block has no place in the Gemini system instruction.`);
      }
      continue;
    }
    seenTurn = true;
    if (seg.kind === "results") {
      push(
        "user",
        seg.results.map((r) => functionResponse(r, report)),
      );
      continue;
    }
    const parts: GeminiPart<O, L>[] =
      seg.kind === "assistant" ? modelParts(seg.blocks, report, dropped, enums) : seg.blocks.flatMap((p) => userPart(p, report));
    if (parts.length === 0) {
      report.dropped("empty-message", seg.at, `Message "${seg.at.messageId}" has nothing Gemini can carry; it was left out.`);
      continue;
    }
    push(seg.kind === "assistant" ? "model" : "user", parts);
  }
  const request: GeminiRequest<O, L> = { contents };
  if (system.length > 0) request.systemInstruction = { parts: system };
  return { request, report: report.entries };
}

function mediaPart(source: Lenient.AgSource, report: Reporter, at: BlockLocation, field?: string): GeminiDataPart | undefined {
  if (!isKnownSource(source)) {
    report.dropped(
      "unsupported-block",
      at,
      `A "${source.type}" source is of a type this version does not know (§0.2, §12); Gemini gets no form of it.`,
      field,
    );
    return undefined;
  }
  const mimeType = source.mediaType;
  if (source.type === "base64") return { inlineData: { mimeType: mimeType ?? "application/octet-stream", data: source.data } };
  const fileUri = source.type === "url" ? source.url : source.fileId;
  return { fileData: { fileUri, ...(mimeType !== undefined ? { mimeType } : {}) } };
}

function userPart(p: PlacedBlock, report: Reporter): GeminiDataPart[] {
  const b = p.block;
  if (b.type === "text") return b.text === "" ? [] : [{ text: b.text }];
  if (b.type === "image" || b.type === "audio" || b.type === "file" || b.type === "document") {
    const part = mediaPart(b.source, report, p);
    return part === undefined ? [] : [part];
  }
  return asText(p, report);
}

function asText(p: PlacedBlock, report: Reporter): GeminiDataPart[] {
  const b = p.block;
  const text =
    b.type === "data" || b.type === "provider-raw" || b.type === "reasoning" || b.type === "compaction" ? undefined : blockAsText(b);
  if (text === undefined || text === "") {
    report.dropped(
      b.type === "compaction" ? "foreign-blob" : "unsupported-block",
      p,
      `Gemini has no input form for a ${b.type} block here.`,
    );
    return [];
  }
  report.changed("converted-block", p, `A ${b.type} block was sent as text.`);
  return [{ text }];
}

const BLOCK_TYPE_SET: ReadonlySet<string> = new Set(BLOCK_TYPES);
function isBlockType(type: string): type is AgKnownBlockType {
  return BLOCK_TYPE_SET.has(type);
}

/**
 * Which earlier part a signature-only reasoning block belongs to: the facet's thoughtSignaturePart
 * names the §2 block type of that part, so the switch is narrowed to them and the compiler holds
 * each case to the schema.
 */
function signedPartMatches(part: GeminiPart<unknown, unknown>, kind: string): boolean {
  if (part.thoughtSignature !== undefined) return false;
  switch (isBlockType(kind) ? kind : undefined) {
    case "text":
      return part.text !== undefined && part.thought !== true;
    case "code":
      return part.executableCode !== undefined;
    case "code-result":
      return part.codeExecutionResult !== undefined;
    default:
      return part.inlineData !== undefined || part.fileData !== undefined;
  }
}

/** One assistant turn as `model` parts, every signature on the part it signs (§8 item 8). */
function modelParts<O, L>(blocks: PlacedBlock[], report: Reporter, dropped: Set<string>, enums: GeminiEnums<O, L>): GeminiPart<O, L>[] {
  const parts: GeminiPart<O, L>[] = [];
  for (const p of blocks) {
    const b = p.block;
    const own = ownsBlobs(p.provider, "google");
    switch (b.type) {
      case "text":
        if (b.text !== "") parts.push({ text: b.text });
        break;
      case "reasoning": {
        const signature = b.opaque !== undefined && own ? b.opaque.value : undefined;
        if (b.opaque !== undefined && !own)
          report.dropped("foreign-blob", p, `Reasoning sealed by "${p.provider}" is not sent to Gemini (§13.2).`, "opaque");
        if (!own) break;
        const signs = b.providerMetadata?.thoughtSignaturePart;
        if (b.providerMetadata?.thoughtSignatureOwnPart === true && (b.text ?? "") === "" && signature !== undefined) {
          // The signature came on an empty part of its own: it goes back on one, here (D18).
          parts.push({ text: "", thoughtSignature: signature });
          break;
        }
        if (typeof signs === "string" && (b.text ?? "") === "" && signature !== undefined) {
          // The signature came on a non-thought part: it goes back on that part.
          const target = [...parts].reverse().find((x) => signedPartMatches(x, signs));
          if (target !== undefined) target.thoughtSignature = signature;
          else parts.push({ text: "", thoughtSignature: signature });
          break;
        }
        if ((b.text ?? "") === "" && signature === undefined) {
          report.dropped("reasoning-without-blob", p, "A reasoning block with neither text nor a signature has nothing to send.");
          break;
        }
        const part: GeminiDataPart = { text: b.text ?? "", thought: true };
        if (signature !== undefined) part.thoughtSignature = signature;
        parts.push(part);
        break;
      }
      case "tool-call": {
        if (b.providerExecuted === true) {
          dropped.add(b.toolCallId);
          report.dropped(
            "provider-executed-tool",
            p,
            `"${b.name}" ran inside the provider; Gemini has no form for another provider's server-run call (its result is dropped too).`,
          );
          break;
        }
        const args = isJsonObject(b.input) ? b.input : wrapArgs(p, b.input, report);
        const call: GeminiDataPart["functionCall"] = { name: b.name, args };
        // A call Gemini gave no id is answered by name and position (§8 item 2): no id either way.
        if (providerCallIndex(b) === undefined) call.id = b.toolCallId;
        const part: GeminiDataPart = { functionCall: call };
        if (b.signature !== undefined) {
          if (own) part.thoughtSignature = b.signature;
          else report.dropped("foreign-blob", p, `A call signature of "${p.provider}" is not sent to Gemini (§13.2).`, "signature");
        }
        parts.push(part);
        break;
      }
      case "tool-result":
        if (!dropped.has(b.toolCallId)) report.dropped("provider-executed-tool", p, "A server-tool result has no Gemini form.");
        break;
      case "code": {
        if (b.language.toLowerCase() === "python") parts.push({ executableCode: { language: enums.Language.PYTHON, code: b.code } });
        else {
          // Gemini's ExecutableCode.language is a closed enum (§2 code-language note): other code is text.
          report.changed("converted-block", p, `Code in "${b.language}" was sent as text (Gemini executable code is PYTHON only).`);
          parts.push({ text: "```" + b.language + "\n" + b.code + "\n```" });
        }
        break;
      }
      case "code-result":
        parts.push({
          codeExecutionResult: {
            outcome:
              b.outcome === "ok"
                ? enums.Outcome.OUTCOME_OK
                : b.outcome === "deadline_exceeded"
                  ? enums.Outcome.OUTCOME_DEADLINE_EXCEEDED
                  : enums.Outcome.OUTCOME_FAILED,
            output: b.output,
          },
        });
        break;
      case "image":
      case "audio":
      case "file":
      case "document": {
        const part = mediaPart(b.source, report, p);
        if (part !== undefined) parts.push(part);
        break;
      }
      default:
        parts.push(...asText(p, report));
    }
  }
  return parts;
}

function wrapArgs(p: PlacedBlock, input: unknown, report: Reporter): Record<string, unknown> {
  report.changed(
    "converted-block",
    p,
    "Gemini function-call args are an object: the call's input was sent as { input: <value> }.",
    "input",
  );
  return { input };
}

/** A client result as a functionResponse part (§2.1): `output` (or `error`) for the model. */
function functionResponse(r: PlacedResult, report: Reporter): GeminiDataPart {
  const facing = modelFacing(r, report);
  const texts: string[] = [];
  const media: GeminiFunctionResponsePart[] = [];
  facing.content.forEach(({ block: b, index: i }) => {
    if (b.type === "image" || b.type === "audio" || b.type === "file" || b.type === "document") {
      const part = mediaPart(b.source, report, r, `content[${i}]`);
      if (part?.inlineData !== undefined) media.push({ inlineData: part.inlineData });
      else if (part?.fileData !== undefined) media.push({ fileData: part.fileData });
      return;
    }
    const text = b.type === "provider-raw" ? undefined : blockAsText(b);
    if (text === undefined) report.dropped("unsupported-block", r, `A ${b.type} block of the result has no Gemini form.`, `content[${i}]`);
    else if (text !== "") {
      if (b.type !== "text") report.changed("converted-block", r, `A ${b.type} block of the result was sent as text.`, `content[${i}]`);
      texts.push(text);
    }
  });
  const text = texts.length > 0 ? texts.join("\n") : facing.fallbackText;
  // Gemini reads `output` / `error` keys of the response object; the structured form is the output.
  const response: Record<string, unknown> = {};
  const key = facing.isError ? "error" : "output";
  if (facing.structured !== undefined) {
    response[key] = facing.structured;
    if (text !== undefined) response.content = text;
  } else response[key] = text ?? "";
  const call = r.call.block;
  const fr: NonNullable<GeminiDataPart["functionResponse"]> = { name: call.name, response };
  if (providerCallIndex(call) === undefined) fr.id = call.toolCallId;
  if (media.length > 0) fr.parts = media;
  return { functionResponse: fr };
}
