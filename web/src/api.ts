import type { components } from '../../sdk/src/schema';

/** Shapes of the key API's operations, reached through the session at /api/v1 (typed from the SDK's generated schema). */
export type Schemas = components['schemas'];

/** One validation failure of a 400 answer: the dotted path of the input (`criteria.skills.0`) and what is wrong. */
export interface Problem {
  field: string;
  message: string;
}

/** An error answer of the session API (`{error, code?, problems?}`), or the network failing. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly problems: Problem[] = [],
  ) {
    super(message);
  }
  get signedOut() {
    return this.status === 401;
  }
  get frozen() {
    return this.status === 403 && this.code === 'frozen';
  }
}

interface Envelope<T> {
  data: T;
  meta?: { total?: number; request_id?: string };
}

/** One call to the same-origin session API; the cookie goes along. */
export async function call<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, 'The server could not be reached; check your connection and retry');
  }
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  if (!res.ok) {
    // Session errors are `{error: "…", code?}`; keep the message people can act on.
    const error = json?.error;
    const message = typeof error === 'string' ? error : (error?.message ?? `The server answered ${res.status}`);
    const problems = json?.problems ?? error?.details?.problems;
    throw new ApiError(res.status, message, json?.code ?? error?.code, Array.isArray(problems) ? problems : []);
  }
  return json as T;
}

/** A key-API operation through the session bridge: its `data` (and `meta.total` where it has one). */
export async function v1<T>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<T> {
  return (await call<Envelope<T>>(method, `/api/v1${path}`, body, headers)).data;
}

export async function v1Page<T>(path: string): Promise<{ items: T[]; total: number }> {
  const res = await call<Envelope<T[]>>('GET', `/api/v1${path}`);
  return { items: res.data, total: res.meta?.total ?? res.data.length };
}

export type Role = 'viewer' | 'operator' | 'admin';
export interface Me {
  user: { id: string; email: string };
  workspace: { id: string; name: string; plan: string | null; frozen: boolean };
  role: Role;
  workspaces: { id: string; name: string; role: Role }[];
}

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };
/** Whether this session may write at `needed`'s level: never in a frozen workspace. */
export const canWrite = (me: Me, needed: Role) => !me.workspace.frozen && RANK[me.role] >= RANK[needed];

export interface Credential {
  id: string;
  provider: string;
  label: string;
  key_hint: string;
  is_active: boolean;
  verified_at: string | null;
  verify_error: string | null;
  created_at: string;
}

export interface Coverage {
  resolved: boolean;
  confidence: number;
  required: boolean;
}
/** Which reader turned the brief into criteria: the language model (intake) or the built-in reader. */
export type Reader = 'llm' | 'builtin';
export interface IntakeResult {
  criteria: Record<string, unknown> & { _meta?: unknown };
  entityCoverage: Record<string, Coverage>;
  familyUnresolved: boolean;
  familySuggestions: { id: string; label: string }[];
  reader: Reader;
}

/**
 * The brief → criteria: intake through the language model, and without one (424
 * `llm_not_configured`) the built-in reader. Asking intake first keeps one source of truth for
 * which reader is available (a key added or removed takes effect on the next read), at the cost
 * of one quick refused request when there is no key. `builtin` asks the built-in reader directly
 * (the recruiter's choice when the language model fails).
 */
export async function readBrief(rawInput: string, reader?: 'builtin'): Promise<IntakeResult> {
  if (reader === 'builtin') return call<IntakeResult>('POST', '/api/intake/builtin', { rawInput });
  try {
    return await call<IntakeResult>('POST', '/api/intake', { rawInput });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'llm_not_configured') return call<IntakeResult>('POST', '/api/intake/builtin', { rawInput });
    throw err;
  }
}

/** The parts of GET /reference/criteria (the key API's description of every criteria field) the criteria form uses. */
export interface CriteriaReference {
  fields: {
    family: { allowed: { id: string; label: string }[] };
    metro: { allowed: { id: string; label: string }[] };
    /** Optional in an older reference: the form falls back to DESIGN.md §4a's bounds. */
    places?: { max_items?: number; allowed?: { radius_km?: Bounds & { default: number } } };
    occupations?: { max_items?: number };
    skills: { allowed: { by_family: Record<string, string[]>; other: string[] } };
    seniority: { allowed: string[] };
    years_experience: { properties: { min: Bounds; max: Bounds } };
    target: Bounds & { default: number };
    read_budget: Bounds & { default: number };
  };
}
interface Bounds {
  min: number;
  max: number;
}

/** A gazetteer place of GET /reference/places: `{id: "geonames:2644688", name: "Leeds, England, United Kingdom", kind: "city", …}`. */
export type ReferencePlace = Schemas['ReferencePlace'];
/** An O*NET-SOC occupation of GET /reference/occupations: `{code: "29-1051.00", title: "Pharmacists", family: null}`. */
export type ReferenceOccupation = Schemas['ReferenceOccupation'];

/** Up to 20 places whose name (or an alternate name) starts with `q`, most populous first. */
export const findPlaces = (q: string) => v1<ReferencePlace[]>('GET', `/reference/places?q=${encodeURIComponent(q)}`);
export const placesById = (ids: string[]) => v1<ReferencePlace[]>('GET', `/reference/places?ids=${encodeURIComponent(ids.join(','))}`);
/** Up to 200 occupations whose title or job titles hold the words of `q` (or whose code starts with it), best first. */
export const findOccupations = (q: string) => v1<ReferenceOccupation[]>('GET', `/reference/occupations?q=${encodeURIComponent(q)}`);

export type CampaignStatus = 'draft' | 'awaiting_launch' | 'launched';
export interface Campaign {
  id: string;
  name: string;
  channel: 'email' | 'social';
  status: CampaignStatus;
  project_id: string | null;
  created_at: string;
  published_at: string | null;
  launched_at: string | null;
}

/** A fresh Idempotency-Key: a retried click launches (and charges) once. */
export const idempotencyKey = () => crypto.randomUUID();
