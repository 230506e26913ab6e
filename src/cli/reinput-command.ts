/**
 * `agjson reinput --to <target> [FILE|-]` (docs/cli.md, docs/reinput.md): reads an AgReduceResult (or the
 * `{result}` that `agjson reduce` prints, or an AgMessage[] array), validates each message
 * (lenient, §0.2), and prints the target request JSON on stdout and the report on stderr.
 * Exit 0 done; 1 a message is invalid or the list cannot become a request (ReinputError); 2 usage/IO.
 */
import { Option } from "commander";
import {
  OPENAI_SYSTEM_ROLES,
  REINPUT_BY_TARGET,
  REINPUT_INVALID_POLICIES,
  REINPUT_TARGETS,
  ReinputError,
  type OpenAISystemRole,
  type ReinputInvalidPolicy,
  type ReinputTarget,
} from "../reinput/index.js";
import type { Lenient } from "../validate/index.js";
import type { DefineCommand } from "./command.js";
import { keepAcceptedNumberTexts } from "./exact-values.js";
import { readInputBytes } from "./records.js";

export interface ReinputCliOptions {
  to: ReinputTarget;
  onInvalid: ReinputInvalidPolicy;
  systemRole?: OpenAISystemRole;
  sourceProvider?: string;
  pretty?: boolean;
}

/** The default of `--on-invalid`: a list the target cannot take is an error naming the message. */
export const REINPUT_DEFAULT_ON_INVALID = "error" satisfies ReinputInvalidPolicy;

/** Adds reinput's argument, options and action; every choice is the re-input library's own table. */
export const defineCommand: DefineCommand = (cmd, setExitCode) => {
  cmd
    .addOption(new Option("--to <target>", "the provider API the request is for").choices(REINPUT_TARGETS).makeOptionMandatory())
    .argument("[file]", "input file, or - for stdin")
    .addOption(
      new Option("--on-invalid <policy>", "error: a typed error naming the message; repair: fixed and reported")
        .choices(REINPUT_INVALID_POLICIES)
        .default(REINPUT_DEFAULT_ON_INVALID),
    )
    .addOption(new Option("--system-role <role>", "openai-*: the role system messages are sent with").choices(OPENAI_SYSTEM_ROLES))
    .option("--source-provider <name>", "provider of messages with no attribution (anthropic, openai, google)")
    .option("--pretty", "indent the JSON output")
    .action(async (file: string | undefined, opts: ReinputCliOptions) => {
      setExitCode(await reinputCommand(file, opts));
    });
};

/** The message list of the input document, or a message saying what was expected. */
function messagesIn(doc: unknown): unknown[] | string {
  if (Array.isArray(doc)) return doc;
  if (typeof doc === "object" && doc !== null) {
    if ("messages" in doc && Array.isArray(doc.messages)) return doc.messages;
    if (
      "result" in doc &&
      typeof doc.result === "object" &&
      doc.result !== null &&
      "messages" in doc.result &&
      Array.isArray(doc.result.messages)
    )
      return doc.result.messages;
  }
  return "expected an AgReduceResult ({messages, …}), the output of `agjson reduce` ({result: {messages}}), or an AgMessage[] array";
}

export async function reinputCommand(file: string | undefined, opts: ReinputCliOptions): Promise<number> {
  let bytes: Uint8Array;
  try {
    bytes = await readInputBytes(file);
  } catch (e) {
    process.stderr.write(`agjson reinput: cannot read ${file ?? "stdin"}: ${(e as Error).message}\n`);
    return 2;
  }
  return runReinput(
    bytes,
    opts,
    (s) => void process.stdout.write(s),
    (s) => void process.stderr.write(s),
  );
}

/**
 * The command on the input's bytes: the request on `out`, the report and every refusal on `err`
 * (whole lines). Never throws: bytes that are not UTF-8 (§4), not JSON or not messages are refused
 * with exit 1, naming the byte offset, the parse error or the message and field. What is replayed
 * keeps its bytes (§13.2): a number of an opaque value (tool arguments and results,
 * `providerMetadata`, replay blobs) reaches the request as the input wrote it, as JSON or inside
 * the JSON string a target wants; a number the schema types is read as its double, and said so.
 */
