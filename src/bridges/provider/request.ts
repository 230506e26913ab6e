/**
 * The streamed provider request for one turn: the conversation through re-input (`agjson/reinput`:
 * toAnthropic / toOpenAIResponses / toOpenAIChat / toGemini) plus the model, `stream`, and each
 * field of the AgInput's run configuration (§3 AgRunConfig) where the target API has a place for it.
 * A field with no place is named in `unplaced`, never sent under a guessed name.
 */
import type { AgBlock, AgMessage, AgRunConfig, AgToolDef } from "../../../generated/lenient-types.js";
import {
  REINPUT_TARGETS,
  toAnthropic,
  toGemini,
  toOpenAIChat,
  toOpenAIResponses,
  type ReinputReportEntry,
  type ReinputTarget,
} from "../../reinput/index.js";

/** The provider APIs a provider source speaks: the re-input targets, each with its normalizer facet of the same name. */
export type ProviderApi = ReinputTarget;
export const PROVIDER_APIS: readonly ProviderApi[] = REINPUT_TARGETS;

/** True when `name` is a provider API a provider source speaks. */
export function isProviderApi(name: string): name is ProviderApi {
  return (PROVIDER_APIS as readonly string[]).includes(name);
}

/** What {@link buildProviderRequest} needs besides the conversation. */
export interface ProviderRequestOptions {
  /** The model id (Gemini names it in the URL instead; see provider-source.ts). */
  model: string;
  /** Anthropic `max_tokens` when the run configuration gives none (the API requires it). */
  defaultMaxTokens: number;
  /** `"error"` or `"repair"` (re-input's `onInvalid`): what to do with an unanswered call or a stray result. */
  onInvalid: "error" | "repair";
}

/** The request body, re-input's report, and the run configuration fields the target has no place for. */
export interface ProviderRequest {
  body: Record<string, unknown>;
  report: ReinputReportEntry[];
  unplaced: string[];
}

type Json = Record<string, unknown>;

/** The id of the system message a run's `system` and `context` become (§3: run context reverts to AgBlock[]). */
export const RUN_SYSTEM_MESSAGE_ID = "agjson:run-system";

/**
 * The run's `system` prompt and `context` blocks as one leading system message, so re-input places
 * them where each target keeps its system prompt (Anthropic `system`, a system item / message,
 * Gemini `systemInstruction`).
 */
function runSystemMessage(run: AgRunConfig | undefined): AgMessage | undefined {
  const blocks: AgBlock[] = [];
  if (typeof run?.system === "string" && run.system !== "") blocks.push({ type: "text", text: run.system });
  else if (Array.isArray(run?.system)) blocks.push(...run.system);
  if (run?.context !== undefined) blocks.push(...run.context);
  return blocks.length > 0 ? { id: RUN_SYSTEM_MESSAGE_ID, role: "system", content: blocks } : undefined;
}

/** Tools the model may call: app-only tools (§3 AgToolDef.uiVisibility) and provider-run ones are not offered. */
function modelTools(run: AgRunConfig | undefined, unplaced: string[]): AgToolDef[] {
  const tools: AgToolDef[] = [];
  (run?.tools ?? []).forEach((t, i) => {
    if (t.uiVisibility !== undefined && !t.uiVisibility.includes("model"))
      unplaced.push(`run.tools[${i}] (${t.name}): app-only (uiVisibility), not offered to the model`);
    else if (t.providerExecuted === true) unplaced.push(`run.tools[${i}] (${t.name}): providerExecuted, no client tool definition to send`);
    else tools.push(t);
  });
  return tools;
}

