import type { Config } from '../config';
import { resolveProviderKey } from '../credentials/credentials.service';
import type { Db } from '../db/knex';
import { braveProvider } from './brave';
import { builtinProfileData } from './builtin-profile-data';
import { builtinWebSearch } from './builtin-web-search';
import type { ContactDataProvider, LanguageModelProvider, ProfileDataProvider, WebSearchProvider } from './capabilities';
import { downstreamLimiter, type DownstreamLimiter } from './downstream-limiter';
import { hunterProvider } from './hunter';
import { openAiLanguageModel } from './language-model';
import { peopleDataLabsProvider } from './peopledatalabs';
import { providerUnavailable } from './provider-errors';
import type { ProviderId } from './provider-ids';

/** The capabilities and the vendor behind each (DESIGN.md §9). */
export const CAPABILITY_VENDOR = {
  profile_data: 'peopledatalabs',
  web_search: 'brave',
  language_model: 'openai',
  contact_data: 'hunter',
} as const satisfies Record<string, ProviderId>;

export type Capability = keyof typeof CAPABILITY_VENDOR;

/** Which source a call uses: the vendor with the workspace's or the server's key, or the built-in one. */
export type SourceChoice = { kind: 'vendor'; provider: ProviderId; apiKey: string; origin: 'workspace' | 'server' } | { kind: 'builtin' };

const HAS_BUILTIN: Record<Capability, boolean> = { profile_data: true, web_search: true, language_model: false, contact_data: false };

/**
 * Resolution per call: the workspace's active credential for the capability's vendor, else the
 * server-wide key (both through resolveProviderKey, the one place keys are resolved), else the
 * built-in source where one exists, else 424 provider_unavailable.
 */
export async function resolveSource(
  db: Db,
  config: Config,
  workspaceId: string,
  capability: Capability,
  credentialProviders?: readonly string[],
): Promise<SourceChoice> {
  const provider = CAPABILITY_VENDOR[capability];
  const key = await resolveProviderKey(db, config, workspaceId, provider, credentialProviders);
  if (key) return { kind: 'vendor', provider, apiKey: key.apiKey, origin: key.source };
  if (HAS_BUILTIN[capability]) return { kind: 'builtin' };
  throw providerUnavailable(capability.replace('_', ' '), [provider]);
}

/**
 * The providers of one process: resolves a source per call and builds its adapter. One per
 * database handle, so the downstream limiter (shared through Postgres) is set up once.
 */
export interface Providers {
  readonly limiter: DownstreamLimiter;
  /** `credentialProviders`: the workspace's, when read with its key (skips a credential lookup). */
  profileData(workspaceId: string, credentialProviders?: readonly string[]): Promise<ProfileDataProvider>;
  webSearch(workspaceId: string, credentialProviders?: readonly string[]): Promise<WebSearchProvider>;
  languageModel(workspaceId: string): Promise<LanguageModelProvider>;
  contactData(workspaceId: string): Promise<ContactDataProvider>;
}

export function createProviders(db: Db, config: Config): Providers {
  const limiter = downstreamLimiter(db, config);
  const timeoutMs = config.providerLimits.timeoutMs;
  const vendor = async (workspaceId: string, capability: Capability, credentialProviders?: readonly string[]) => {
    const choice = await resolveSource(db, config, workspaceId, capability, credentialProviders);
    return choice.kind === 'vendor' ? { baseUrl: config.providers[choice.provider].baseUrl, apiKey: choice.apiKey, timeoutMs, limiter } : null;
  };
  return {
    limiter,
    async profileData(workspaceId, credentialProviders) {
      const settings = await vendor(workspaceId, 'profile_data', credentialProviders);
      return settings ? peopleDataLabsProvider(settings) : builtinProfileData(db);
    },
    async webSearch(workspaceId, credentialProviders) {
      const settings = await vendor(workspaceId, 'web_search', credentialProviders);
      return settings ? braveProvider(settings) : builtinWebSearch(db);
    },
    async languageModel(workspaceId) {
      const settings = (await vendor(workspaceId, 'language_model'))!;
      return openAiLanguageModel({ ...settings, model: config.openaiModel });
    },
    async contactData(workspaceId) {
      return hunterProvider((await vendor(workspaceId, 'contact_data'))!);
    },
  };
}

const perDb = new WeakMap<Db, Providers>();

/** The process's Providers for this database handle (API routes and activities share one). */
export function providersFor(db: Db, config: Config): Providers {
  let providers = perDb.get(db);
  if (!providers) perDb.set(db, (providers = createProviders(db, config)));
  return providers;
}
