/**
 * LangGraph's interrupt ids, recomputed so a facet can tell which repeat of a node's `interrupt()`
 * an id stands for (§7 Resume binding, §8 item 6). `@langchain/langgraph` 1.x derives the id of a
 * task's n-th interrupt from the task's checkpoint namespace and n, the number of resume values the
 * task has consumed: `XXH3(n === 0 ? ns : `${ns}|${n}`)`, a 128-bit XXH3 in lower-case hex. A resumed
 * run's stream shows only the interrupt the resume answers, never the count of earlier ones; the
 * id itself carries it. This is a port of that library's own hash (`dist/hash.js`, MIT), which is
 * what the ids are made with, rather than of the reference XXH3: the two must agree bit for bit.
 */

const n = (x: number | string): bigint => BigInt(x);
const PRIME32_1 = n("0x9E3779B1");
const PRIME32_2 = n("0x85EBCA77");
const PRIME32_3 = n("0xC2B2AE3D");
const PRIME64_1 = n("0x9E3779B185EBCA87");
const PRIME64_2 = n("0xC2B2AE3D27D4EB4F");
const PRIME64_3 = n("0x165667B19E3779F9");
const PRIME64_4 = n("0x85EBCA77C2B2AE63");
const PRIME64_5 = n("0x27D4EB2F165667C5");
const PRIME_MX1 = n("0x165667919E3779F9");
const PRIME_MX2 = n("0x9FB21C651E98DF25");
const MASK128 = (n(1) << n(128)) - n(1);
const MASK64 = (n(1) << n(64)) - n(1);
const MASK32 = (n(1) << n(32)) - n(1);
const STRIPE_LEN = 64;
const ACC_NB = STRIPE_LEN / 8;

const view = (d: DataView, offset = 0): DataView => new DataView(d.buffer, d.byteOffset + offset, d.byteLength - offset);

/** XXH3's default 192-byte secret. */
const KKEY = ((hex: string) => {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return new DataView(bytes.buffer);
})(
  "b8fe6c3923a44bbe7c01812cf721ad1cded46de9839097db7240a4a4b7b3671fcb79e64eccc0e578825ad07dccff7221b8084674f743248ee03590e6813a264c3c2852bb91c300cb88d0658b1b532ea371644897a20df94e3819ef46a9deacd8a8fa763fe39c343ff9dcbbc7c70b4f1d8a51e04bcdb45931c89f7ec9d9787364eac5ac8334d3ebc3c581a0fffa1363eb170ddd51b7f0da49d316552629d4689e2b16be587d47a1fc8ff8b8d17ad031ce45cb3a8f95160428afd7fbcabb4b407e",
);

function bswap64(a: bigint): bigint {
  const scratch = new DataView(new ArrayBuffer(8));
  scratch.setBigUint64(0, a, true);
  return scratch.getBigUint64(0, false);
}
function bswap32(input: bigint): bigint {
  let a = input;
  a = ((a & n(65535)) << n(16)) | ((a & n(4294901760)) >> n(16));
  a = ((a & n(16711935)) << n(8)) | ((a & n(4278255360)) >> n(8));
  return a;
}
const mult32to64 = (a: bigint, b: bigint): bigint => ((a & MASK32) * (b & MASK32)) & MASK64;
const rotl32 = (a: bigint, b: bigint): bigint => ((a << b) | (a >> (n(32) - b))) & MASK32;
const xorshift64 = (b: bigint, shift: bigint): bigint => b ^ (b >> shift);
const inv64 = (x: bigint): bigint => (~x + n(1)) & MASK64;

