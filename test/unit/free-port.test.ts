import net from 'node:net';
import { freePort } from '../../src/domain/free-port';

describe('freePort', () => {
  it('picks distinct ports below the ephemeral range, where no outgoing connection can take them before the listen', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(32_768);
    }
  });

  it('gives a port that can be listened on', async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});
