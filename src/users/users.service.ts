import { createHash, randomBytes } from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import type { Db } from '../db/knex';
import { membershipRepository, type Role } from '../db/membership.repository';
import { sessionRepository, type SessionWithContext, type SignInScope } from '../db/session.repository';
import { normalizeEmail, userRepository, type UserRow } from '../db/user.repository';
import { workspaceRepository } from '../db/workspace.repository';
import { AppError } from '../domain/errors';

/** Users, memberships and server-side sessions (DESIGN.md §10). */

export const SESSION_TTL_MS = 14 * 24 * 3600 * 1000;
/** A session's expiry is pushed out at most once a minute, not on every request. */
const TOUCH_AFTER_MS = 60_000;
export const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const SIGN_IN_MAX_FAILURES = 10;
export const MIN_PASSWORD_LENGTH = 8;

const ROLE_RANK: Record<Role, number> = { viewer: 1, operator: 2, admin: 3 };
export const roleAtLeast = (role: Role, needed: Role) => ROLE_RANK[role] >= ROLE_RANK[needed];

export const hashSessionToken = (token: string) => createHash('sha256').update(token).digest('hex');

// Verified against when the email is unknown, so both failures cost the same time.
let dummyHash: Promise<string> | undefined;

export const hashPassword = (password: string) => hash(password); // @node-rs/argon2 defaults to argon2id

export function checkPassword(password: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw new AppError('invalid_password', 400, `The password must have at least ${MIN_PASSWORD_LENGTH} characters`);
}

/** Creates a user (or, with an existing email, fails) and makes it a member of the workspace. */
export async function createUser(db: Db, input: { email: string; password: string; workspaceId: string; role: Role }): Promise<UserRow> {
  checkPassword(input.password);
  if (!(await workspaceRepository(db).find(input.workspaceId))) throw new AppError('workspace_not_found', 404, `No workspace ${input.workspaceId}`);
  if (await userRepository(db).findByEmail(input.email))
    throw new AppError('user_exists', 409, `A user with email ${normalizeEmail(input.email)} already exists; use users add`);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (trx) => {
    const user = await userRepository(trx).create(input.email, passwordHash);
    await membershipRepository(trx).upsert(user.id, input.workspaceId, input.role);
    return user;
  });
}

/** Adds an existing user to a workspace, or changes their role there. */
export async function addMember(db: Db, input: { email: string; workspaceId: string; role: Role }): Promise<UserRow> {
  const user = await userRepository(db).findByEmail(input.email);
  if (!user) throw new AppError('user_not_found', 404, `No user with email ${normalizeEmail(input.email)}; use users create`);
  if (!(await workspaceRepository(db).find(input.workspaceId))) throw new AppError('workspace_not_found', 404, `No workspace ${input.workspaceId}`);
  await membershipRepository(db).upsert(user.id, input.workspaceId, input.role);
  return user;
}

export interface SignedIn {
  /** The raw cookie token; only its SHA-256 is stored. */
  token: string;
  expiresAt: Date;
}

/** Failed sign-ins allowed within SIGN_IN_WINDOW_MS per client address and across all accounts (config). */
export interface SignInLimits {
  ipMaxFailures: number;
  globalMaxFailures: number;
}

const REFUSALS: Record<SignInScope, string> = {
  email: 'Too many failed sign-ins for this email; try again later',
  ip: 'Too many failed sign-ins from this address; try again later',
  global: 'Too many failed sign-ins on this service; sign-in is paused, try again later',
};

/**
 * Counts the attempt as a failure unless a ceiling is reached: 10 failures per email, the
 * configured ones per client address and across all accounts, within 15 minutes. Refused: 429
 * until enough failures leave the window. Counted before the password is checked, so parallel
 * attempts cannot slip past a ceiling; returns the failure's id, to be removed if it succeeds.
 */
async function claimSignInAttempt(db: Db, attempt: { email: string; ip: string }, limits: SignInLimits): Promise<string> {
  const ceilings: Record<SignInScope, number> = { email: SIGN_IN_MAX_FAILURES, ip: limits.ipMaxFailures, global: limits.globalMaxFailures };
  return db.transaction(async (trx: Db) => {
    const sessions = sessionRepository(trx);
    await sessions.lockSignInAttempts();
    await sessions.pruneFailures(SIGN_IN_WINDOW_MS);
    const counts = await sessions.recentFailures(attempt, SIGN_IN_WINDOW_MS);
    for (const scope of ['email', 'ip', 'global'] as const) {
      if (counts[scope] < ceilings[scope]) continue;
      const retryAfter = await sessions.secondsUntilBelow(scope, attempt, SIGN_IN_WINDOW_MS, counts[scope], ceilings[scope]);
      throw new AppError('too_many_attempts', 429, REFUSALS[scope], { retry_after_seconds: retryAfter }, { 'Retry-After': String(retryAfter) });
    }
    return sessions.recordFailure(attempt);
  });
}

/**
 * Checks the password (argon2id) under the sign-in ceilings (claimSignInAttempt). Unknown email
 * and wrong password answer the same; a success clears the email's failures.
 */
export async function signIn(db: Db, email: string, password: string, from: { ip: string; limits: SignInLimits }): Promise<SignedIn> {
  const sessions = sessionRepository(db);
  const key = normalizeEmail(email);
  const failureId = await claimSignInAttempt(db, { email: key, ip: from.ip }, from.limits);
  const user = await userRepository(db).findByEmail(key);
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  const ok = await verify(user?.password_hash ?? (await dummyHash), password).catch(() => false);
  if (!user || !ok) throw new AppError(null, 401, 'Invalid email or password');
  await sessions.deleteFailure(failureId);
  const [first] = await membershipRepository(db).workspacesOf(user.id);
  if (!first) throw new AppError('no_workspace', 403, 'This account is not a member of any workspace');
  await sessions.clearFailures(key);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  await sessions.create({ tokenHash: hashSessionToken(token), userId: user.id, workspaceId: first.id, expiresAt });
  return { token, expiresAt };
}

/** The live session of a cookie token, its expiry slid forward; undefined when unknown or expired. */
export async function resolveSession(db: Db, token: string): Promise<SessionWithContext | undefined> {
  const found = await sessionRepository(db).findLive(hashSessionToken(token));
  if (!found) return undefined;
  if (Date.now() - found.session.last_seen_at.getTime() > TOUCH_AFTER_MS) {
    const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
    await sessionRepository(db).touch(found.session.id, expiresAt);
    found.session.expires_at = expiresAt;
  }
  return found;
}

export async function signOut(db: Db, sessionId: string): Promise<void> {
  await sessionRepository(db).delete(sessionId);
}

/** 404 unless the user is a member of the workspace (another workspace is "not found"). */
export async function switchWorkspace(db: Db, current: SessionWithContext, workspaceId: string): Promise<void> {
  const role = await membershipRepository(db).role(current.user.id, workspaceId);
  if (!role) throw new AppError('workspace_not_found', 404, 'Workspace not found');
  await sessionRepository(db).switchWorkspace(current.session.id, workspaceId);
}

/** GET /api/me */
export async function describeMe(db: Db, current: SessionWithContext) {
  const workspaces = await membershipRepository(db).workspacesOf(current.user.id);
  const w = current.workspace;
  return {
    user: { id: current.user.id, email: current.user.email },
    workspace: { id: w.id, name: w.name, plan: w.plan, frozen: w.frozen },
    role: current.role,
    workspaces: workspaces.map((m) => ({ id: m.id, name: m.name, role: m.role })),
  };
}