function accumulate512(acc: BigUint64Array, data: DataView, key: DataView): BigUint64Array {
  for (let i = 0; i < ACC_NB; i++) {
    const dataVal = data.getBigUint64(i * 8, true);
    const dataKey = dataVal ^ key.getBigUint64(i * 8, true);
    acc[i ^ 1]! += dataVal;
    acc[i]! += mult32to64(dataKey, dataKey >> n(32));
  }
  return acc;
}
function accumulate(acc: BigUint64Array, data: DataView, key: DataView, stripes: number): BigUint64Array {
  for (let s = 0; s < stripes; s++) acc = accumulate512(acc, view(data, s * STRIPE_LEN), view(key, s * 8));
  return acc;
}
function scrambleAcc(acc: BigUint64Array, key: DataView): BigUint64Array {
  for (let i = 0; i < ACC_NB; i++) {
    let a = acc[i]!;
    a = xorshift64(a, n(47));
    a ^= key.getBigUint64(i * 8, true);
    a *= PRIME32_1;
    acc[i] = a & MASK64;
  }
  return acc;
}
function mul128Fold64(a: bigint, b: bigint): bigint {
  const lll = (a * b) & MASK128;
  return (lll & MASK64) ^ (lll >> n(64));
}
function mix2Accs(acc: BigUint64Array, key: DataView): bigint {
  return mul128Fold64(acc[0]! ^ key.getBigUint64(0, true), acc[1]! ^ key.getBigUint64(8, true));
}
function avalanche(input: bigint): bigint {
  let h = input;
  h ^= h >> n(37);
  h = (h * PRIME_MX1) & MASK64;
  h ^= h >> n(32);
  return h;
}
function avalanche64(input: bigint): bigint {
  let h = input;
  h ^= h >> n(33);
  h = (h * PRIME64_2) & MASK64;
  h ^= h >> n(29);
  h = (h * PRIME64_3) & MASK64;
  h ^= h >> n(32);
  return h;
}
function mergeAccs(acc: BigUint64Array, key: DataView, start: bigint): bigint {
  let r = start;
  for (let i = 0; i < 4; i++) r += mix2Accs(acc.slice(2 * i), view(key, 16 * i));
  return avalanche(r & MASK64);
}
function mix16B(data: DataView, key: DataView, seed: bigint): bigint {
  return mul128Fold64(
    (data.getBigUint64(0, true) ^ (key.getBigUint64(0, true) + seed)) & MASK64,
    (data.getBigUint64(8, true) ^ (key.getBigUint64(8, true) - seed)) & MASK64,
  );
}
function mix32B(acc: bigint, d1: DataView, d2: DataView, key: DataView, seed: bigint): bigint {
  let lo = acc & MASK64;
  let hi = (acc >> n(64)) & MASK64;
  lo += mix16B(d1, key, seed);
  lo ^= d2.getBigUint64(0, true) + d2.getBigUint64(8, true);
  lo &= MASK64;
  hi += mix16B(d2, view(key, 16), seed);
  hi ^= d1.getBigUint64(0, true) + d1.getBigUint64(8, true);
  hi &= MASK64;
  return (hi << n(64)) | lo;
}

