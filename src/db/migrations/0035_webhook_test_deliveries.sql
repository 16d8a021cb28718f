-- Test deliveries (POST /api/webhooks/{id}/test) go through the same queue, signing, retries and
-- log as real ones, but deliver no firing: their firing_id and alert_id are null, both together,
-- and only on the webhook channel. The unique target index treats nulls as distinct, so every
-- test is a row of its own.
ALTER TABLE deliveries ALTER COLUMN firing_id DROP NOT NULL, ALTER COLUMN alert_id DROP NOT NULL;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_test_has_no_firing
  CHECK ((firing_id IS NULL) = (alert_id IS NULL) AND (firing_id IS NOT NULL OR channel = 'webhook'));
