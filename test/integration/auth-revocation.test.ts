import { apiKeyRepository } from '../../src/db/api-key.repository';
import { workspaceWithKey } from '../support/fixtures';
import { startTestStack, type TestStack } from '../support/stack';

/**
 * A revoked key is refused everywhere within 1 s, even one the API has just served:
 * any per-process shortcut on the key lookup must stay within that bound. Every API process reads
 * the key in the same round trip as its rate limit, so one process shows the rule.
 */
let stack: TestStack;
beforeAll(async () => {
  stack = await startTestStack({ worker: false });
});
afterAll(() => stack.stop());

it('a key in use is refused within 1 s of its revocation', async () => {
  const { key, headers } = await workspaceWithKey(stack.db);
  for (let i = 0; i < 3; i++) expect((await stack.request('GET', '/v1/projects', { headers })).status).toBe(200);
  await apiKeyRepository(stack.db).revoke(key.id);
  const revokedAt = Date.now();
  // Requests started within the first second may still pass; the first one started after it must not.
  let res;
  do res = await stack.request('GET', '/v1/projects', { headers });
  while (res.status === 200 && Date.now() - revokedAt < 1000);
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('invalid_api_key');
});
