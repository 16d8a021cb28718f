/** Accounts SQL: users, teams, refresh tokens, API keys. The only file here with SQL. */
import type { Queryable } from '../db/index.js';
import type { PlanName, SubscriptionStatus } from '../plans.js';

export interface UserRow {
  id: number;
  email: string;
  /** null: the account signs in through a third-party provider only. */
  password_hash: string | null;
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  is_admin: boolean;
  token_version: number;
  team_id: number;
  email_verified_at: Date | null;
}

export interface AuthStateRow {
  id: number;
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  subscription_status_since: Date;
  is_admin: boolean;
  token_version: number;
  team_id: number;
}

const USER_COLUMNS =
  'id, email, password_hash, plan, subscription_status, is_admin, token_version, team_id, email_verified_at';

/** A user's personal team (its owner row is added with the user: insertPersonalOwner). */
export async function insertTeam(db: Queryable, name: string): Promise<number> {
  const res = await db.query<{ id: number }>(
    'INSERT INTO teams (name, personal) VALUES ($1, true) RETURNING id',
    [name],
  );
  return res.rows[0]!.id;
}

export async function insertPersonalOwner(
  db: Queryable,
  teamId: number,
  userId: number,
  now: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', $3)`,
    [teamId, userId, now],
  );
}

/** Inserts a user; throws a unique violation (SQLSTATE 23505) when the e-mail is taken. */
export async function insertUser(
  db: Queryable,
  user: {
    email: string;
    passwordHash: string | null;
    plan: PlanName;
    status: SubscriptionStatus;
    isAdmin: boolean;
    teamId: number;
    now: Date;
    /** false: a public sign-up, unverified until the mailed link is followed. */
    emailVerified: boolean;
  },
): Promise<UserRow> {
  const res = await db.query<UserRow>(
    `INSERT INTO users (email, password_hash, plan, subscription_status, subscription_status_since, is_admin, team_id,
                        email_verified_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${USER_COLUMNS}`,
    [
      user.email,
      user.passwordHash,
      user.plan,
      user.status,
      user.now,
      user.isAdmin,
      user.teamId,
      user.emailVerified ? user.now : null,
    ],
  );
  return res.rows[0]!;
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [email])).rows[0];
}

export async function findUserById(db: Queryable, id: number): Promise<UserRow | undefined> {
  return (await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id])).rows[0];
}

export async function findAuthState(db: Queryable, id: number): Promise<AuthStateRow | undefined> {
  return (
    await db.query<AuthStateRow>(
      `SELECT id, plan, subscription_status, subscription_status_since, is_admin, token_version, team_id
         FROM users WHERE id = $1`,
      [id],
    )
  ).rows[0];
}

/** Bumps the token version (login, logout, token reuse) and returns the new one. */
export async function bumpTokenVersion(db: Queryable, userId: number): Promise<number> {
  const res = await db.query<{ token_version: number }>(
    'UPDATE users SET token_version = token_version + 1, updated_at = now() WHERE id = $1 RETURNING token_version',
    [userId],
  );
  return res.rows[0]?.token_version ?? 0;
}

/** Changes the plan and/or status; `subscription_status_since` moves only when the status changes. */
export async function updatePlan(
  db: Queryable,
  userId: number,
  change: { plan: PlanName | undefined; status: SubscriptionStatus | undefined },
  now: Date,
): Promise<UserRow | undefined> {
  const res = await db.query<UserRow>(
    `UPDATE users SET plan = COALESCE($2, plan),
            subscription_status_since = CASE WHEN $3::text IS NOT NULL AND $3::text <> subscription_status
                                             THEN $4::timestamptz ELSE subscription_status_since END,
            subscription_status = COALESCE($3, subscription_status), updated_at = now()
      WHERE id = $1 RETURNING ${USER_COLUMNS}`,
    [userId, change.plan ?? null, change.status ?? null, now],
  );
  return res.rows[0];
}

/** A user with the universe ids they track, in one round trip (GET /api/auth/me). */
export async function findUserProfile(
  db: Queryable,
  id: number,
): Promise<(UserRow & { tracked_games: number[] }) | undefined> {
  const res = await db.query<UserRow & { tracked_games: number[] }>(
    `SELECT ${USER_COLUMNS},
            ARRAY(SELECT t.universe_id FROM tracked_games t WHERE t.team_id = users.team_id
                  ORDER BY t.created_at, t.universe_id) AS tracked_games
       FROM users WHERE id = $1`,
    [id],
  );
  return res.rows[0];
}

export async function trackedUniverseIds(db: Queryable, userId: number): Promise<number[]> {
  const res = await db.query<{ universe_id: number }>(
    `SELECT universe_id FROM tracked_games WHERE team_id = (SELECT team_id FROM users WHERE id = $1)
      ORDER BY created_at, universe_id`,
    [userId],
  );
  return res.rows.map((r) => r.universe_id);
}

export interface AdminUserRow {
  id: number;
  email: string;
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  is_admin: boolean;
  created_at: Date;
}

