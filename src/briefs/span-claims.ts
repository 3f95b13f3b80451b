/**
 * Character spans of a text already taken by an earlier match (a longer phrase, a role, a
 * skill), so a later match inside one is skipped. A mask over the text's characters: checking or
 * taking a span costs its own length, so reading stays linear however many matches a text has
 * (a list of earlier spans re-scanned per match is quadratic on a brief of thousands of them).
 */
export class SpanClaims {
  private readonly taken: Uint8Array;

  constructor(textLength: number) {
    this.taken = new Uint8Array(textLength + 1);
  }

  /** Whether any character of [start, end) is taken. */
  overlaps(start: number, end: number): boolean {
    for (let i = Math.max(0, start); i < end && i < this.taken.length; i++) if (this.taken[i]) return true;
    return false;
  }

  claim(start: number, end: number): void {
    this.taken.fill(1, Math.max(0, start), Math.min(end, this.taken.length));
  }
}
