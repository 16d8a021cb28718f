-- Webhook secrets are now encrypted at rest (AES-256-GCM, src/tracking/delivery/secret-box.ts):
-- `v1:<key id>:<iv>:<ciphertext+tag>`. SQL has no key, so this tags every row stored so far (all
-- plain text) as `plain:<secret>`: every stored value then says what it is (no plain secret can
-- be mistaken for an encrypted one), tagged rows keep signing, and the next start (or
-- `svc webhooks rotate-secrets`) encrypts them.
UPDATE webhooks SET secret = 'plain:' || secret;