export async function runReinput(
  bytes: Uint8Array,
  opts: ReinputCliOptions,
  out: (text: string) => void,
  errOut: (text: string) => void,
): Promise<number> {
  const err = (s: string): void => errOut(`agjson reinput: ${s}\n`);
  const { parseCapped, validateMessage } = await import("../validate/index.js");
  const { countNumberTexts, firstInvalidUtf8, hasInexactNumber, parseExactNumbers, stringifyExact } = await import("../wire/index.js");
  const bad = firstInvalidUtf8(bytes);
  if (bad !== -1) {
    err(`invalid UTF-8 at byte ${bad}: AgJSON is UTF-8 JSON (§4)`);
    return 1;
  }
  const bom = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const text = new TextDecoder().decode(bytes.subarray(bom));
  const parsed = parseCapped(text, { maxBytes: 256 << 20, maxDepth: 512 });
  if (!parsed.ok) {
    err(`not a JSON document: ${parsed.errors.map((e) => e.message).join("; ")}`);
    return 1;
  }
  const list = messagesIn(parsed.value);
  if (typeof list === "string") {
    err(list);
    return 1;
  }
  // The same document with each number a double cannot write back as its text (§13.2); the same
  // shape as `parsed.value`, so its list lines up message for message.
  const exact = hasInexactNumber(text) ? messagesIn(parseExactNumbers(text)) : undefined;
  const messages: Lenient.AgMessage[] = [];
  let invalid = false;
  let exactNumbers = false;
  list.forEach((m, i) => {
    // Parsed above under a depth cap: judged as the JSON value it is (§13.2), never as a hand-made object.
    const v = validateMessage(m, { posture: "lenient", parsed: true });
    if (!v.ok) {
      invalid = true;
      for (const e of v.errors) err(`message ${i}: ${e.path || "/"} ${e.message} (${e.keyword})`);
      return;
    }
    const kept = Array.isArray(exact)
      ? keepAcceptedNumberTexts(exact[i], (x) => {
          const checked = validateMessage(x, { posture: "lenient", parsed: true });
          return checked.ok ? { ok: true, value: checked.message } : checked;
        })
      : undefined;
    if (kept === undefined || kept.kept === 0) {
      messages.push(v.message);
      if (kept === undefined && Array.isArray(exact) && countNumberTexts(exact[i]) > 0)
        err(`message ${i}: its numbers could not be kept as written and are read as their nearest doubles (§13.2)`);
    } else {
      messages.push(kept.value);
      exactNumbers = true;
    }
    // A number the schema types (an index, a count) is the double it was validated as, as in `agjson reduce`.
    for (const path of kept?.doubled ?? [])
      err(
        `message ${i}: ${path || "/"}: a number the schema types is read as its nearest double; only opaque values keep their text (§13.2)`,
      );
  });
  if (invalid) return 1;
  const options = {
    onInvalid: opts.onInvalid,
    ...(opts.sourceProvider !== undefined ? { sourceProvider: opts.sourceProvider } : {}),
    // Read by the OpenAI targets only.
    ...(opts.systemRole !== undefined ? { systemRole: opts.systemRole } : {}),
  };
  try {
    const result = REINPUT_BY_TARGET[opts.to](messages, options);
    const indent = opts.pretty ? 2 : undefined;
    out((exactNumbers ? stringifyExact(result.request, indent) : JSON.stringify(result.request, null, indent)) + "\n");
    for (const e of result.report) {
      const where = `message "${e.messageId}" (#${e.messageIndex})${e.blockIndex !== undefined ? ` block ${e.blockIndex}${e.blockType ? ` (${e.blockType})` : ""}` : ""}${e.field ? ` ${e.field}` : ""}`;
      errOut(`reinput: ${e.action} [${e.reason}] ${where}: ${e.detail}\n`);
    }
    return 0;
  } catch (e) {
    if (e instanceof ReinputError) {
      err(`${e.code}: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
