/**
 * The set of ids a normalizer has used in one invoke, kept as 63-bit fingerprints in one typed
 * array instead of the strings themselves.
 *
 * §5.0 INV-BLOCK: streaming block ids and toolCallIds are unique within a fold, so a normalizer
 * remembers every id it handed out for as long as the invoke lasts — on a long recording that is
 * the one part of its state that grows with the input. As strings in a `Set` each id cost about
 * 130 bytes of heap (the string, the set entry); a fingerprint costs 8 bytes, 16 with the table's
 * spare capacity. The answers differ only on a fingerprint collision, and only one way: an id
 * never used may be taken for used, so it gets a `:n` suffix it did not need — still unique, still
 * deterministic. With 63 bits the chance of any collision among a million ids is about 5·10⁻⁸.
 */
export class IdFingerprints {
  /** Pairs (high, low) of 32-bit halves; a pair of zeros is an empty slot (`low` always has bit 0 set). */
  #slots = new Uint32Array(2 * 64);
  #count = 0;

  get size(): number {
    return this.#count;
  }

  has(id: string): boolean {
    fingerprint(id);
    const hi = fpHigh;
    const lo = fpLow;
    const slots = this.#slots;
    const mask = (slots.length >>> 1) - 1;
    for (let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const l = slots[2 * i + 1]!;
      if (l === 0) return false;
      if (l === lo && slots[2 * i] === hi) return true;
    }
  }

  /** Adds the id; false when it (or an id with the same fingerprint) was there already. */
  add(id: string): boolean {
    fingerprint(id);
    const hi = fpHigh;
    const lo = fpLow;
    if (!this.#insert(this.#slots, hi, lo)) return false;
    if (++this.#count * 2 > this.#slots.length >>> 1) this.#grow();
    return true;
  }

  #insert(slots: Uint32Array, hi: number, lo: number): boolean {
    const mask = (slots.length >>> 1) - 1;
    for (let i = (hi ^ Math.imul(lo, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const l = slots[2 * i + 1]!;
      if (l === 0) {
        slots[2 * i] = hi;
        slots[2 * i + 1] = lo;
        return true;
      }
      if (l === lo && slots[2 * i] === hi) return false;
    }
  }

  #grow(): void {
    const old = this.#slots;
    const next = new Uint32Array(old.length * 2);
    for (let i = 0; i < old.length; i += 2) if (old[i + 1] !== 0) this.#insert(next, old[i]!, old[i + 1]!);
    this.#slots = next;
  }
}

/** The last fingerprint computed (two module variables rather than an array allocated per call). */
let fpHigh = 0;
let fpLow = 0;

/**
 * Two independent 32-bit hashes of the id's UTF-16 code units (FNV-1a, and a multiply-rotate hash
 * with murmur3's finalizer); the low word's bit 0 is forced to 1 so that no fingerprint is an empty slot.
 */
function fingerprint(id: string): void {
  let a = 0x811c9dc5;
  let b = 0x27d4eb2f ^ id.length;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0xcc9e2d51);
    b = (b << 15) | (b >>> 17);
  }
  b ^= b >>> 16;
  b = Math.imul(b, 0x85ebca6b);
  b ^= b >>> 13;
  b = Math.imul(b, 0xc2b2ae35);
  b ^= b >>> 16;
  fpHigh = a >>> 0;
  fpLow = (b | 1) >>> 0;
}
