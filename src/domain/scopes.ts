/** Every scope a key can carry (spec "Authentication", plus the webhook scopes of DESIGN.md §3). */
export const SCOPES = [
  'data:search:web',
  'data:people:search',
  'data:people:read',
  'data:companies:search',
  'data:companies:read',
  'usage:read',
  'billing:read',
  'searches:write',
  'searches:read',
  'shortlists:read',
  'shortlists:write',
  'feedback:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];
export const ALL_SCOPES = '*';

export const isKnownScope = (s: string): boolean => s === ALL_SCOPES || (SCOPES as readonly string[]).includes(s);

export const hasScope = (granted: readonly string[], required: string): boolean => granted.includes(ALL_SCOPES) || granted.includes(required);
