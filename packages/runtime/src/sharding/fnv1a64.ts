//! FNV-1a, 64 bits: a fast, stable, non-cryptographic hash of a string's UTF-8 bytes.

const encoder = new TextEncoder();
const TWO_32 = 2 ** 32;
/** FNV-1a 64's offset basis, as two 32-bit halves. */
const OFFSET_HI = 0xcbf29ce4;
const OFFSET_LO = 0x84222325;
/** The low part of FNV's 64-bit prime 2^40 + 0x1b3. */
const PRIME_LO = 0x1b3;

/** FNV-1a 64 of `input`'s UTF-8 bytes as [high 32 bits, low 32 bits], with no BigInt on the hot path. */
function fnv1a64Halves(input: string): [number, number] {
  const bytes = encoder.encode(input);
  let hi = OFFSET_HI;
  let lo = OFFSET_LO;
  for (const byte of bytes) {
    lo = (lo ^ byte) >>> 0;
    // (hi·2^32 + lo) × (2^40 + 0x1b3) mod 2^64, in halves that stay below 2^53.
    const low = lo * PRIME_LO;
    const carry = Math.floor(low / TWO_32);
    const high = hi * PRIME_LO + carry + ((lo << 8) >>> 0);
    lo = low % TWO_32;
    hi = high % TWO_32;
  }
  return [hi, lo];
}

/** FNV-1a 64 (Fowler–Noll–Vo) of `input`'s UTF-8 bytes, as Go's `hash/fnv.New64a` computes it. */
export function fnv1a64(input: string): bigint {
  const [hi, lo] = fnv1a64Halves(input);
  return (BigInt(hi) << 32n) | BigInt(lo);
}

/** MurmurHash3's 32-bit finalizer: every input bit flips about half the output bits. */
function fmix32(value: number): number {
  let h = value;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A position on a hash ring for `input`: FNV-1a 64, mixed by MurmurHash3's finalizer into
 * 53 bits (a safe integer that compares as a plain number). The mix matters: FNV's high bits
 * barely change with a string's last bytes, so `object-1` and `object-2` would land side by
 * side and a ring's virtual nodes would bunch up.
 */
export function fnv1a64Position(input: string): number {
  const [hi, lo] = fnv1a64Halves(input);
  const low = fmix32(lo ^ 0x9e3779b9);
  const high = fmix32(hi ^ low);
  return high * 2 ** 21 + (low >>> 11);
}