function anthropicBody(run: AgRunConfig | undefined, opts: ProviderRequestOptions, unplaced: string[]): Json {
  const body: Json = { model: opts.model, max_tokens: run?.maxTokens ?? opts.defaultMaxTokens, stream: true };
  const tools = modelTools(run, unplaced);
  if (tools.length > 0)
    body.tools = tools.map((t) => ({
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      input_schema: t.inputSchema,
      ...(t.strict !== undefined ? { strict: t.strict } : {}),
    }));
  const choice = run?.toolChoice;
  if (choice !== undefined)
    body.tool_choice = typeof choice === "object" ? { type: "tool", name: choice.name } : { type: choice === "required" ? "any" : choice };
  if (run?.temperature !== undefined) body.temperature = run.temperature;
  if (run?.topP !== undefined) body.top_p = run.topP;
  if (run?.stopSequences !== undefined) body.stop_sequences = run.stopSequences;
  const reasoning = run?.reasoning;
  if (reasoning?.mode === "disabled") body.thinking = { type: "disabled" };
  else if (reasoning?.mode === "enabled") {
    if (reasoning.budgetTokens !== undefined) body.thinking = { type: "enabled", budget_tokens: reasoning.budgetTokens };
    else unplaced.push("run.reasoning: Anthropic extended thinking needs budgetTokens");
    if (reasoning.effort !== undefined) unplaced.push("run.reasoning.effort: Anthropic takes a token budget, not an effort");
  }
  if (run?.responseFormat !== undefined)
    unplaced.push("run.responseFormat: Anthropic's structured output is a beta behind its own header; not sent");
  return body;
}

function responsesBody(run: AgRunConfig | undefined, opts: ProviderRequestOptions, unplaced: string[]): Json {
  const body: Json = { model: opts.model, stream: true };
  const tools = modelTools(run, unplaced);
  if (tools.length > 0)
    body.tools = tools.map((t) => ({
      type: "function",
      name: t.name,
      ...(t.description !== undefined ? { description: t.description } : {}),
      parameters: t.inputSchema,
      ...(t.strict !== undefined ? { strict: t.strict } : {}),
    }));
  const choice = run?.toolChoice;
  if (choice !== undefined) body.tool_choice = typeof choice === "object" ? { type: "function", name: choice.name } : choice;
  if (run?.maxTokens !== undefined) body.max_output_tokens = run.maxTokens;
  if (run?.temperature !== undefined) body.temperature = run.temperature;
  if (run?.topP !== undefined) body.top_p = run.topP;
  if (run?.stopSequences !== undefined) unplaced.push("run.stopSequences: the Responses API has no stop sequences");
  const reasoning = run?.reasoning;
  if (reasoning?.effort !== undefined && reasoning.mode === "enabled") body.reasoning = { effort: reasoning.effort };
  else if (reasoning !== undefined)
    unplaced.push(`run.reasoning: the Responses API takes an effort${reasoning.mode === "disabled" ? ", not an off switch" : ""}`);
  const format = run?.responseFormat;
  if (format !== undefined)
    body.text = {
      format: {
        type: "json_schema",
        name: format.name ?? "response",
        schema: format.schema,
        ...(format.strict !== undefined ? { strict: format.strict } : {}),
      },
    };
  return body;
}

function chatBody(run: AgRunConfig | undefined, opts: ProviderRequestOptions, unplaced: string[]): Json {
  const body: Json = { model: opts.model, stream: true, stream_options: { include_usage: true } };
  const tools = modelTools(run, unplaced);
  if (tools.length > 0)
    body.tools = tools.map((t) => ({
      type: "function",
      function: {
        name: t.name,
        ...(t.description !== undefined ? { description: t.description } : {}),
        parameters: t.inputSchema,
        ...(t.strict !== undefined ? { strict: t.strict } : {}),
      },
    }));
  const choice = run?.toolChoice;
  if (choice !== undefined) body.tool_choice = typeof choice === "object" ? { type: "function", function: { name: choice.name } } : choice;
  if (run?.maxTokens !== undefined) body.max_completion_tokens = run.maxTokens;
  if (run?.temperature !== undefined) body.temperature = run.temperature;
  if (run?.topP !== undefined) body.top_p = run.topP;
  if (run?.stopSequences !== undefined) body.stop = run.stopSequences;
  const reasoning = run?.reasoning;
  if (reasoning?.effort !== undefined && reasoning.mode === "enabled") body.reasoning_effort = reasoning.effort;
  else if (reasoning !== undefined)
    unplaced.push(`run.reasoning: Chat Completions takes reasoning_effort${reasoning.mode === "disabled" ? ", not an off switch" : ""}`);
  const format = run?.responseFormat;
  if (format !== undefined)
    body.response_format = {
      type: "json_schema",
      json_schema: {
        name: format.name ?? "response",
        schema: format.schema,
        ...(format.strict !== undefined ? { strict: format.strict } : {}),
      },
    };
  return body;
}

