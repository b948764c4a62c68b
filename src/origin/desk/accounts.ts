import { createHash, randomBytes } from 'node:crypto';
import { ERRORS } from '../../error-codes.js';
import type { OriginDatabase } from '../database.js';
import { passwordProblem, userNameProblem } from './credentials.js';
import { hashPassword, needsRehash, SCRYPT_DEFAULTS, verifyPassword, type ScryptParams } from './password-hash.js';
import { sessionExpired, type SessionLifetime } from './session-policy.js';

/** A logged-in editor as a desk route sees them. */
export interface DeskSession {
  userId: number;
  userName: string;
  /** The synchronizer token every state-changing form of this session carries. */
  csrfToken: string;
}

/** A new session: the id goes to the browser's cookie and nowhere else. */
export interface OpenedSession extends DeskSession {
  id: string;
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a session id: its SHA-256, so a copy of the file or a backup opens no session. */
function idHash(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

interface UserRow {
  id: number;
  name: string;
  password_hash: string;
}

/** The desk's users and sessions in the origin's database (tables `desk_users`, `desk_sessions`). */
export class AccountStore {
  readonly #db: OriginDatabase;
  readonly #scrypt: ScryptParams;
  /** Checked against when the name is unknown, so a login takes as long whether the name exists or not. */
  #decoy: Promise<string> | undefined;

  constructor(db: OriginDatabase, scryptParams: ScryptParams = SCRYPT_DEFAULTS) {
    this.#db = db;
    this.#scrypt = scryptParams;
  }

  /** Adds a user; refuses a bad name, a weak password or a name already taken. */
  async addUser(name: string, password: string, now = Date.now()): Promise<void> {
    const nameProblem = userNameProblem(name);
    if (nameProblem !== undefined) throw ERRORS.INVALID_USER(nameProblem);
    const problem = passwordProblem(password, name);
    if (problem !== undefined) throw ERRORS.INVALID_USER(problem);
    if (this.#user(name) !== undefined) throw ERRORS.USER_EXISTS(name);
    const hash = await hashPassword(password, this.#scrypt);
    try {
      this.#db.prepare('INSERT INTO desk_users (name, password_hash, created_at) VALUES (?, ?, ?)').run(name, hash, now);
    } catch (error) {
      // Another process added the same name while this one hashed.
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw ERRORS.USER_EXISTS(name);
      throw error;
    }
  }

  /** Removes a user and, with them, every session they had. False when there was no such user. */
  removeUser(name: string): boolean {
    return this.#db.prepare('DELETE FROM desk_users WHERE name = ?').run(name).changes > 0;
  }

  userNames(): string[] {
    return this.#db.prepare('SELECT name FROM desk_users ORDER BY name').pluck().all() as string[];
  }

  #user(name: string): UserRow | undefined {
    return this.#db.prepare('SELECT id, name, password_hash FROM desk_users WHERE name = ?').get(name) as UserRow | undefined;
  }

  /** The user when `password` is theirs, else undefined, in about the same time for an unknown name as a known one. */
  async authenticate(name: string, password: string): Promise<{ id: number; name: string } | undefined> {
    const user = this.#user(name);
    if (user === undefined) {
      this.#decoy ??= hashPassword(newToken(), this.#scrypt);
      await verifyPassword(password, await this.#decoy);
      return undefined;
    }
    if (!(await verifyPassword(password, user.password_hash))) return undefined;
    if (needsRehash(user.password_hash, this.#scrypt)) {
      const hash = await hashPassword(password, this.#scrypt);
      this.#db.prepare('UPDATE desk_users SET password_hash = ? WHERE id = ? AND password_hash = ?').run(hash, user.id, user.password_hash);
    }
    return { id: user.id, name: user.name };
  }

  openSession(user: { id: number; name: string }, now = Date.now()): OpenedSession {
    const id = newToken();
    const csrfToken = newToken();
    this.#db
      .prepare('INSERT INTO desk_sessions (id_hash, user_id, csrf_token, created_at, last_seen_at) VALUES (?, ?, ?, ?, ?)')
      .run(idHash(id), user.id, csrfToken, now, now);
    return { id, userId: user.id, userName: user.name, csrfToken };
  }

  /** The live session of a cookie's id, its idle clock restarted; an expired one is deleted and undefined. */
  session(id: string, lifetime: SessionLifetime, now = Date.now()): DeskSession | undefined {
    const hash = idHash(id);
    const row = this.#db
      .prepare(
        `SELECT s.user_id AS userId, u.name AS userName, s.csrf_token AS csrfToken, s.created_at AS createdAt, s.last_seen_at AS lastSeenAt
           FROM desk_sessions s JOIN desk_users u ON u.id = s.user_id WHERE s.id_hash = ?`,
      )
      .get(hash) as (DeskSession & { createdAt: number; lastSeenAt: number }) | undefined;
    if (row === undefined) return undefined;
    if (sessionExpired(row, now, lifetime)) {
      this.#db.prepare('DELETE FROM desk_sessions WHERE id_hash = ?').run(hash);
      return undefined;
    }
    this.#db.prepare('UPDATE desk_sessions SET last_seen_at = ? WHERE id_hash = ?').run(now, hash);
    return { userId: row.userId, userName: row.userName, csrfToken: row.csrfToken };
  }

  endSession(id: string): void {
    this.#db.prepare('DELETE FROM desk_sessions WHERE id_hash = ?').run(idHash(id));
  }

  /** Ends every session of a user ("log out everywhere"); how many there were. */
  endUserSessions(userId: number): number {
    return this.#db.prepare('DELETE FROM desk_sessions WHERE user_id = ?').run(userId).changes;
  }

  /** Deletes the sessions that are over, so abandoned ones do not pile up; run at each login. */
  pruneSessions(lifetime: SessionLifetime, now = Date.now()): number {
    return this.#db.prepare('DELETE FROM desk_sessions WHERE last_seen_at <= ? OR created_at <= ?').run(now - lifetime.idleMs, now - lifetime.absoluteMs).changes;
  }
}
