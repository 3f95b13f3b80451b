import type { Config } from '../config';
import { verifyBraveKey } from './brave';
import { verifyHunterKey } from './hunter';
import { verifyOpenAiKey } from './openai';
import { verifyPeopleDataLabsKey } from './peopledatalabs';
import type { ProviderId } from './provider-ids';
import type { VerifyResult } from './verification';

const VERIFIERS: Record<ProviderId, (baseUrl: string, apiKey: string) => Promise<VerifyResult>> = {
  peopledatalabs: verifyPeopleDataLabsKey,
  brave: verifyBraveKey,
  openai: verifyOpenAiKey,
  hunter: verifyHunterKey,
};

/** One cheap call to the provider with the key (credential verify). */
export function verifyProviderKey(config: Config, provider: ProviderId, apiKey: string): Promise<VerifyResult> {
  return VERIFIERS[provider](config.providers[provider].baseUrl, apiKey);
}
