/**
 * The same conversation as the Vercel AI SDK holds it (ModelMessage[] + instructions), so its
 * provider packages can convert it for the differential test: each replay blob goes under its
 * own provider's providerOptions namespace, as the AI SDK itself stores provider metadata.
 */
import type { ModelMessage } from "ai";
import type { AgBlock, AgMessage } from "../../generated/lenient-types.js";
import { isKnownBlock } from "../../generated/schema-facts.js";
import { messageProvider } from "./conversation.js";

type ProviderOptions = Record<string, Record<string, string>>;

function ns(provider: string | undefined): string | undefined {
  return provider === "anthropic" ? "anthropic" : provider === "openai" ? "openai" : provider === "google" ? "google" : undefined;
}

function reasoningOptions(b: Extract<AgBlock, { type: "reasoning" }>, provider: string | undefined): ProviderOptions | undefined {
  const key = ns(b.opaque?.provider ?? b.provider ?? provider);
  if (key === "anthropic" && b.opaque)
    return { anthropic: b.opaque.kind === "redacted" ? { redactedData: b.opaque.value } : { signature: b.opaque.value } };
  if (key === "openai" && b.itemId)
    return { openai: { itemId: b.itemId, ...(b.opaque ? { reasoningEncryptedContent: b.opaque.value } : {}) } };
  if (key === "google" && b.opaque) return { google: { thoughtSignature: b.opaque.value } };
  return undefined;
}

/** AgMessage[] → { instructions, messages } for `generateText`. */
export function toModelMessages(list: readonly AgMessage[]): { instructions?: string; messages: ModelMessage[] } {
  const names = new Map<string, string>();
  const system: string[] = [];
  const messages: ModelMessage[] = [];
  for (const m of list) {
    const provider = messageProvider(m, undefined);
    // Blocks of a type a later minor added (§0.2, §12) have no AI SDK form.
    const blocks = m.content.filter(isKnownBlock);
    if (m.role === "system") {
      for (const b of blocks) if (b.type === "text") system.push(b.text);
    } else if (m.role === "user") {
      messages.push({ role: "user", content: blocks.flatMap((b) => (b.type === "text" ? [{ type: "text" as const, text: b.text }] : [])) });
    } else if (m.role === "assistant") {
      const content: Extract<ModelMessage, { role: "assistant" }>["content"] = [];
      for (const b of blocks) {
        if (b.type === "text") {
          const itemId = b.providerMetadata?.itemId;
          content.push({
            type: "text",
            text: b.text,
            ...(typeof itemId === "string" && provider === "openai" ? { providerOptions: { openai: { itemId } } } : {}),
          });
        } else if (b.type === "reasoning") {
          const providerOptions = reasoningOptions(b, provider);
          content.push({ type: "reasoning", text: b.text ?? "", ...(providerOptions ? { providerOptions } : {}) });
        } else if (b.type === "tool-call") {
          names.set(b.toolCallId, b.name);
          const providerOptions: ProviderOptions = {};
          if (provider === "openai" && b.itemId) providerOptions.openai = { itemId: b.itemId };
          if (provider === "google" && b.signature) providerOptions.google = { thoughtSignature: b.signature };
          content.push({
            type: "tool-call",
            toolCallId: b.toolCallId,
            toolName: b.name,
            input: b.input,
            ...(Object.keys(providerOptions).length > 0 ? { providerOptions } : {}),
          });
        }
      }
      messages.push({ role: "assistant", content });
    } else {
      const results = blocks.flatMap((b) =>
        b.type === "tool-result"
          ? [
              {
                type: "tool-result" as const,
                toolCallId: b.toolCallId,
                toolName: names.get(b.toolCallId) ?? "tool",
                output: {
                  type: "text" as const,
                  value: b.content
                    .filter(isKnownBlock)
                    .map((c) => (c.type === "text" ? c.text : ""))
                    .join("\n"),
                },
              },
            ]
          : [],
      );
      messages.push({ role: "tool", content: results });
    }
  }
  return { ...(system.length > 0 ? { instructions: system.join("\n") } : {}), messages };
}
