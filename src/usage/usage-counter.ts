import type { Db } from '../db/knex';
import { usageRepository, type UsageCount } from '../db/usage.repository';
import type { Logger } from '../logger';

/**
 * Request counts per workspace, UTC day and operation, kept in memory and written in one batch
 * every few seconds and at shutdown (DESIGN.md §8): counting costs a hot read path no SQL call.
 * A crash loses at most one interval of counts; a failed flush keeps them for the next one.
 */
export class UsageCounter {
  private pending = new Map<string, UsageCount>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    private readonly flushIntervalMs: number,
  ) {}

  start(): this {
    this.timer ??= setInterval(() => void this.flush(), this.flushIntervalMs).unref();
    return this;
  }

  count(workspaceId: string, action: string, at = new Date()): void {
    const day = at.toISOString().slice(0, 10);
    const key = `${workspaceId}|${day}|${action}`;
    const entry = this.pending.get(key);
    if (entry) entry.requests += 1;
    else this.pending.set(key, { workspaceId, day, action, requests: 1 });
  }

  /** Writes what is pending; concurrent calls share one write. */
  flush(): Promise<void> {
    this.flushing ??= this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    try {
      await usageRepository(this.db).addCounts(batch);
    } catch (err) {
      this.logger.warn({ err, rows: batch.length }, 'usage counts not written; kept for the next flush');
      for (const c of batch) {
        const key = `${c.workspaceId}|${c.day}|${c.action}`;
        const entry = this.pending.get(key);
        if (entry) entry.requests += c.requests;
        else this.pending.set(key, c);
      }
    }
  }

  /** At shutdown: no more timer, and the last counts written. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }
}
