/**
 * AG-UI `RunAgentInput` → AgInput (§3): the input side of the bridge. A posted body is bounded
 * (input-caps.ts), parsed, checked with `@ag-ui/core`'s own `RunAgentInputSchema`, and projected
 * default-deny: a field lands in the AgInput only where §3 has a place for it; a well-formed field
 * with no place is dropped and named in `dropped`; anything malformed or over a cap is refused with a
 * problem naming the field (JSON Pointer into the RunAgentInput). The projection is then validated
 * as an AgInput (strict, producer posture): the bridge never hands an agent host an input the spec
 * refuses. docs/bridges/ag-ui.md "Input: RunAgentInput → AgInput" has the table.
 */
import type { FieldOf } from "../../../generated/schema-facts.js";
import type { AgBlock, AgHitlAnswer, AgInput, AgToolDef } from "../../../generated/types.js";
import type * as L from "../../../generated/lenient-types.js";
import type { Problem, ValidationIssue } from "../../gateway/index.js";
import { SPEC_VERSION, utf8Length, validateInput } from "../../validate/index.js";
import { exceedsJsonDepth } from "../../wire/json-depth.js";
import { AGJSON_METADATA_KEY, INTERRUPT_ASK_KEY } from "./carry.js";
import { resolveAgUiInputCaps, type AgUiInputCaps } from "./input-caps.js";
import { fromAgUiMessages } from "./messages.js";
import { agUiProblem } from "./problem.js";
import { AG_UI_PROTOCOL_MAJOR, AgUiVocabularyError, protocolMajor, type ResumeEntry, type RunAgentInput } from "./vocabulary.js";
import { isRecord } from "../../json-guards.js";

/**
 * The part of `@ag-ui/core/schemas` the input side uses: its zod `RunAgentInputSchema`, by the shape
 * of `safeParse`. Written out rather than `typeof import("@ag-ui/core/schemas")` so this entry's
 * declarations name no zod type: a user of the output side (`toAgUi`) type-checks with `@ag-ui/core`
 * alone; only the input side needs `zod` installed, at run time.
 */
export interface AgUiSchemas {
  RunAgentInputSchema: { safeParse(value: unknown): { success: true; data: RunAgentInput } | AgUiSchemaFailure };
  /** Checks every AG-UI event the server sends (the AG-UI endpoint, handler.ts). */
  EventSchemas: { safeParse(value: unknown): { success: true } | AgUiSchemaFailure };
}

/** A zod `safeParse` refusal, by the fields read from it. */
export interface AgUiSchemaFailure {
  success: false;
  error: { issues: readonly { path: readonly PropertyKey[]; message: string; code: string }[] };
}

let schemas: Promise<AgUiSchemas> | undefined;

/**
 * `@ag-ui/core/schemas` (zod), loaded once. It needs `zod` beside `@ag-ui/core`; a missing peer is
 * an AgUiVocabularyError naming the install, never a server that accepts unchecked input.
 */
export function loadAgUiSchemas(): Promise<AgUiSchemas> {
  schemas ??= (import("@ag-ui/core/schemas") satisfies Promise<AgUiSchemas>).catch((error: unknown) => {
    schemas = undefined;
    throw new AgUiVocabularyError(
      `the AG-UI input check needs @ag-ui/core's schemas, which need zod: npm install "@ag-ui/core@^${AG_UI_PROTOCOL_MAJOR}" zod (${error instanceof Error ? error.message : String(error)})`,
    );
  });
  return schemas;
}

/** How the projection treats what a client may send but §3 gives no unconditional place. */
export interface AgInputProjectionOptions {
  /**
   * `forwardedProps` ("application-specific values passed through to the agent"): `"drop"` (default)
   * or `"metadata"`, which puts them under the AgInput `metadata["ag-ui/forwardedProps"]`.
   */
  forwardedProps?: "drop" | "metadata";
  /**
   * Restore an AgMessage carried whole under a message's `metadata.agjson.message` (what this bridge's
   * MESSAGES_SNAPSHOT sends) instead of mapping the AG-UI message field by field. Default false: a
   * client is untrusted, and a carried message could hold fields its AG-UI form cannot.
   */
  honorCarry?: boolean;
}

