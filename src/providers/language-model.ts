import OpenAI from 'openai';
import type { LanguageModelProvider } from './capabilities';
import { callTool, openaiClient } from './openai';
import { keyRejected, networkBusy, providerFailed } from './provider-errors';

/**
 * The language-model capability over any OpenAI-compatible server (the `openai` SDK with a
 * baseURL). Transport failures become our provider errors; intake uses `callTool` directly and
 * keeps its own error wording.
 */
export function openAiLanguageModel(s: { baseUrl: string; apiKey: string; model: string }): LanguageModelProvider {
  const client = openaiClient(s.baseUrl, s.apiKey);
  return {
    source: 'openai',
    async callTool(req) {
      try {
        return await callTool(client, { ...req, model: req.model ?? s.model });
      } catch (err) {
        if (err instanceof OpenAI.APIError && err.status === 429)
          throw networkBusy('openai', Number(err.headers?.get?.('retry-after')) || 1, 'the vendor answered 429');
        if (err instanceof OpenAI.APIError && (err.status === 401 || err.status === 403)) throw keyRejected('openai', err.status);
        if (err instanceof OpenAI.APIError) throw providerFailed('openai', err.status ? `HTTP ${err.status}` : 'could not be reached');
        throw err;
      }
    },
  };
}