function len1to3(data: DataView, key: DataView, seed: bigint): bigint {
  const len = data.byteLength;
  const combined = n(data.getUint8(len - 1)) | n(len << 8) | n(data.getUint8(0) << 16) | n(data.getUint8(len >> 1) << 24);
  const low = (combined ^ ((n(key.getUint32(0, true)) ^ n(key.getUint32(4, true))) + seed)) & MASK64;
  const bhigh = (n(key.getUint32(8, true)) ^ n(key.getUint32(12, true))) - seed;
  return ((avalanche64((rotl32(bswap32(combined), n(13)) ^ bhigh) & MASK64) & MASK64) << n(64)) | avalanche64(low);
}
function len4to8(data: DataView, key: DataView, seed: bigint): bigint {
  const len = data.byteLength;
  const l1 = data.getUint32(0, true);
  const l2 = data.getUint32(len - 4, true);
  let m =
    (((n(l1) | (n(l2) << n(32))) ^ (((key.getBigUint64(16, true) ^ key.getBigUint64(24, true)) + seed) & MASK64)) *
      (PRIME64_1 + (n(len) << n(2)))) &
    MASK128;
  m += (m & MASK64) << n(65);
  m &= MASK128;
  m ^= m >> n(67);
  return xorshift64((xorshift64(m & MASK64, n(35)) * PRIME_MX2) & MASK64, n(28)) | (avalanche(m >> n(64)) << n(64));
}
function len9to16(data: DataView, key: DataView, seed: bigint): bigint {
  const len = data.byteLength;
  const flipL = ((key.getBigUint64(32, true) ^ key.getBigUint64(40, true)) + seed) & MASK64;
  const flipH = ((key.getBigUint64(48, true) ^ key.getBigUint64(56, true)) - seed) & MASK64;
  const ll1 = data.getBigUint64(0, true);
  let ll2 = data.getBigUint64(len - 8, true);
  let m = (ll1 ^ ll2 ^ flipL) * PRIME64_1;
  const mL = (m & MASK64) + (n(len - 1) << n(54));
  m = (m & (MASK128 ^ MASK64)) | mL;
  ll2 ^= flipH;
  m += (ll2 + (ll2 & MASK32) * (PRIME32_2 - n(1))) << n(64);
  m &= MASK128;
  m ^= bswap64(m >> n(64));
  let h = (m & MASK64) * PRIME64_2;
  h += ((m >> n(64)) * PRIME64_2) << n(64);
  h &= MASK128;
  return avalanche(h & MASK64) | (avalanche(h >> n(64)) << n(64));
}
function len0to16(data: DataView, seed: bigint): bigint {
  const len = data.byteLength;
  if (len > 8) return len9to16(data, KKEY, seed);
  if (len >= 4) return len4to8(data, KKEY, seed);
  if (len > 0) return len1to3(data, KKEY, seed);
  return (
    avalanche64(seed ^ KKEY.getBigUint64(64, true) ^ KKEY.getBigUint64(72, true)) |
    (avalanche64(seed ^ KKEY.getBigUint64(80, true) ^ KKEY.getBigUint64(88, true)) << n(64))
  );
}
function finish(acc: bigint, len: number, seed: bigint): bigint {
  const lo = avalanche((acc + (acc >> n(64))) & MASK64);
  let hi = (acc & MASK64) * PRIME64_1 + (acc >> n(64)) * PRIME64_4 + ((n(len) - seed) & MASK64) * PRIME64_2;
  hi = inv64(avalanche(hi & MASK64));
  return lo | (hi << n(64));
}
function len17to128(data: DataView, seed: bigint): bigint {
  let acc = (n(data.byteLength) * PRIME64_1) & MASK64;
  for (let i = Math.floor((data.byteLength - 1) / 32); i >= 0; i--) {
    acc = mix32B(acc, view(data, 16 * i), view(data, data.byteLength - 16 * (i + 1)), view(KKEY, 32 * i), seed);
  }
  return finish(acc, data.byteLength, seed);
}
function len129to240(data: DataView, seed: bigint): bigint {
  let acc = (n(data.byteLength) * PRIME64_1) & MASK64;
  for (let i = 32; i < 160; i += 32) acc = mix32B(acc, view(data, i - 32), view(data, i - 16), view(KKEY, i - 32), seed);
  acc = avalanche(acc & MASK64) | (avalanche(acc >> n(64)) << n(64));
  for (let i = 160; i <= data.byteLength; i += 32) acc = mix32B(acc, view(data, i - 32), view(data, i - 16), view(KKEY, 3 + i - 160), seed);
  acc = mix32B(acc, view(data, data.byteLength - 16), view(data, data.byteLength - 32), view(KKEY, 103), inv64(seed));
  return finish(acc, data.byteLength, seed);
}
function hashLong(data: DataView): bigint {
  let acc: BigUint64Array = new BigUint64Array([PRIME32_3, PRIME64_1, PRIME64_2, PRIME64_3, PRIME64_4, PRIME32_2, PRIME64_5, PRIME32_1]);
  const stripesPerBlock = Math.floor((KKEY.byteLength - STRIPE_LEN) / 8);
  const blockLen = STRIPE_LEN * stripesPerBlock;
  const blocks = Math.floor((data.byteLength - 1) / blockLen);
  for (let b = 0; b < blocks; b++) {
    acc = accumulate(acc, view(data, b * blockLen), KKEY, stripesPerBlock);
    acc = scrambleAcc(acc, view(KKEY, KKEY.byteLength - STRIPE_LEN));
  }
  const stripes = Math.floor((data.byteLength - 1 - blockLen * blocks) / STRIPE_LEN);
  acc = accumulate(acc, view(data, blocks * blockLen), KKEY, stripes);
  acc = accumulate512(acc, view(data, data.byteLength - STRIPE_LEN), view(KKEY, KKEY.byteLength - STRIPE_LEN - 7));
  const lo = mergeAccs(acc, view(KKEY, 11), (n(data.byteLength) * PRIME64_1) & MASK64);
  return (mergeAccs(acc, view(KKEY, KKEY.byteLength - STRIPE_LEN - 11), ~(n(data.byteLength) * PRIME64_2) & MASK64) << n(64)) | lo;
}

/** LangGraph's `XXH3(text)`: 32 lower-case hex digits. */
export function langGraphXxh3(text: string): string {
  const bytes = new TextEncoder().encode(text);
  const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = data.byteLength;
  const h = len <= 16 ? len0to16(data, n(0)) : len <= 128 ? len17to128(data, n(0)) : len <= 240 ? len129to240(data, n(0)) : hashLong(data);
  return h.toString(16).padStart(32, "0");
}

/** The id LangGraph gives a task's interrupt after `answered` resume values (`interruptId` in `interrupt.js`). */
export function interruptId(namespace: string, answered: number): string {
  return langGraphXxh3(answered === 0 ? namespace : `${namespace}|${answered}`);
}

/**
 * Which repeat of its task's `interrupt()` an id is — the count of resume values the task had
 * consumed when it raised it — or undefined when no count up to `limit` makes that id (another
 * LangGraph version's scheme, or a namespace that is not the task's).
 */
export function interruptOrdinal(namespace: string, id: string, limit = 256): number | undefined {
  for (let k = 0; k < limit; k++) if (interruptId(namespace, k) === id) return k;
  return undefined;
}
