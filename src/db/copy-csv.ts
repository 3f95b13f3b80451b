import { finished, Transform, type Readable } from 'node:stream';
import type { PoolClient } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import type { Knex } from 'knex';
import type { Db } from './knex';

const LF = 0x0a;
const QUOTE = 0x22;
const CRLF = Buffer.from('\r\n');

/**
 * `COPY … TO STDOUT WITH CSV` ends rows in LF; RFC 4180 ends them in CRLF. A LF outside quotes
 * ends a row and becomes CRLF; one inside a quoted field is data and stays. COPY doubles quotes
 * inside quoted fields, so the count of quotes so far tells inside from outside, across chunks.
 * Native indexOf jumps from quote to newline: no byte-by-byte loop in JavaScript.
 */
export function crlfRows(first: string): Transform {
  let quoted = false;
  return new Transform({
    construct(done) {
      this.push(first);
      done();
    },
    transform(chunk: Buffer, _encoding, done) {
      const parts: Buffer[] = [];
      let start = 0;
      let quote = chunk.indexOf(QUOTE);
      for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, lf + 1)) {
        for (; quote !== -1 && quote < lf; quote = chunk.indexOf(QUOTE, quote + 1)) quoted = !quoted;
        if (quoted) continue;
        parts.push(chunk.subarray(start, lf), CRLF);
        start = lf + 1;
      }
      for (; quote !== -1; quote = chunk.indexOf(QUOTE, quote + 1)) quoted = !quoted;
      parts.push(chunk.subarray(start));
      done(null, Buffer.concat(parts));
    },
  });
}

/**
 * The rows of `query` as CSV (RFC 4180, CRLF, `header` first), written by Postgres's own
 * `COPY (query) TO STDOUT WITH CSV` and streamed with backpressure on a pooled connection of its
 * own. The connection goes back to the pool when COPY has finished; if the reader stops early (a
 * client hanging up) or COPY fails, it is closed instead: one left inside a COPY cannot serve
 * another query.
 */
export async function copyCsv(db: Db, header: string, query: string, bindings: readonly Knex.RawBinding[]): Promise<Readable> {
  const copy = copyTo(db.raw(`copy (${query}) to stdout with (format csv)`, bindings).toQuery());
  const conn = (await db.client.acquireConnection()) as PoolClient;
  const rows = conn.query(copy);
  const out = crlfRows(header);
  let copied = false;
  rows.once('end', () => (copied = true));
  finished(out, (err) => {
    // knex's pool discards a released connection that has ended (it checks on acquire).
    const closed = err || !copied ? conn.end().catch(() => undefined) : Promise.resolve();
    void closed.then(() => db.client.releaseConnection(conn));
  });
  rows.once('error', (err) => out.destroy(err));
  return rows.pipe(out);
}
