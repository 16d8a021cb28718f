/** Third-party sign-in SQL: the user_identities table. The only file in oauth/ with SQL. */
import type { OAuthProviderId } from '../../config.js';
import type { Queryable } from '../../db/index.js';

export interface IdentityRow {
  id: number;
  user_id: number;
  provider: OAuthProviderId;
  subject: string;
  email: string | null;
  email_verified: boolean;
  display_name: string | null;
  created_at: Date;
  last_used_at: Date;
}

const COLUMNS =
  'id, user_id, provider, subject, email, email_verified, display_name, created_at, last_used_at';

export interface IdentityFacts {
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  now: Date;
}

export async function findIdentity(
  db: Queryable,
  provider: OAuthProviderId,
  subject: string,
): Promise<IdentityRow | undefined> {
  const res = await db.query<IdentityRow>(
    `SELECT ${COLUMNS} FROM user_identities WHERE provider = $1 AND subject = $2`,
    [provider, subject],
  );
  return res.rows[0];
}

/** Links an identity; a unique violation (23505) when it or the user's provider slot is taken. */
export async function insertIdentity(
  db: Queryable,
  i: IdentityFacts & { userId: number; provider: OAuthProviderId; subject: string },
): Promise<IdentityRow> {
  const res = await db.query<IdentityRow>(
    `INSERT INTO user_identities (user_id, provider, subject, email, email_verified, display_name, created_at,
                                  last_used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
    [i.userId, i.provider, i.subject, i.email, i.emailVerified, i.displayName, i.now],
  );
  return res.rows[0]!;
}

/** Records a sign-in with the identity and what the provider says about it now. */
export async function touchIdentity(db: Queryable, id: number, facts: IdentityFacts): Promise<void> {
  await db.query(
    `UPDATE user_identities SET email = $2, email_verified = $3, display_name = $4, last_used_at = $5
      WHERE id = $1`,
    [id, facts.email, facts.emailVerified, facts.displayName, facts.now],
  );
}

export async function listIdentities(db: Queryable, userId: number): Promise<IdentityRow[]> {
  const res = await db.query<IdentityRow>(
    `SELECT ${COLUMNS} FROM user_identities WHERE user_id = $1 ORDER BY created_at, id`,
    [userId],
  );
  return res.rows;
}

export async function findUserIdentity(
  db: Queryable,
  userId: number,
  provider: OAuthProviderId,
): Promise<IdentityRow | undefined> {
  const res = await db.query<IdentityRow>(
    `SELECT ${COLUMNS} FROM user_identities WHERE user_id = $1 AND provider = $2`,
    [userId, provider],
  );
  return res.rows[0];
}

/**
 * Whether the user has a password, and how many identities, with the user's row locked (in a
 * transaction) so two unlinks at once cannot both take the last other way in.
 */
export async function lockSignInMethods(
  db: Queryable,
  userId: number,
): Promise<{ has_password: boolean; identities: number } | undefined> {
  const res = await db.query<{ has_password: boolean; identities: number }>(
    `SELECT password_hash IS NOT NULL AS has_password,
            (SELECT count(*)::int FROM user_identities i WHERE i.user_id = users.id) AS identities
       FROM users WHERE id = $1 FOR UPDATE`,
    [userId],
  );
  return res.rows[0];
}

export async function hasPassword(db: Queryable, userId: number): Promise<boolean> {
  const res = await db.query<{ has_password: boolean }>(
    'SELECT password_hash IS NOT NULL AS has_password FROM users WHERE id = $1',
    [userId],
  );
  return res.rows[0]?.has_password ?? false;
}

export async function deleteIdentity(
  db: Queryable,
  userId: number,
  provider: OAuthProviderId,
): Promise<boolean> {
  const res = await db.query('DELETE FROM user_identities WHERE user_id = $1 AND provider = $2', [
    userId,
    provider,
  ]);
  return res.rowCount > 0;
}
