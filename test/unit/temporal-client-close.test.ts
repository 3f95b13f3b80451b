import { loadConfig } from '../../src/config';
import { freePort } from '../../src/domain/free-port';
import { createTemporal } from '../../src/temporal/client';

/**
 * @temporalio/client retries a failed call from a timer that Connection.close() does not clear: a
 * retry firing after close threw "Channel has been shut down" outside any awaited call (a test
 * stack's teardown failed so). Our client's close() lets such a call end as an error instead.
 */
it('closing while a call waits to retry ends the call with an error, and nothing throws from a timer afterwards', async () => {
  const uncaught: unknown[] = [];
  const record = (err: unknown) => uncaught.push(err);
  process.on('uncaughtException', record);
  try {
    // Nothing listens on this loopback port: every attempt fails UNAVAILABLE, which the client retries.
    const port = await freePort();
    const temporal = createTemporal(loadConfig({ ...process.env, TEMPORAL_ADDRESS: `127.0.0.1:${port}` }));
    const call = temporal.client.workflowService.getSystemInfo({}).then(
      () => 'answered',
      (err: Error) => `failed: ${err.message}`,
    );
    // The first attempt has failed and its retry is scheduled (≈100 ms later).
    await new Promise((resolve) => setTimeout(resolve, 40));
    await temporal.close();
    expect(await call).toMatch(/^failed: /);
    // Longer than any retry the client would have scheduled for the first attempts.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(uncaught).toEqual([]);
  } finally {
    process.off('uncaughtException', record);
  }
});
