import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local OpenAI-compatible server (chat completions with tool calls, model list) on 127.0.0.1.
 * `mode` switches its behaviour; every request is counted and kept for assertions.
 */
export type OpenAiFakeMode = 'good' | 'invalid-then-valid' | 'always-invalid' | 'down';

export interface OpenAiFake {
  url: string;
  mode: OpenAiFakeMode;
  /** Tool arguments a valid answer returns. */
  answer: Record<string, unknown>;
  /** Tool arguments an invalid answer returns. */
  invalidAnswer: Record<string, unknown>;
  requests: { path: string; authorization: string | undefined; body: any }[];
  chatCalls(): number;
  reset(): void;
  close(): Promise<void>;
}

const completion = (name: string, args: Record<string, unknown>, n: number) => ({
  id: `chatcmpl-fake-${n}`,
  object: 'chat.completion',
  created: Math.floor(Date.now() / 1000),
  model: 'fake-model',
  choices: [
    {
      index: 0,
      finish_reason: 'tool_calls',
      message: { role: 'assistant', content: null, tool_calls: [{ id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
    },
  ],
  usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
});

export async function startOpenAiFake(): Promise<OpenAiFake> {
  const fake: OpenAiFake = {
    url: '',
    mode: 'good',
    answer: {},
    invalidAnswer: { metro: 'Atlantis', years_experience: { min: 'five' }, _meta: { confidence: {} } },
    requests: [],
    chatCalls: () => fake.requests.filter((r) => r.path.endsWith('/chat/completions')).length,
    reset() {
      fake.requests.length = 0;
      fake.mode = 'good';
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      fake.requests.push({ path: req.url ?? '', authorization: req.headers.authorization, body });
      if (fake.mode === 'down') return req.socket.destroy();
      res.setHeader('content-type', 'application/json');
      if (req.method === 'GET' && req.url?.endsWith('/models')) {
        if (req.headers.authorization !== 'Bearer sk-fake-good-key') {
          res.statusCode = 401;
          return res.end(JSON.stringify({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } }));
        }
        return res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', created: 0, owned_by: 'fake' }] }));
      }
      if (req.method === 'POST' && req.url?.endsWith('/chat/completions')) {
        const n = fake.chatCalls();
        const name = body.tools[0].function.name;
        const invalid = fake.mode === 'always-invalid' || (fake.mode === 'invalid-then-valid' && n === 1);
        return res.end(JSON.stringify(completion(name, invalid ? fake.invalidAnswer : fake.answer, n)));
      }
      res.statusCode = 404;
      res.end(JSON.stringify({ error: { message: 'not found' } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return fake;
}
