import net from 'node:net';
import pg from 'pg';
import { databaseUnavailableError, isDatabaseUnavailable } from '../../api/middleware/errors';
import { createDb } from '../../src/db/knex';
import { freePort } from '../../tools/dev/processes';

/**
 * The errors a database that went away really raises, made for real against the run's Postgres,
 * each recognised as "the database is unavailable" (503 with Retry-After, never a 500): a chaos
 * run met a 500 when one of them was not (a client whose connection had died).
 */

const url = process.env.DATABASE_URL!;

async function errorOf(work: () => Promise<unknown>): Promise<Error> {
  try {
    await work();
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the work to fail');
}

const describeErr = (err: Error & { code?: string }) => `${err.name}: ${err.message} (${err.code ?? 'no code'})`;

it('recognises the errors of a connection whose server went away, a refused or silent server and a pool with no connection free', async () => {
  const admin = new pg.Client(url);
  await admin.connect();
  const errors: Error[] = [];
  try {
    // A client whose backend was terminated: the query in flight, then every later one.
    const victim = new pg.Client(url);
    victim.on('error', () => undefined);
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>('select pg_backend_pid() as pid');
    const inFlight = victim.query('select pg_sleep(5)');
    await new Promise((r) => setTimeout(r, 100));
    await admin.query('select pg_terminate_backend($1)', [rows[0].pid]);
    errors.push(await errorOf(() => inFlight));
    errors.push(await errorOf(() => victim.query('select 1')));
    errors.push(await errorOf(() => victim.query('select 1')));

    // Nothing listening.
    const closedPort = await freePort();
    errors.push(await errorOf(() => new pg.Client({ connectionString: url.replace(/:\d+\//, `:${closedPort}/`) }).connect()));

    // A server that accepts the connection and never answers (a stopped postmaster).
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const silentPort = (silent.address() as net.AddressInfo).port;
    try {
      errors.push(await errorOf(() => new pg.Client({ connectionString: url.replace(/:\d+\//, `:${silentPort}/`), connectionTimeoutMillis: 200 }).connect()));
    } finally {
      silent.close();
    }

    // Every pooled connection busy past the acquire timeout.
    const small = createDb(url, 1);
    try {
      const trx = await small.transaction();
      errors.push(await errorOf(() => small.raw('select 1').timeout(5000)));
      await trx.rollback();
    } finally {
      await small.destroy();
    }
  } finally {
    await admin.end();
  }
  expect(errors).toHaveLength(6);
  for (const err of errors) expect([describeErr(err), isDatabaseUnavailable(err)]).toEqual([describeErr(err), true]);
  expect(databaseUnavailableError()).toMatchObject({ status: 503, headers: { 'Retry-After': expect.stringMatching(/^\d+$/) } });
}, 30_000);

it('does not take a query or programming error for an outage', async () => {
  const db = createDb(url, 1);
  try {
    for (const sql of ['select * from no_such_table', 'select 1/0', "select 'x'::int"]) {
      const err = await errorOf(() => db.raw(sql));
      expect([sql, isDatabaseUnavailable(err)]).toEqual([sql, false]);
    }
  } finally {
    await db.destroy();
  }
  expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
});
