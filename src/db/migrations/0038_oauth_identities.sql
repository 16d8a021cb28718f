-- Sign-in with Google, Roblox, Discord and X. An account made by a provider sign-in has no
-- password (password_hash null: password login fails for it, in the same time as a wrong password).
ALTER TABLE users ALTER COLUMN password_hash DROP NOT NULL;

-- One row per provider account linked to a user: (provider, subject) is the provider's stable id
-- (OpenID Connect `sub`; Discord's and X's user id). Roblox's subject is the Roblox user id and
-- display_name its username, so a creator can later be matched to their games. A user links at
-- most one account per provider. email/email_verified are what the provider said at the last
-- sign-in (informational: matching by e-mail happens only when an identity is first seen).
CREATE TABLE user_identities (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  provider text NOT NULL CHECK (provider IN ('google', 'roblox', 'discord', 'x')),
  subject text NOT NULL CHECK (length(subject) BETWEEN 1 AND 255),
  email text,
  email_verified boolean NOT NULL DEFAULT false,
  display_name text,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz NOT NULL,
  UNIQUE (provider, subject),
  UNIQUE (user_id, provider)
);
