// Which numbers a simulator treats as "the share that ..." (not RCS-capable, offline, answering): a stable choice
// per number, so a test or a demo sees the same numbers behave the same way on every run.

/** A hash of the number's digits in [0, 1) (FNV-1a, murmur3-finalized): the same numbers on every run. */
export function hashShare(phone: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < phone.length; i++) {
    const c = phone.charCodeAt(i);
    if (c < 48 || c > 57) continue;
    h ^= c;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // FNV-1a alone spreads consecutive numbers unevenly (a share of 0.3 came out 0.24-0.37 over runs of 5,000
  // consecutive numbers, by their prefix); murmur3's finalizer mixes every bit (0.28-0.32 over the same runs).
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return (h >>> 0) / 0x100000000;
}