/** `text` as a LIKE pattern that matches it literally (with ESCAPE '\\'): % and _ match themselves. */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The filter both queries below share: the e-mail contains $1 in any case, or $1 is null (everyone). */
const EMAIL_CONTAINS = `($1::text IS NULL OR email ILIKE '%' || $1::text || '%' ESCAPE '\\')`;

/** One page of users, newest first (the admin list); never the password hash. */
export async function listUsersPage(
  db: Queryable,
  p: { q: string | null; limit: number; offset: number },
): Promise<AdminUserRow[]> {
  const res = await db.query<AdminUserRow>(
    `SELECT id, email, plan, subscription_status, is_admin, created_at FROM users
      WHERE ${EMAIL_CONTAINS}
      ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [p.q === null ? null : likeLiteral(p.q), p.limit, p.offset],
  );
  return res.rows;
}

export async function countUsers(db: Queryable, q: string | null): Promise<number> {
  const res = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM users WHERE ${EMAIL_CONTAINS}`,
    [q === null ? null : likeLiteral(q)],
  );
  return res.rows[0]?.total ?? 0;
}

// Refresh tokens ---------------------------------------------------------------------------------

export interface RefreshRow {
  id: number;
  user_id: number;
  family_id: string;
  token_version: number;
  expires_at: Date;
  consumed_at: Date | null;
  revoked_at: Date | null;
}

