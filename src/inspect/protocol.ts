/**
 * What the inspector's server sends its page (docs/inspect.md): the shapes of the JSON answers of
 * `/api/*`. The server computes every value with the library; the page only renders these, so this
 * file holds types alone (the page bundle imports nothing else from the package), and the shapes the
 * CLI hands the server (a loaded source).
 */
import type { Lenient } from "../validate/index.js";

/** `/api/config`: what the page needs before it shows anything. */
export interface InspectConfig {
  /** Largest upload the server takes, bytes. */
  maxUploadBytes: number;
  /** The formats a file may be read as (`--from`'s names: agjson and every facet). */
  formats: readonly string[];
}

/** One record of a stream: a parsed value, or the text that could not be read and why. */
export type InspectRecord = { value: unknown; text?: string; natives?: number[] } | { error: string; text?: string };

/** What a stream's source is (DocSummary minus the counts). */
export interface DocMeta {
  name: string;
  source: string;
  live?: boolean;
  note?: string;
}

/**
 * A source read whole (a file, an upload) or opened for a live stream: its records, the native
 * chunks they were normalized from, or a reduce result with its validation issues.
 */
export interface LoadedSource {
  meta: DocMeta;
  records?: InspectRecord[];
  natives?: unknown[];
  result?: { value: Lenient.AgReduceResult; issues: EventIssue[] };
}

/** One open stream (a tab of the page). */
export interface DocSummary {
  id: string;
  /** File name, `stdin`, an upload's name, or the live stream's label. */
  name: string;
  /** What was read: `AgEvent stream`, `anthropic (normalized)`, `AgReduceResult`, `live: POST /`. */
  source: string;
  /** Events on the Timeline. */
  count: number;
  live: boolean;
  /** A line about how the input was read (the facet detected, records that were no JSON). */
  note?: string;
}

/** One Timeline row: an AgEvent (or a record that is not one) with its marks. */
export interface TimelineRow {
  /** Position in the stream (0-based); the Timeline's row is `index + 1` (aria-rowindex less the header). */
  index: number;
  seq: number | null;
  type: string;
  turn?: string;
  message?: string;
  block?: string;
  tool?: string;
  /** Issue counts: strict validation, lenient validation, fold (reduce). */
  strict: number;
  lenient: number;
  fold: number;
  /** `needs` where the fold asked for a snapshot resync (INV-SEQ, §5.0), `done` where a snapshot ended one. */
  resync?: "needs" | "done";
}

export interface RowsAnswer {
  /** Rows matching the filter (the grid's aria-rowcount less its header row). */
  total: number;
  offset: number;
  rows: TimelineRow[];
}

/** One line of a pretty-printed JSON value, with the JSON Pointer of the value it starts. */
export interface JsonLine {
  text: string;
  pointer: string;
}

/** A validation (strict / lenient) or fold issue of one event. */
export interface EventIssue {
  source: "strict" | "lenient" | "fold" | "record";
  /** JSON Pointer into the event ("" the event itself). */
  path: string;
  message: string;
  /** JSON Schema keyword, or the fold's invariant (INV-SEQ …). */
  rule: string;
  /** The spec section (`§4`, `§5.0`). */
  spec: string;
  /** In an EventAnswer: the line of `lines` the issue sits under (the deepest value on its path). */
  line?: number;
}

export interface EventAnswer {
  index: number;
  seq: number | null;
  type: string;
  lines: JsonLine[];
  issues: EventIssue[];
  /** For a normalized source: the native chunk(s) whose push emitted this event. */
  natives?: { index: number; lines: JsonLine[] }[];
}

/** One conversation part, already reduced to text (the page never parses stream content). */
export type ConversationPart =
  | { kind: "text"; text: string; citations?: { label: string; target: string }[] }
  | { kind: "reasoning"; text: string }
  | { kind: "tool-call"; id: string; name: string; input: string; result?: { outcome: string; text: string } }
  | { kind: "tool-result"; id: string; outcome: string; text: string }
  | { kind: "other"; type: string; json: string };

export interface ConversationMessage {
  id: string;
  role: string;
  turn?: string;
  agent?: string;
  parts: ConversationPart[];
}

export interface ConversationTurn {
  turn: string;
  outcome?: string;
  finishReason?: string;
  usage?: string;
  cost?: string;
  asks: string[];
}

export interface FoldAnswer {
  /** The event the fold stops after (-1: before the first). */
  at: number;
  needsResync: boolean;
  /** Messages of the fold, and how many of the last ones were sent (a tool result shows inside its call). */
  messagesTotal: number;
  messagesShown: number;
  messages: ConversationMessage[];
  turns: ConversationTurn[];
  artifacts: { id: string; name?: string; text: string }[];
  state?: string;
  foldErrors: number;
}

export interface Problem {
  index: number;
  seq: number | null;
  type: string;
  issue: EventIssue;
}

export interface ProblemsAnswer {
  counts: { strict: number; lenient: number; fold: number; record: number };
  /** Problems listed (the first `items.length` of `total`). */
  total: number;
  items: Problem[];
}

/** One protocol the stream was converted to. */
export interface ProtocolView {
  name: string;
  /** How many items the bridge made. */
  count: number;
  /** `ok`, a failure message, or why it could not run (a missing optional peer). */
  verdict?: { ok: boolean; text: string };
  /** The first items, as one JSON text each. */
  items: string[];
}

export interface ProtocolsAnswer {
  protocols: ProtocolView[];
}

export interface NextRequestView {
  target: string;
  /** The request, pretty JSON (cut past a limit, said so), or absent when reinput refused. */
  request?: string;
  error?: string;
  report: { action: string; reason: string; where: string; detail: string }[];
}

export interface NextAnswer {
  /** The fold the requests are built from (its last event). */
  at: number;
  targets: NextRequestView[];
}
