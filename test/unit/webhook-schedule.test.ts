import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/config';
import { SPEC_RETRY_SCHEDULE_SECONDS } from '../../src/webhooks/contract';
import { DISABLE_AFTER_ABANDONED } from '../../src/webhooks/delivery';
import { ATTEMPT_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES } from '../../src/webhooks/sender';

describe('webhook delivery limits', () => {
  it('retry after 30 s, 2 min, 10 min, 1 h, 6 h, 24 h by default: 7 attempts in all', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@127.0.0.1/db', SECRETS_KEY: randomBytes(32).toString('base64') });
    expect(config.webhookRetryScheduleSeconds).toEqual([30, 2 * 60, 10 * 60, 60 * 60, 6 * 60 * 60, 24 * 60 * 60]);
    expect(config.webhookRetryScheduleSeconds).toEqual([...SPEC_RETRY_SCHEDULE_SECONDS]);
    expect(1 + config.webhookRetryScheduleSeconds.length).toBe(7);
    expect(config.webhookAllowedPrivateCidrs).toEqual([]);
  });

  it('answer time 10 s, excerpts up to 2 KB, 20 abandoned in a row turn an endpoint off', () => {
    expect(ATTEMPT_TIMEOUT_MS).toBe(10_000);
    expect(RESPONSE_EXCERPT_BYTES).toBe(2048);
    expect(DISABLE_AFTER_ABANDONED).toBe(20);
  });
});
