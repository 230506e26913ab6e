/**
 * Tool-call ids the target would reject, mapped once per conversation so the call and its result
 * carry the same new id. Valid ids pass through unchanged: a provider's own ids replay
 * byte-identical.
 */
import type { Reporter, BlockLocation } from "./report.js";

/** What a target accepts as a tool-call id. */
export interface IdRule {
  /** The characters allowed, as the body of a regular-expression class (`A-Za-z0-9_-`). */
  allowed: string;
  /** Longest id accepted. */
  maxLength: number;
  /** What the rule is, for the report. */
  describe: string;
}

/** FNV-1a 32-bit, as 8 hex digits: a short stable suffix that keeps mapped ids distinct. */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Maps ids for one conversion. */
export class IdMapper {
  private readonly mapped = new Map<string, string>();
  private readonly used = new Set<string>();

  constructor(
    private readonly rule: IdRule,
    private readonly report: Reporter,
  ) {}

  /** The id to send for `id` (the same for every call), reporting the first change. */
  map(id: string, at: BlockLocation): string {
    const known = this.mapped.get(id);
    if (known !== undefined) return known;
    let out = id;
    if (!this.valid(id)) {
      const cleaned = id.replace(new RegExp(`[^${this.rule.allowed}]`, "g"), "_");
      out = cleaned.length > 0 && cleaned.length <= this.rule.maxLength ? cleaned : `call_${hash(id)}`;
      if (out.length > this.rule.maxLength) out = out.slice(0, this.rule.maxLength);
    }
    // Two different ids never collapse to one (a valid id equal to an earlier mapped one included).
    if (this.used.has(out)) out = `${out.slice(0, Math.max(1, this.rule.maxLength - 9))}_${hash(id)}`;
    this.used.add(out);
    this.mapped.set(id, out);
    if (out !== id)
      this.report.changed(
        "id-remapped",
        at,
        `toolCallId "${id}" is not accepted by the target (${this.rule.describe}); it is sent as "${out}" on the call and its result.`,
        "toolCallId",
      );
    return out;
  }

  private valid(id: string): boolean {
    return id.length > 0 && id.length <= this.rule.maxLength && new RegExp(`^[${this.rule.allowed}]+$`).test(id);
  }
}
