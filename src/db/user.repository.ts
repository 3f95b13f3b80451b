import { randomUUID } from 'node:crypto';
import type { Db } from './knex';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  created_at: Date;
}

/** Emails are compared trimmed and lower-cased. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function userRepository(db: Db) {
  return {
    async create(email: string, passwordHash: string): Promise<UserRow> {
      const [row] = await db('users')
        .insert({ id: randomUUID(), email: normalizeEmail(email), password_hash: passwordHash })
        .returning('*');
      return row;
    },
    async findByEmail(email: string): Promise<UserRow | undefined> {
      return db('users')
        .where({ email: normalizeEmail(email) })
        .first();
    },
    async setPassword(id: string, passwordHash: string): Promise<void> {
      await db('users').where({ id }).update({ password_hash: passwordHash });
    },
  };
}