export async function insertRefreshToken(
  db: Queryable,
  t: { userId: number; familyId: string; hash: string; tokenVersion: number; expiresAt: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO refresh_tokens (user_id, family_id, token_hash, token_version, expires_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [t.userId, t.familyId, t.hash, t.tokenVersion, t.expiresAt],
  );
}

export async function findRefreshToken(db: Queryable, hash: string): Promise<RefreshRow | undefined> {
  return (
    await db.query<RefreshRow>(
      `SELECT id, user_id, family_id, token_version, expires_at, consumed_at, revoked_at
         FROM refresh_tokens WHERE token_hash = $1`,
      [hash],
    )
  ).rows[0];
}

/** Marks the token consumed if nobody did before: of two concurrent callers exactly one wins. */
export async function consumeRefreshToken(db: Queryable, id: number, now: Date): Promise<boolean> {
  const res = await db.query(
    'UPDATE refresh_tokens SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL AND revoked_at IS NULL',
    [id, now],
  );
  return res.rowCount === 1;
}

export async function revokeFamily(db: Queryable, familyId: string, now: Date): Promise<void> {
  await db.query('UPDATE refresh_tokens SET revoked_at = $2 WHERE family_id = $1 AND revoked_at IS NULL', [
    familyId,
    now,
  ]);
}

/** Refresh tokens past their expiry can never be used again (nor replayed meaningfully). */
export async function purgeDeadRefreshTokens(db: Queryable, olderThan: Date): Promise<number> {
  const res = await db.query('DELETE FROM refresh_tokens WHERE expires_at < $1', [olderThan]);
  return res.rowCount;
}

// Account tokens (e-mail verification, password reset) --------------------------------------------

export type AccountTokenKind = 'verify' | 'reset';

/**
 * Stores a token for the account with this e-mail, if there is one: the same statement runs whether
 * or not the account exists (no enumeration by timing). Returns the user id, or undefined.
 */
export async function insertAccountTokenByEmail(
  db: Queryable,
  t: { email: string; kind: AccountTokenKind; hash: string; expiresAt: Date; now: Date },
): Promise<number | undefined> {
  const res = await db.query<{ user_id: number }>(
    `INSERT INTO account_tokens (user_id, kind, token_hash, expires_at, created_at)
     SELECT id, $2, $3, $4, $5 FROM users WHERE email = $1 RETURNING user_id`,
    [t.email, t.kind, t.hash, t.expiresAt, t.now],
  );
  return res.rows[0]?.user_id;
}

export async function insertAccountToken(
  db: Queryable,
  t: { userId: number; kind: AccountTokenKind; hash: string; expiresAt: Date; now: Date },
): Promise<void> {
  await db.query(
    `INSERT INTO account_tokens (user_id, kind, token_hash, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5)`,
    [t.userId, t.kind, t.hash, t.expiresAt, t.now],
  );
}

/**
 * Uses a token: unused, unexpired and of this kind, it is marked used in the same statement and its
 * user id returned; anything else (unknown, expired, used, a concurrent second use) → undefined.
 */
export async function consumeAccountToken(
  db: Queryable,
  t: { kind: AccountTokenKind; hash: string; now: Date },
): Promise<number | undefined> {
  const res = await db.query<{ user_id: number }>(
    `UPDATE account_tokens SET used_at = $3
      WHERE token_hash = $1 AND kind = $2 AND used_at IS NULL AND expires_at > $3
      RETURNING user_id`,
    [t.hash, t.kind, t.now],
  );
  return res.rows[0]?.user_id;
}

/** Marks every other unused token of a kind used (a reset voids the other reset links). */
export async function voidAccountTokens(
  db: Queryable,
  userId: number,
  kind: AccountTokenKind,
  now: Date,
): Promise<void> {
  await db.query(
    'UPDATE account_tokens SET used_at = $3 WHERE user_id = $1 AND kind = $2 AND used_at IS NULL',
    [userId, kind, now],
  );
}

/** Deletes tokens expired before `olderThan` (used or not): they can never be used again. */
export async function purgeDeadAccountTokens(db: Queryable, olderThan: Date): Promise<number> {
  const res = await db.query('DELETE FROM account_tokens WHERE expires_at < $1', [olderThan]);
  return res.rowCount;
}

/** Sets the password hash and bumps the token version (every session ends); the new version. */
export async function setPassword(db: Queryable, userId: number, passwordHash: string): Promise<number> {
  const res = await db.query<{ token_version: number }>(
    `UPDATE users SET password_hash = $2, token_version = token_version + 1, updated_at = now()
      WHERE id = $1 RETURNING token_version`,
    [userId, passwordHash],
  );
  return res.rows[0]?.token_version ?? 0;
}

/** Marks the address verified (kept as first verified if it already was). */
export async function markEmailVerified(db: Queryable, userId: number, now: Date): Promise<void> {
  await db.query(
    'UPDATE users SET email_verified_at = COALESCE(email_verified_at, $2), updated_at = now() WHERE id = $1',
    [userId, now],
  );
}

/**
 * An account mail in the outbox table (the alert e-mails' outbox, read by `svc outbox`), addressed
 * to the account with this e-mail if there is one: the statement is the same either way. No
 * delivery row: delivery_id is null. `sentAt` null: embedded mode (the outbox is the mail).
 */
export async function insertAccountMail(
  db: Queryable,
  m: { email: string; subject: string; body: string; createdAt: Date; sentAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO outbox (delivery_id, to_address, subject, body, created_at, sent_at)
     SELECT NULL, email, $2, $3, $4, $5 FROM users WHERE email = $1`,
    [m.email, m.subject, m.body, m.createdAt, m.sentAt],
  );
}

/** An outbox row to any address (team invitations go to people who may have no account yet). */
export async function insertOutboxMail(
  db: Queryable,
  m: { email: string; subject: string; body: string; createdAt: Date; sentAt: Date | null },
): Promise<void> {
  await db.query(
    `INSERT INTO outbox (delivery_id, to_address, subject, body, created_at, sent_at)
     VALUES (NULL, $1, $2, $3, $4, $5)`,
    [m.email, m.subject, m.body, m.createdAt, m.sentAt],
  );
}

// API keys ---------------------------------------------------------------------------------------

export interface ApiKeyRow {
  id: number;
  user_id: number;
  team_id: number;
  name: string;
  prefix: string;
  scopes: string[];
  created_at: Date;
  last_used_at: Date | null;
}

const KEY_COLUMNS = 'id, user_id, team_id, name, prefix, scopes, created_at, last_used_at';

export async function insertApiKey(
  db: Queryable,
  k: { userId: number; teamId: number; name: string; prefix: string; hash: string; scopes: string[] },
): Promise<ApiKeyRow> {
  const res = await db.query<ApiKeyRow>(
    `INSERT INTO api_keys (user_id, team_id, name, prefix, key_hash, scopes)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${KEY_COLUMNS}`,
    [k.userId, k.teamId, k.name, k.prefix, k.hash, k.scopes],
  );
  return res.rows[0]!;
}

export async function listApiKeys(db: Queryable, teamId: number): Promise<ApiKeyRow[]> {
  return (
    await db.query<ApiKeyRow>(
      `SELECT ${KEY_COLUMNS} FROM api_keys WHERE team_id = $1 AND revoked_at IS NULL ORDER BY id`,
      [teamId],
    )
  ).rows;
}

export async function revokeApiKey(
  db: Queryable,
  teamId: number,
  keyId: number,
  now: Date,
): Promise<ApiKeyRow | undefined> {
  const res = await db.query<ApiKeyRow>(
    `UPDATE api_keys SET revoked_at = $3 WHERE id = $1 AND team_id = $2 AND revoked_at IS NULL
     RETURNING ${KEY_COLUMNS}`,
    [keyId, teamId, now],
  );
  return res.rows[0];
}

export type LiveApiKeyRow = ApiKeyRow & {
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  subscription_status_since: Date;
  personal: boolean;
};

/** A live key by its hash, with its team's owner's plan and subscription status. */
export async function findLiveApiKey(db: Queryable, hash: string): Promise<LiveApiKeyRow | undefined> {
  return (
    await db.query<LiveApiKeyRow>(
      `SELECT k.id, k.user_id, k.team_id, k.name, k.prefix, k.scopes, k.created_at, k.last_used_at, u.plan,
              u.subscription_status, u.subscription_status_since, t.personal
         FROM api_keys k
         JOIN teams t ON t.id = k.team_id
         JOIN team_members m ON m.team_id = k.team_id AND m.role = 'owner'
         JOIN users u ON u.id = m.user_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    )
  ).rows[0];
}

export async function touchApiKey(db: Queryable, keyId: number, now: Date): Promise<void> {
  await db.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [keyId, now]);
}
