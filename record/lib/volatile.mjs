// What `make record-check` ignores when comparing a fresh recording with the committed one
// (docs/record.md "Volatile fields"). Everything else must be stable across runs.

/** Object keys whose values (of any type) are clocks, durations, timing statistics or version strings. */
export const VOLATILE_KEYS = new Set([
  "timestamp",
  "created_at",
  "createdAt",
  "created",
  "updatedAt",
  "startedAt",
  "completedAt",
  "lastUpdated",
  "performance",
  "version",
  "sdkVersion",
  "userAgent",
  "user-agent",
  // Claude Code frames: when each frame was written, when a background task started and ended.
  "written_at",
  "start_time",
  "end_time",
]);

/** Key suffixes that name a duration or a rate (`stepTimeMs`, `duration_ms`, `outputTokensPerSecond`). */
export const VOLATILE_KEY_SUFFIX = /(Ms|_ms|PerSecond)$/;

/**
 * Values masked wherever they appear: random ids (UUIDs, the AI SDK's generated ids), ISO-8601
 * instants and the replay server's port. Each distinct value becomes a numbered placeholder in
 * order of first appearance, so a recording that reuses one id in two places must still reuse it.
 */
export const VOLATILE_VALUES = [
  { name: "uuid", re: /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi },
  { name: "instant", re: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)/g },
  { name: "port", re: /127\.0\.0\.1:\d+/g },
  { name: "ai-sdk-id", re: /\b(?:aitxt|aiobj|msg|id)-[A-Za-z0-9]{16,24}\b/g },
  // LangGraph interrupt ids: an XXH3-128 of the task namespace, which embeds a per-run task id.
  { name: "hash128", re: /\b[0-9a-f]{32}\b/g },
  // Claude Code's subagent / background-task ids (`a` + 16 hex digits) and task run ids.
  { name: "claude-agent-id", re: /\ba[0-9a-f]{16}\b/g },
  { name: "claude-run-id", re: /\b[0-9a-z]{9}-[0-9a-f]{8}\b/g },
  // Claude Code's per-process messaging socket (named by its pid).
  { name: "pid-socket", re: /cc-socks\/\d+\.sock/g },
];

function maskKeys(value) {
  if (Array.isArray(value)) return value.map(maskKeys);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, VOLATILE_KEYS.has(k) || VOLATILE_KEY_SUFFIX.test(k) ? `<${k}>` : maskKeys(v)]),
    );
  }
  return value;
}

/**
 * The lines of one recording file with every volatile field masked: `.ndjson` line by line,
 * `.json` as one document (pretty-printed, so a difference still points at a line).
 */
export function maskVolatile(text, isNdjson) {
  const docs = isNdjson
    ? text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l))
    : [JSON.parse(text)];
  const seen = new Map();
  const placeholder = (kind, value) => {
    const key = `${kind}\u0000${value}`;
    if (!seen.has(key)) seen.set(key, `<${kind}#${[...seen.keys()].filter((k) => k.startsWith(kind + "\u0000")).length + 1}>`);
    return seen.get(key);
  };
  const lines = docs.map((d) => JSON.stringify(maskKeys(d), null, isNdjson ? 0 : 2));
  return lines
    .map((l) => VOLATILE_VALUES.reduce((s, { name, re }) => s.replace(re, (m) => placeholder(name, m)), l))
    .join("\n")
    .split("\n");
}
