// The `.native.ndjson` encoding (docs/record.md "Native encoding"): JSON.stringify of what the
// framework handed over — the same bytes a user gets by serializing the event themselves — with the
// values JSON.stringify would lose or choke on spelled out so nothing vanishes silently.

/** One native event as one JSON line. */
export function encodeNative(value) {
  // The objects from the root down to the one being serialized: only a reference back into this
  // chain is a cycle; an object merely shared by two branches serializes twice, as JSON.stringify does.
  const stack = [];
  return JSON.stringify(value === undefined ? null : value, function replacer(key, v) {
    // `this[key]` is the value before toJSON ran: Date and class instances with toJSON keep their own JSON.
    const raw = this[key];
    if (typeof raw === "bigint") return { $bigint: raw.toString() };
    if (raw instanceof Error) return encodeError(raw);
    if (typeof raw === "function" || typeof raw === "symbol") return undefined;
    if (raw instanceof Uint8Array) return { $bytes: Buffer.from(raw).toString("base64") };
    if (raw instanceof Map) return { $map: [...raw.entries()] };
    if (raw instanceof Set) return { $set: [...raw.values()] };
    if (v && typeof v === "object") {
      if (stack.length > 0) {
        const at = stack.indexOf(this);
        if (at >= 0) stack.splice(at + 1);
        else stack.push(this);
        if (stack.includes(v)) return { $circular: true };
      } else stack.push(v);
    }
    return v;
  });
}

/** An Error as `{ $error: name, message, ...own enumerable fields }` (JSON.stringify alone gives `{}`). */
export function encodeError(err) {
  const out = { $error: err.constructor?.name ?? err.name ?? "Error", name: err.name, message: err.message };
  for (const [k, val] of Object.entries(err)) {
    // `state`: @openai/agents errors carry the whole resumable RunState, not part of the error's report.
    if (k === "stack" || k === "state" || typeof val === "function") continue;
    out[k] = val;
  }
  if (err.cause !== undefined) out.cause = err.cause instanceof Error ? encodeError(err.cause) : err.cause;
  return out;
}
