import type { components } from '../../sdk/src/schema';

/** Shapes of the key API's operations, reached through the session at /api/v1 (typed from the SDK's generated schema). */
export type Schemas = components['schemas'];

/** An error answer of the session API (`{error, code?}`), or the network failing. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
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
    throw new ApiError(res.status, message, json?.code ?? error?.code);
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
export interface IntakeResult {
  criteria: Record<string, unknown> & { _meta?: unknown };
  entityCoverage: Record<string, Coverage>;
  familyUnresolved: boolean;
  familySuggestions: string[];
}

/** A fresh Idempotency-Key: a retried click launches (and charges) once. */
export const idempotencyKey = () => crypto.randomUUID();
