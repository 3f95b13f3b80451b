import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { waitFor } from '../../tools/dev/processes';
import { startChildWorker } from '../support/child-worker';
import { workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * The run's network guard (test/support/network-guard.cjs, loaded into every Node process of
 * `npm test`): a connection off this machine is refused before it opens, and recorded. Proven
 * here by tripping it on purpose in a worker of its own, whose record goes to a directory of this
 * test (the suite's record must stay clean: the run fails on any refusal in it).
 */

// Plain CommonJS (loaded with --require before any TypeScript loader), so required, not imported.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { addressClass } = require('../support/network-guard.cjs') as { addressClass: (a: string) => string };
const GUARD = Symbol.for('candidate-sourcing.network-guard');

let stack: TestStack;
let worker: ChildProcess;
let recordDir: string;
beforeAll(async () => {
  recordDir = fs.mkdtempSync(path.join(os.tmpdir(), 'network-guard-'));
  // The default configuration: a public address is a valid webhook target.
  stack = await startTestStack({ worker: false });
  worker = await startChildWorker(stack, { NETWORK_GUARD_DIR: recordDir });
}, 180_000);
afterAll(async () => {
  worker?.kill('SIGKILL');
  await stack?.stop();
  fs.rmSync(recordDir, { recursive: true, force: true });
});

it('is loaded in this process and records into the run directory', () => {
  expect((net.Socket.prototype as unknown as Record<symbol, unknown>)[GUARD]).toBeDefined();
  expect(process.env.NETWORK_GUARD_DIR).toBe(path.join(process.env.TEST_RUN_DIR!, 'network-guard'));
  expect(process.env.NODE_OPTIONS).toContain('network-guard.cjs');
});

it('classes addresses: only 127.0.0.0/8 and ::1 are this machine', () => {
  expect(['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1'].map(addressClass)).toEqual(['loopback', 'loopback', 'loopback', 'loopback']);
  expect(['10.1.2.3', '172.16.0.1', '192.168.1.1', 'fd00::1'].map(addressClass)).toEqual(['private', 'private', 'private', 'private']);
  expect(['169.254.169.254', 'fe80::1'].map(addressClass)).toEqual(['link-local', 'link-local']);
  expect(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c', '::ffff:8.8.8.8'].map(addressClass)).toEqual(['public', 'public', 'public']);
});

it('trips when a webhook endpoint points at a public address: the attempt is refused before connecting, and recorded', async () => {
  const f = await workspaceWithKey(stack.db);
  // The one public delivery target of the suite, on purpose: the guard must refuse it.
  const created = await stack.request('POST', '/v1/webhooks', { headers: f.headers, body: { url: 'https://93.184.215.14/guard-trip' } });
  expect(created.status).toBe(201);
  const test = await stack.request('POST', `/v1/webhooks/${created.body.data.id}/test`, { headers: f.headers });
  expect(test.status).toBe(200);
  expect(test.body.data).toMatchObject({ status: expect.stringMatching(/^(failed|abandoned)$/), status_code: null, attempt_count: 1 });
  const delivery = await stack.request('GET', `/v1/webhooks/${created.body.data.id}/deliveries/${test.body.data.id}`, { headers: f.headers });
  expect(delivery.body.data.attempts).toEqual([expect.objectContaining({ error: 'connection error: ERR_NETWORK_GUARD_REFUSED', status_code: null })]);

  let refused: { what: string; target: string; class: string }[] = [];
  await waitFor(
    "the worker's record of the refusal",
    async () => {
      refused = fs.readdirSync(recordDir).flatMap((file) => JSON.parse(fs.readFileSync(path.join(recordDir, file), 'utf8')).refused);
      return refused.length > 0;
    },
    10_000,
    100,
  );
  expect(refused).toEqual([expect.objectContaining({ what: 'connection to', target: expect.stringMatching(/93\.184\.215\.14\)?:443$/), class: 'public' })]);
}, 60_000);
