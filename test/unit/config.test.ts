import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '../../src/config';

const valid = {
  DATABASE_URL: 'postgres://u:p@127.0.0.1:5432/db',
  SECRETS_KEY: randomBytes(32).toString('base64'),
};

describe('loadConfig', () => {
  it('applies the documented defaults', () => {
    const config = loadConfig(valid);
    expect(config.port).toBe(3000);
    expect(config.publicBaseUrl).toBe('http://localhost:3000/v1');
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.temporal).toEqual({ address: 'localhost:7233', namespace: 'default', taskQueue: 'sourcing' });
    expect(config.webhookAllowedPrivateCidrs).toEqual([]);
  });

  it('defaults the webhook retry schedule to the spec: 30 s, 2 min, 10 min, 1 h, 6 h, 24 h', () => {
    expect(loadConfig(valid).webhookRetryScheduleSeconds).toEqual([30, 120, 600, 3600, 21600, 86400]);
  });

  it('names every missing or bad variable in one error', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', SECRETS_KEY: 'short', WEBHOOK_RETRY_SCHEDULE: '1,x' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    for (const name of ['DATABASE_URL', 'PORT', 'SECRETS_KEY', 'WEBHOOK_RETRY_SCHEDULE']) expect(message).toContain(name);
  });

  it('rejects a DATABASE_URL that is not a postgres URL', () => {
    expect(() => loadConfig({ ...valid, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('parses private CIDR exemptions and trims base URLs', () => {
    const config = loadConfig({ ...valid, WEBHOOK_ALLOWED_PRIVATE_CIDRS: '127.0.0.0/8, ::1/128', PUBLIC_BASE_URL: 'https://api.example.com/v1/' });
    expect(config.webhookAllowedPrivateCidrs).toEqual(['127.0.0.0/8', '::1/128']);
    expect(config.publicBaseUrl).toBe('https://api.example.com/v1');
  });
});
