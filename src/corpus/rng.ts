/**
 * The corpus's random numbers: sfc32, seeded per person from a murmur3-style hash of (seed,
 * index), so person i is the same whatever was generated before it.
 */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private a = 0;
  private b = 0;
  private c = 0;
  private d = 0;

  reseed(seed: number, index: number): void {
    const h1 = fmix32((seed ^ 0x9e3779b9) >>> 0);
    // fmix32 is a bijection, so distinct indices (below 2^32) get distinct states.
    const h2 = fmix32((h1 ^ (index >>> 0)) >>> 0);
    const h3 = fmix32((h2 ^ Math.floor(index / 4294967296) ^ 0x632be5ab) >>> 0);
    this.a = h2;
    this.b = h3;
    this.c = fmix32((h3 + 0x3c6ef372) >>> 0);
    this.d = 1;
    for (let i = 0; i < 12; i++) this.u32();
  }

  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** [0, 1) */
  float(): number {
    return this.u32() / 4294967296;
  }

  /** [0, n) */
  int(n: number): number {
    return Math.floor(this.float() * n);
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.float() * xs.length)];
  }

  /** Index by cumulative weights. */
  weighted(cum: Float64Array): number {
    const r = this.float() * cum[cum.length - 1];
    let i = 0;
    while (cum[i] <= r) i++;
    return i;
  }
}

export function cumulative(weights: number[]): Float64Array {
  const out = new Float64Array(weights.length);
  let s = 0;
  for (let i = 0; i < weights.length; i++) out[i] = s += weights[i];
  return out;
}

/** A small seeded generator for tables built once at module load (the companies list), not per person. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
