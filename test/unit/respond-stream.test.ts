import { Readable } from 'node:stream';
import type { ApiContext } from '../../api/context';
import { sendDataStream } from '../../api/respond';

async function streamed(batches: unknown[][]): Promise<{ ctx: { status?: number; type?: string }; text: string }> {
  const ctx = { state: { requestId: 'req_test' } } as unknown as ApiContext;
  async function* source() {
    for (const b of batches) yield b;
  }
  sendDataStream(ctx, source());
  let text = '';
  for await (const chunk of ctx.body as Readable) text += chunk;
  return { ctx: ctx, text };
}

describe('sendDataStream', () => {
  it('streams the envelope of every batch, with meta.total after the data', async () => {
    const { ctx, text } = await streamed([[{ a: 1 }, { a: 2 }], [], [{ a: 3 }], [{ a: '"quoted"' }]]);
    expect(ctx.status).toBe(200);
    expect(ctx.type).toMatch(/^application\/json/);
    expect(JSON.parse(text)).toEqual({ data: [{ a: 1 }, { a: 2 }, { a: 3 }, { a: '"quoted"' }], meta: { request_id: 'req_test', total: 4 } });
  });

  it('streams an empty list', async () => {
    expect(JSON.parse((await streamed([])).text)).toEqual({ data: [], meta: { request_id: 'req_test', total: 0 } });
    expect(JSON.parse((await streamed([[], []])).text)).toEqual({ data: [], meta: { request_id: 'req_test', total: 0 } });
  });
});