/** Options of a RunAgentInput reader. */
export interface RunAgentInputReadOptions extends AgInputProjectionOptions {
  /** Caps (defaults and hard maxima in input-caps.ts). */
  caps?: Partial<AgUiInputCaps>;
}

/** A read RunAgentInput: the AgInput it projects to, the checked original, and what was dropped. */
export type RunAgentInputRead =
  | { ok: true; input: AgInput; runAgentInput: RunAgentInput; dropped: string[] }
  | { ok: false; problem: Problem };

function pointer(path: readonly PropertyKey[]): string {
  return path.map((k) => `/${String(k).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

function jsonBytes(x: unknown): number {
  return x === undefined ? 0 : utf8Length(JSON.stringify(x));
}

/**
 * `JSON.parse` keeps a `"__proto__"` key as a plain own key, and the caps read own keys only; but
 * zod 3 builds each object the AG-UI schema defines by assignment, and assigning `__proto__` sets the
 * built object's prototype: a `__proto__` holding `state`, `resume` or `parentRunId` would then be
 * read through it, past every cap and check. Every object of the schema's output gets its plain
 * prototype back. Returns every object of the output, for {@link protoKeysRebuilt}.
 */
function restorePrototypes(root: unknown): Set<object> {
  const objects = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const x = stack.pop();
    if (typeof x !== "object" || x === null || objects.has(x)) continue;
    objects.add(x);
    if (!Array.isArray(x)) {
      const proto: unknown = Object.getPrototypeOf(x);
      if (proto !== Object.prototype && proto !== null) Object.setPrototypeOf(x, Object.prototype);
    }
    for (const v of Array.isArray(x) ? x : Object.values(x)) if (typeof v === "object" && v !== null) stack.push(v);
  }
  return objects;
}

const pointerStep = (k: string) => k.replace(/~/g, "~0").replace(/\//g, "~1");

/** Where a node sits: its parent's place and its key; the JSON Pointer is spelled out only for a hit. */
type Place = { up: Place; key: string } | undefined;

function pointerOf(place: Place): string {
  let path = "";
  for (let p = place; p !== undefined; p = p.up) path = `/${pointerStep(p.key)}${path}`;
  return path;
}

/** The objects of a parsed body holding an own `"__proto__"` key, with their JSON Pointers. */
function ownProtoKeys(root: unknown): Map<object, string> {
  const found = new Map<object, string>();
  const stack: [unknown, Place][] = [[root, undefined]];
  while (stack.length > 0) {
    const [x, place] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    if (!Array.isArray(x) && Object.hasOwn(x, "__proto__")) found.set(x, pointerOf(place));
    const entries = Array.isArray(x) ? x.map((v, i) => [String(i), v] as const) : Object.entries(x);
    for (const [key, v] of entries) if (typeof v === "object" && v !== null) stack.push([v, { up: place, key }]);
  }
  return found;
}

/**
 * A `"__proto__"` key on an object the schema rebuilt (the input, a message, a tool call, a content
 * part, a tool, a context or resume entry) has no place in an AgInput (default deny): each is named
 * in `dropped`, whatever zod did with it (zod 3 assigns it, {@link restorePrototypes} undoes that;
 * zod 4 leaves it out). An opaque value (`state`, `forwardedProps`, tool `parameters`, a resume
 * `payload`) comes out of the schema as the same object (`output` holds it), its `__proto__` key an
 * ordinary one, and is not named.
 */
function protoKeysRebuilt(protoKeys: Map<object, string>, output: Set<object>): string[] {
  return [...protoKeys]
    .filter(([object]) => !output.has(object))
    .map(([, path]) => `${path}/__proto__: not a field (a key that would replace the object's prototype)`);
}

/** Deepest nesting of a parsed value, without recursion; stops early past `limit`. */
function depthOf(root: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [x, d] = stack.pop()!;
    if (typeof x !== "object" || x === null) continue;
    const depth = d + 1;
    if (depth > max) {
      max = depth;
      if (max > limit) return max;
    }
    for (const v of Array.isArray(x) ? x : Object.values(x)) if (typeof v === "object" && v !== null) stack.push([v, depth]);
  }
  return max;
}

const tooLarge = (path: string, name: keyof AgUiInputCaps, value: number, what: string): RunAgentInputRead => ({
  ok: false,
  problem: agUiProblem(
    "payload-too-large",
    `${path === "" ? "" : `${path} `}${what}, over the ${name} cap of ${value}; send less, or raise the cap (hard maximum in docs/bridges/ag-ui.md)`,
    {
      issues: [{ path, message: `${what} (cap ${name} = ${value})`, keyword: name }],
      limit: { name, value },
    },
  ),
});

/**
 * The aggregate caps, checked on the parsed body before the schema runs (so a 100k-entry array costs
 * one length read): entry counts and the byte size of state, tools, context and forwarded props.
 */
function checkAggregates(x: unknown, caps: AgUiInputCaps, opts: AgInputProjectionOptions): RunAgentInputRead | undefined {
  if (!isRecord(x)) return undefined;
  const counts: [string, keyof AgUiInputCaps][] = [
    ["messages", "maxMessages"],
    ["tools", "maxTools"],
    ["context", "maxContext"],
    ["resume", "maxResume"],
  ];
  for (const [field, cap] of counts) {
    const v = x[field];
    if (Array.isArray(v) && v.length > caps[cap]) return tooLarge(`/${field}`, cap, caps[cap], `has ${v.length} entries`);
  }
  const stateBytes = jsonBytes(x.state);
  if (stateBytes > caps.maxStateBytes) return tooLarge("/state", "maxStateBytes", caps.maxStateBytes, `is ${stateBytes} bytes`);
  const each: [string, keyof AgUiInputCaps][] = [
    ["tools", "maxToolBytes"],
    ["context", "maxContextBytes"],
  ];
  for (const [field, cap] of each) {
    const v = x[field];
    if (!Array.isArray(v)) continue;
    for (let i = 0; i < v.length; i++) {
      const n = jsonBytes(v[i]);
      if (n > caps[cap]) return tooLarge(`/${field}/${i}`, cap, caps[cap], `is ${n} bytes`);
    }
  }
  if (opts.forwardedProps === "metadata") {
    const n = jsonBytes(x.forwardedProps);
    if (n > caps.maxForwardedPropsBytes)
      return tooLarge("/forwardedProps", "maxForwardedPropsBytes", caps.maxForwardedPropsBytes, `is ${n} bytes`);
  }
  return undefined;
}

/**
 * Keys each AG-UI message role has a §3.2 home for; any other key is dropped (and named). AG-UI's
 * message fields (its vocabulary, not AgJSON's: `toolCalls`, `encryptedValue`, `activityType`, …).
 */
const MESSAGE_KEYS: Record<string, ReadonlySet<string>> = {
  user: new Set(["id", "role", "content"]),
  system: new Set(["id", "role", "content"]),
  developer: new Set(["id", "role", "content"]),
  assistant: new Set(["id", "role", "content", "toolCalls"]),
  tool: new Set(["id", "role", "content", "toolCallId", "error"]),
  reasoning: new Set(["id", "role", "content", "encryptedValue"]),
  activity: new Set(["id", "role", "activityType", "content"]),
};

/** RunAgentInput's fields (AG-UI's vocabulary; `threadId`, `state`, `messages` share AgStartInput's words). */
const TOP_LEVEL = new Set([
  "threadId",
  "runId",
  "protocolVersion",
  "parentRunId",
  "state",
  "messages",
  "tools",
  "context",
  "forwardedProps",
  "resume",
]);

/** Most entries listed in `dropped`; the rest are counted in its last entry. */
const MAX_DROPPED = 50;

/**
 * The AgHitlAnswer fields a resume entry's `metadata.agjson` may bring back, each read above with its
 * §3 type: the continuation handles an interrupt carried (§3.1, §13.1) and the declined status. A
 * choice of §3.1, not every AgHitlAnswer field (askId, status and reply are the entry's own); typed
 * against the generated AgHitlAnswer.
 */
const ANSWER_READ_BACK: ReadonlySet<string> = new Set<FieldOf<AgHitlAnswer>>(["token", "requestState", "reason", "ordinal", "status"]);

function hitlAnswerOf(entry: ResumeEntry, index: number, dropped: string[]): AgHitlAnswer {
  const answer: AgHitlAnswer = { askId: entry.interruptId, status: entry.status };
  if (entry.payload !== undefined) answer.reply = entry.payload;
  // §3.1 / §13.1: the continuation handles an interrupt carried (metadata.agjson on the way out) come
  // back on the resume entry's metadata.agjson; only those, each of its §3 type, are read. `reason`
  // there is the human's: the interrupt carries the ask's own reason under metadata.agjson.ask (D15).
  const meta = entry.metadata;
  const carried = isRecord(meta) ? meta[AGJSON_METADATA_KEY] : undefined;
  if (isRecord(carried)) {
    if (typeof carried.token === "string") answer.token = carried.token;
    if (typeof carried.requestState === "string") answer.requestState = carried.requestState;
    if (typeof carried.reason === "string") answer.reason = carried.reason;
    if (typeof carried.ordinal === "number" && Number.isInteger(carried.ordinal) && carried.ordinal >= 0) answer.ordinal = carried.ordinal;
    if (carried.status === "declined" && entry.status === "resolved") answer.status = "declined";
    // The ask's own fields the interrupt carried under their own key (D15) come back with an echoed
    // carry; they are the ask's words, not the answer's, and are not read.
    for (const k of Object.keys(carried))
      if (!ANSWER_READ_BACK.has(k) && k !== INTERRUPT_ASK_KEY)
        dropped.push(`/resume/${index}/metadata/${AGJSON_METADATA_KEY}/${k}: no AgHitlAnswer field`);
  }
  if (isRecord(meta))
    for (const k of Object.keys(meta)) if (k !== AGJSON_METADATA_KEY) dropped.push(`/resume/${index}/metadata/${k}: no AgHitlAnswer field`);
  return answer;
}

function toolDefOf(tool: RunAgentInput["tools"][number], index: number, dropped: string[]): AgToolDef {
  const def: AgToolDef = { name: tool.name, inputSchema: tool.parameters ?? { type: "object" }, source: { type: "frontend" } };
  if (tool.description !== "") def.description = tool.description;
  for (const k of Object.keys(tool))
    if (!["name", "description", "parameters"].includes(k)) dropped.push(`/tools/${index}/${k}: no AgToolDef field`);
  return def;
}

/** An AG-UI context entry as the §3 run context block a model reads: the description, then the value. */
function contextBlockOf(entry: RunAgentInput["context"][number]): AgBlock {
  return {
    type: "text",
    text: entry.description === "" ? entry.value : `${entry.description}\n${entry.value}`,
    _meta: { "ag-ui/context": { description: entry.description } },
  };
}

/**
 * The AgInput a checked RunAgentInput projects to (docs/bridges/ag-ui.md "Input"): `resume` entries
 * make a `resume` input (§3.1; the paused turn's history stays with the host, so messages, tools and
 * context are dropped), otherwise a `start` input holding the whole history, the tools as frontend
 * AgToolDefs and the context as run context blocks. `runId` is the turnId, `parentRunId` the
 * parentTurnId, `state` the shared-state echo. `dropped` names each field with no place. `parsed`:
 * `ra` was parsed from depth-capped text here, so a carried message is judged as the JSON value it
 * is (§13.2), never walked as a hand-made object.
 */
export function toAgInput(
  ra: RunAgentInput,
  opts: AgInputProjectionOptions = {},
  parsed = false,
): { input: L.AgKnownInput; dropped: string[] } {
  const dropped: string[] = [];
  for (const k of Object.keys(ra)) if (!TOP_LEVEL.has(k)) dropped.push(`/${k}: not a RunAgentInput field`);
  const envelope = {
    protocol: "agjson" as const,
    version: SPEC_VERSION,
    threadId: ra.threadId,
    turnId: ra.runId,
    ...(ra.parentRunId !== undefined ? { parentTurnId: ra.parentRunId } : {}),
    ...(ra.state !== undefined ? { state: ra.state } : {}),
    ...(opts.forwardedProps === "metadata" && ra.forwardedProps !== undefined
      ? { metadata: { "ag-ui/forwardedProps": ra.forwardedProps } }
      : {}),
  };
  if (ra.forwardedProps !== undefined && opts.forwardedProps !== "metadata")
    dropped.push('/forwardedProps: dropped by default (forwardedProps: "metadata" projects it to metadata["ag-ui/forwardedProps"])');
  // Messages carried back in metadata.agjson are read consumer-lenient, so the projection is typed
  // lenient until RunAgentInputReader checks it strict (§0.2: the producer posture).
  let input: L.AgKnownInput;
  if (ra.resume !== undefined && ra.resume.length > 0) {
    const answers = ra.resume.map((entry, i) => hitlAnswerOf(entry, i, dropped));
    if (ra.messages.length > 0) dropped.push("/messages: a resume continues the paused turn the host holds (§3.1); history is not resent");
    if (ra.tools.length > 0) dropped.push("/tools: a resume input has no run configuration (§3)");
    if (ra.context.length > 0) dropped.push("/context: a resume input has no run configuration (§3)");
    input = { ...envelope, kind: "resume", answers };
  } else {
    const skipped: string[] = [];
    ra.messages.forEach((m, i) => {
      const keys = MESSAGE_KEYS[m.role];
      for (const k of Object.keys(m)) {
        if (keys?.has(k) || (k === "metadata" && opts.honorCarry === true)) continue;
        dropped.push(`/messages/${i}/${k}: no AgMessage field for an AG-UI ${m.role} message`);
      }
    });
    const messages: L.AgMessage[] = fromAgUiMessages(ra.messages, skipped, { carry: opts.honorCarry === true, parsed });
    dropped.push(...skipped);
    const tools = ra.tools.map((t, i) => toolDefOf(t, i, dropped));
    const context = ra.context.map(contextBlockOf);
    const run = { ...(tools.length > 0 ? { tools } : {}), ...(context.length > 0 ? { context } : {}) };
    input = { ...envelope, kind: "start", messages, ...(Object.keys(run).length > 0 ? { run } : {}) };
  }
  if (dropped.length > MAX_DROPPED) dropped.splice(MAX_DROPPED, dropped.length - MAX_DROPPED, `… and ${dropped.length - MAX_DROPPED} more`);
  return { input, dropped };
}

/** Reads RunAgentInputs with one set of caps and the loaded `@ag-ui/core` schemas. */
export class RunAgentInputReader {
  readonly caps: AgUiInputCaps;
  private readonly decoder = new TextDecoder("utf-8", { fatal: true });

  constructor(
    private readonly schemas: AgUiSchemas,
    private readonly opts: RunAgentInputReadOptions = {},
  ) {
    this.caps = resolveAgUiInputCaps(opts.caps);
  }

  /** A posted body: size, depth (before parsing), UTF-8 and JSON, then {@link readValue}. */
  readBytes(bytes: Uint8Array): RunAgentInputRead {
    const caps = this.caps;
    if (bytes.byteLength > caps.maxBodyBytes)
      return tooLarge("", "maxBodyBytes", caps.maxBodyBytes, `the body is ${bytes.byteLength} bytes`);
    if (exceedsJsonDepth(bytes, caps.maxDepth)) {
      return {
        ok: false,
        problem: agUiProblem("too-deep", `the body nests deeper than ${caps.maxDepth} levels`, {
          limit: { name: "maxDepth", value: caps.maxDepth },
        }),
      };
    }
    let value: unknown;
    try {
      value = JSON.parse(this.decoder.decode(bytes));
    } catch (error) {
      return {
        ok: false,
        problem: agUiProblem(
          "malformed-json",
          `the body is not one UTF-8 JSON document: ${error instanceof Error ? error.message : String(error)}`,
        ),
      };
    }
    return this.readValue(value, false);
  }

  /**
   * A parsed RunAgentInput: depth, aggregate caps, the AG-UI schema, the protocol major, the projection.
   * `checkDepth: false` is for a value `JSON.parse` just made of depth-capped text ({@link readBytes}):
   * it is then judged as the JSON value it is, not walked as a hand-made object.
   */
  readValue(value: unknown, checkDepth = true): RunAgentInputRead {
    const caps = this.caps;
    if (checkDepth && depthOf(value, caps.maxDepth) > caps.maxDepth) {
      return {
        ok: false,
        problem: agUiProblem("too-deep", `the input nests deeper than ${caps.maxDepth} levels`, {
          limit: { name: "maxDepth", value: caps.maxDepth },
        }),
      };
    }
    const over = checkAggregates(value, caps, this.opts);
    if (over !== undefined) return over;
    const protoKeys = ownProtoKeys(value);
    const parsed = this.schemas.RunAgentInputSchema.safeParse(value);
    if (!parsed.success) {
      const issues: ValidationIssue[] = parsed.error.issues.map((i) => ({
        path: pointer(i.path),
        message: i.message,
        keyword: i.code,
        spec: "AG-UI RunAgentInput",
      }));
      const first = issues[0];
      return {
        ok: false,
        problem: agUiProblem(
          "invalid-input",
          `@ag-ui/core's RunAgentInputSchema refuses the body${first ? ` at ${first.path || "/"}: ${first.message}` : ""}`,
          { issues },
        ),
      };
    }
    const ra: RunAgentInput = parsed.data;
    const unprototyped = protoKeysRebuilt(protoKeys, restorePrototypes(ra));
    if (ra.protocolVersion !== undefined && protocolMajor(ra.protocolVersion) !== AG_UI_PROTOCOL_MAJOR) {
      const message = `protocolVersion "${ra.protocolVersion}" is not AG-UI ${AG_UI_PROTOCOL_MAJOR}.x, the protocol this endpoint speaks`;
      return {
        ok: false,
        problem: agUiProblem("unsupported-version", message, {
          issues: [{ path: "/protocolVersion", message, keyword: "protocolVersion" }],
        }),
      };
    }
    const { input, dropped } = toAgInput(ra, this.opts, !checkDepth);
    if (unprototyped.length > 0) dropped.unshift(...unprototyped);
    // A body parsed here (depth capped before parsing) is a JSON value: `1e400` in state is the
    // Infinity JSON.parse makes of it, not a hand-made non-JSON number (§13.2); an object handed in
    // is walked as any other.
    const checked = validateInput(input, { posture: "strict", parsed: !checkDepth });
    if (!checked.ok) {
      const issues: ValidationIssue[] = checked.errors.map((e) => ({
        path: e.path,
        message: `the projected AgInput at ${e.path || "/"}: ${e.message}`,
        keyword: e.keyword,
        ...(e.spec !== undefined ? { spec: e.spec } : {}),
      }));
      return {
        ok: false,
        problem: agUiProblem(
          "invalid-input",
          `the RunAgentInput is well-formed AG-UI but its AgInput projection does not validate (§3): ${issues[0]?.message ?? ""}`,
          { issues },
        ),
      };
    }
    // The strict check's own result: the projection as the schema's types, now that they are sound.
    return { ok: true, input: checked.input, runAgentInput: ra, dropped };
  }
}

/** A reader with the `@ag-ui/core` schemas loaded; rejects with AgUiVocabularyError when they cannot be. */
export async function createRunAgentInputReader(opts: RunAgentInputReadOptions = {}): Promise<RunAgentInputReader> {
  return new RunAgentInputReader(await loadAgUiSchemas(), opts);
}