function geminiBody(run: AgRunConfig | undefined, _opts: ProviderRequestOptions, unplaced: string[]): Json {
  const body: Json = {};
  const tools = modelTools(run, unplaced);
  if (tools.length > 0)
    body.tools = [
      {
        functionDeclarations: tools.map((t) => ({
          name: t.name,
          ...(t.description !== undefined ? { description: t.description } : {}),
          parametersJsonSchema: t.inputSchema,
        })),
      },
    ];
  const choice = run?.toolChoice;
  if (choice !== undefined) {
    body.toolConfig = {
      functionCallingConfig:
        typeof choice === "object"
          ? { mode: "ANY", allowedFunctionNames: [choice.name] }
          : { mode: choice === "required" ? "ANY" : choice === "none" ? "NONE" : "AUTO" },
    };
  }
  const generation: Json = {};
  if (run?.maxTokens !== undefined) generation.maxOutputTokens = run.maxTokens;
  if (run?.temperature !== undefined) generation.temperature = run.temperature;
  if (run?.topP !== undefined) generation.topP = run.topP;
  if (run?.stopSequences !== undefined) generation.stopSequences = run.stopSequences;
  const reasoning = run?.reasoning;
  if (reasoning?.mode === "disabled") generation.thinkingConfig = { thinkingBudget: 0 };
  else if (reasoning?.mode === "enabled")
    generation.thinkingConfig = {
      includeThoughts: true,
      ...(reasoning.budgetTokens !== undefined ? { thinkingBudget: reasoning.budgetTokens } : {}),
    };
  if (reasoning?.effort !== undefined) unplaced.push("run.reasoning.effort: Gemini takes a thinking budget, not an effort");
  if (run?.responseFormat !== undefined) {
    generation.responseMimeType = "application/json";
    generation.responseJsonSchema = run.responseFormat.schema;
  }
  if (Object.keys(generation).length > 0) body.generationConfig = generation;
  return body;
}

/**
 * The request body for `messages` (the thread's conversation, the new input's messages last) and
 * the input's run configuration. Throws re-input's ReinputError for a list the target cannot take
 * (with `onInvalid: "error"`).
 */
export function buildProviderRequest(
  api: ProviderApi,
  messages: readonly AgMessage[],
  run: AgRunConfig | undefined,
  opts: ProviderRequestOptions,
): ProviderRequest {
  const unplaced: string[] = [];
  const system = runSystemMessage(run);
  const conversation = system !== undefined ? [system, ...messages] : messages;
  if (run?.model !== undefined && run.model !== opts.model)
    unplaced.push(`run.model "${run.model}": this source sends model "${opts.model}"`);
  if (run?.pushNotification !== undefined) unplaced.push("run.pushNotification: a provider API has no push notifications");
  const reinput = { onInvalid: opts.onInvalid };
  switch (api) {
    case "anthropic": {
      const { request, report } = toAnthropic(conversation, reinput);
      return { body: { ...anthropicBody(run, opts, unplaced), ...request }, report, unplaced };
    }
    case "openai-responses": {
      const { request, report } = toOpenAIResponses(conversation, reinput);
      return { body: { ...responsesBody(run, opts, unplaced), ...request }, report, unplaced };
    }
    case "openai-chat": {
      const { request, report } = toOpenAIChat(conversation, reinput);
      return { body: { ...chatBody(run, opts, unplaced), ...request }, report, unplaced };
    }
    case "gemini": {
      const { request, report } = toGemini(conversation, reinput);
      return { body: { ...request, ...geminiBody(run, opts, unplaced) }, report, unplaced };
    }
  }
}
