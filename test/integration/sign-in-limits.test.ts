import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../../src/config';
import { createDb, type Db } from '../../src/db/knex';
import { migrateLatest } from '../../src/db/migrate';
import { createUser, SIGN_IN_MAX_FAILURES } from '../../src/users/users.service';
import { workspaceWithKey } from '../support/fixtures';
import { TEST_PASSWORD } from '../support/session';
import { startTestStack, type TestResponse, type TestStack } from '../support/stack';

/**
 * Password spraying (a different email each time) against POST /api/auth/sign-in, at the default
 * ceilings: failed sign-ins per client address and across all accounts within 15 minutes. The
 * rest of the suite signs in from 127.0.0.1 into the shared database with the ceilings raised
 * (TEST_RATE_LIMIT_ENV), so this test has a database of its own, where every failure is its own,
 * and sends its client addresses in X-Forwarded-For (TRUST_PROXY=true).
 */
const name = `sign_in_limits_${process.pid}_${Date.now()}`;
const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
let db: Db;
let stack: TestStack;

const defaults = loadConfig({ ...process.env, SIGN_IN_IP_MAX_FAILURES: undefined, SIGN_IN_GLOBAL_MAX_FAILURES: undefined }).signIn;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  db = createDb(url.toString(), 4);
  await migrateLatest(db);
  // The defaults, not the suite's raised ceilings.
  stack = await startTestStack({
    worker: false,
    env: { DATABASE_URL: url.toString(), TRUST_PROXY: 'true', SIGN_IN_IP_MAX_FAILURES: undefined, SIGN_IN_GLOBAL_MAX_FAILURES: undefined },
  });
}, 120_000);

afterAll(async () => {
  await stack?.stop();
  await db?.destroy();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
});

const signInFrom = (address: string, email: string, password: string) =>
  stack.request('POST', '/api/auth/sign-in', { headers: { 'X-Forwarded-For': address }, body: { email, password } });
const spray = (address: string) => signInFrom(address, `nobody-${randomUUID()}@example.test`, 'Spring2026!');

/** Runs `n` calls, `concurrency` at a time. */
async function inParallel(n: number, concurrency: number, call: (i: number) => Promise<TestResponse>): Promise<TestResponse[]> {
  const answers: TestResponse[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) answers.push(await call(next++));
    }),
  );
  return answers;
}

const statuses = (answers: TestResponse[]) => answers.reduce<Record<number, number>>((acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }), {});

async function user(): Promise<string> {
  const { workspace } = await workspaceWithKey(db);
  const email = `member-${randomUUID()}@example.test`;
  await createUser(db, { email, password: TEST_PASSWORD, workspaceId: workspace.id, role: 'viewer' });
  return email;
}

it('refuses spraying from one address at its ceiling, then across all accounts at the global one (429 with Retry-After); right passwords from elsewhere still sign in until then, and the per-email lockout is unchanged', async () => {
  expect(defaults).toEqual({ ipMaxFailures: 50, globalMaxFailures: 500 });
  const legit = await user();

  // One address, a new email each time, 8 at once: exactly the ceiling is answered 401.
  const sprayed = await inParallel(defaults.ipMaxFailures + 15, 8, () => spray('203.0.113.7'));
  expect(statuses(sprayed)).toEqual({ 401: defaults.ipMaxFailures, 429: 15 });
  const refused = sprayed.find((a) => a.status === 429)!;
  expect(refused.body).toEqual({ error: 'Too many failed sign-ins from this address; try again later', code: 'too_many_attempts' });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(800);
  // The refused address gets 429 even with the right password (no oracle); another address signs in.
  expect((await signInFrom('203.0.113.7', legit, TEST_PASSWORD)).status).toBe(429);
  expect((await signInFrom('198.51.100.20', legit, TEST_PASSWORD)).status).toBe(200);

  // The per-email lockout, as before: 10 failures for one email, then 429 even with its password.
  const locked = await user();
  for (let i = 0; i < SIGN_IN_MAX_FAILURES; i++) expect((await signInFrom('198.51.100.21', locked, `wrong-${i}-pass`)).status).toBe(401);
  const lockedOut = await signInFrom('198.51.100.21', locked, TEST_PASSWORD);
  expect([lockedOut.status, lockedOut.body.error]).toEqual([429, 'Too many failed sign-ins for this email; try again later']);

  // Spraying from many addresses, each under its own ceiling, until the global ceiling.
  const failedSoFar = defaults.ipMaxFailures + SIGN_IN_MAX_FAILURES;
  const addresses = Array.from({ length: 12 }, (_, i) => `192.0.2.${i + 1}`);
  const wide = await inParallel(defaults.globalMaxFailures - failedSoFar + 20, 8, (i) => spray(addresses[i % addresses.length]));
  expect(statuses(wide)).toEqual({ 401: defaults.globalMaxFailures - failedSoFar, 429: 20 });
  const paused = wide.find((a) => a.status === 429)!;
  expect(paused.body).toEqual({ error: 'Too many failed sign-ins on this service; sign-in is paused, try again later', code: 'too_many_attempts' });
  expect(Number(paused.headers.get('retry-after'))).toBeGreaterThan(600);
  expect(Number((await db('sign_in_failures').count({ n: '*' }))[0].n)).toBe(defaults.globalMaxFailures);
  // While paused even a right password from a fresh address is refused.
  expect((await signInFrom('198.51.100.22', legit, TEST_PASSWORD)).status).toBe(429);

  // Once the failures leave the 15-minute window, sign-in works again.
  await db('sign_in_failures').update({ created_at: db.raw("now() - interval '16 minutes'") });
  expect((await signInFrom('203.0.113.7', legit, TEST_PASSWORD)).status).toBe(200);
  expect((await signInFrom('198.51.100.21', locked, TEST_PASSWORD)).status).toBe(200);
  expect((await spray('203.0.113.7')).status).toBe(401);
}, 240_000);
