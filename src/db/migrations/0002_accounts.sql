-- Accounts: users with a personal team, plans, hashed refresh tokens in families, hashed API keys.
CREATE TABLE teams (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id bigserial PRIMARY KEY,
  email text NOT NULL,
  password_hash text NOT NULL,
  plan text NOT NULL DEFAULT 'Explorer' CHECK (plan IN ('Explorer', 'Builder', 'Studio', 'Enterprise')),
  subscription_status text NOT NULL DEFAULT 'none'
    CHECK (subscription_status IN ('active', 'trialing', 'past_due', 'canceled', 'none')),
  is_admin boolean NOT NULL DEFAULT false,
  token_version integer NOT NULL DEFAULT 0,
  team_id bigint NOT NULL REFERENCES teams (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CHECK (email = lower(email))
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE refresh_tokens (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  family_id uuid NOT NULL,
  token_hash text NOT NULL,
  token_version integer NOT NULL,
  expires_at timestamptz NOT NULL,
  consumed_at timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX refresh_tokens_hash_key ON refresh_tokens (token_hash);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id);

CREATE TABLE api_keys (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  team_id bigint NOT NULL REFERENCES teams (id),
  name text NOT NULL,
  prefix text NOT NULL,
  key_hash text NOT NULL,
  scopes text[] NOT NULL CHECK (cardinality(scopes) > 0),
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);
CREATE INDEX api_keys_user_idx ON api_keys (user_id);

-- Games a user tracks (universe ids); the tracking endpoints arrive with the tracking feature,
-- the list is part of GET /api/auth/me from the start.
CREATE TABLE tracked_games (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  universe_id bigint NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, universe_id)
);
