/** The four third-party provider identifiers (DESIGN.md §9); a credential's `provider` is one of them. */
export const PROVIDER_IDS = ['peopledatalabs', 'brave', 'openai', 'hunter'] as const;

export type ProviderId = (typeof PROVIDER_IDS)[number];
