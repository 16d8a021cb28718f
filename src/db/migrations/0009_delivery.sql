-- Alert delivery beyond the in-app list: registered webhooks, the e-mail outbox and a log of
-- every delivery (one row per firing and channel target), which is also the retry queue.

-- A user's webhook endpoints. The secret signs every payload (HMAC-SHA256), so it is kept as
-- given (a hash could not sign); it is never logged nor returned after creation.
CREATE TABLE webhooks (
  id bigserial PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  url text NOT NULL,
  secret text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhooks_user_idx ON webhooks (user_id, id);

-- Every alert e-mail: the mail itself in embedded mode (no SMTP_URL: `svc outbox` reads it,
-- sent_at stays NULL), a copy of what the SMTP server accepted otherwise (sent_at set).
CREATE TABLE outbox (
  id bigserial PRIMARY KEY,
  delivery_id bigint,
  to_address text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL,
  sent_at timestamptz
);
CREATE INDEX outbox_created_idx ON outbox (created_at DESC, id DESC);

-- One delivery per (firing, channel, webhook). firing_id names alert_firings(id) without a
-- foreign key, so delivery does not depend on the alert tables' exact shape; the payload is the
-- firing as it was when it fired (the webhook body and the e-mail are built from it).
-- A claimed delivery stays 'pending' with next_attempt_at pushed past its lease, so a worker that
-- dies mid-send leaves it due again once the lease ends and two workers never send it at once.
CREATE TABLE deliveries (
  id bigserial PRIMARY KEY,
  firing_id bigint NOT NULL,
  alert_id bigint NOT NULL,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  channel text NOT NULL CHECK (channel IN ('email', 'webhook')),
  webhook_id bigint REFERENCES webhooks (id) ON DELETE CASCADE,
  payload jsonb NOT NULL,
  fired_at timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed', 'gave_up')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  last_error text,
  last_status integer,
  created_at timestamptz NOT NULL,
  delivered_at timestamptz,
  CHECK ((channel = 'webhook') = (webhook_id IS NOT NULL))
);
CREATE UNIQUE INDEX deliveries_target_key ON deliveries (firing_id, channel, COALESCE(webhook_id, 0));
CREATE INDEX deliveries_due_idx ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_webhook_idx ON deliveries (webhook_id, id DESC) WHERE webhook_id IS NOT NULL;
