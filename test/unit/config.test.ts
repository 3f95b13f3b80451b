import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, loadStackSettings } from '../../src/config';

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

  it('traces only when TRACING=on: every new trace at TRACING_SAMPLE_RATIO (default 1) into Zipkin', () => {
    expect(loadConfig(valid).tracing).toEqual({ enabled: false, sampleRatio: 1, zipkinUrl: 'http://localhost:9411/api/v2/spans' });
    expect(loadConfig({ ...valid, TRACING: 'on', TRACING_SAMPLE_RATIO: '0.1', TRACING_ZIPKIN_URL: 'http://zipkin:9411/api/v2/spans' }).tracing).toEqual({
      enabled: true,
      sampleRatio: 0.1,
      zipkinUrl: 'http://zipkin:9411/api/v2/spans',
    });
  });

  it('refuses a tracing setting it cannot honour, naming it', () => {
    expect(() => loadConfig({ ...valid, TRACING: 'yes' })).toThrow(/TRACING/);
    expect(() => loadConfig({ ...valid, TRACING_SAMPLE_RATIO: '1.5' })).toThrow(/TRACING_SAMPLE_RATIO must be between 0 and 1/);
    expect(() => loadConfig({ ...valid, TRACING_SAMPLE_RATIO: 'half' })).toThrow(/TRACING_SAMPLE_RATIO/);
    expect(() => loadConfig({ ...valid, TRACING_ZIPKIN_URL: 'zipkin:9411' })).toThrow(/TRACING_ZIPKIN_URL/);
  });
});

describe('loadStackSettings', () => {
  it('runs Zipkin with the dev stack unless TRACING=off or TRACING_ZIPKIN_URL names another', () => {
    expect(loadStackSettings({}).tracing).toEqual({ enabled: true, zipkinUrl: undefined, zipkin: undefined, zipkinPort: 9411 });
    expect(loadStackSettings({ ZIPKIN_JAVA: '/usr/bin/java', ZIPKIN_JAR: '/z.jar', ZIPKIN_PORT: '19411' }).tracing).toMatchObject({
      zipkin: { java: '/usr/bin/java', jar: '/z.jar' },
      zipkinPort: 19411,
    });
    expect(loadStackSettings({ TRACING: 'off' }).tracing.enabled).toBe(false);
    expect(loadStackSettings({ TRACING_ZIPKIN_URL: 'http://elsewhere:9411/api/v2/spans' }).tracing.zipkinUrl).toBe('http://elsewhere:9411/api/v2/spans');
    expect(() => loadStackSettings({ TRACING: 'maybe' })).toThrow(/TRACING must be on or off/);
  });
});
