import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A counting stand-in for the sourcing providers (People Data Labs, Brave, Hunter) on 127.0.0.1:
 * it answers 200 `{}` when the request carries `acceptedKey` in the vendor's place for it
 * (X-Api-Key, X-Subscription-Token, api_key query), else 401. Used to prove who was called.
 */
export interface VendorFake {
  url: string;
  acceptedKey: string;
  requests: { path: string; key: string | undefined }[];
  close(): Promise<void>;
}

export async function startVendorFake(acceptedKey: string): Promise<VendorFake> {
  const fake: VendorFake = { url: '', acceptedKey, requests: [], close: () => new Promise((resolve) => server.close(() => resolve())) };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const key =
      (req.headers['x-api-key'] as string | undefined) ??
      (req.headers['x-subscription-token'] as string | undefined) ??
      url.searchParams.get('api_key') ??
      undefined;
    fake.requests.push({ path: url.pathname, key });
    res.setHeader('content-type', 'application/json');
    res.statusCode = key === fake.acceptedKey ? 200 : 401;
    res.end(key === fake.acceptedKey ? '{"data":{}}' : '{"error":"invalid api key"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
