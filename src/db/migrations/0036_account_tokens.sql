-- E-mail verification and password reset. A user's address is verified once they follow the
-- link mailed at registration (email_verified_at set); alert e-mails go to verified addresses
-- only. Accounts that exist before this migration were created by an operator, the CLI or the
-- demo seeding, or registered before verification existed: they count as verified from their
-- creation (no mail they used to receive stops). New accounts from the public sign-up start
-- unverified; accounts the CLI or an administrator creates are verified at creation.
ALTER TABLE users ADD COLUMN email_verified_at timestamptz;
UPDATE users SET email_verified_at = created_at;

-- Single-use tokens mailed to the account's address: verify (24 h) and reset (1 h). Only the
-- SHA-256 of a token is stored; a token is consumed by setting used_at in the same statement that
-- checks it is unused and unexpired, so a replay (or a concurrent second use) finds nothing.
CREATE TABLE account_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('verify', 'reset')),
  token_hash text NOT NULL,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX account_tokens_hash_key ON account_tokens (token_hash);
CREATE INDEX account_tokens_user_idx ON account_tokens (user_id, kind);
