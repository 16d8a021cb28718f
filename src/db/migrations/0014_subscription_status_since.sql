-- When the subscription status last changed: a past_due account keeps its plan's entitlements for
-- 7 days from then (src/accounts/plans.ts, entitledPlan). Rows stored so far count from now.
ALTER TABLE users ADD COLUMN subscription_status_since timestamptz NOT NULL DEFAULT now();
-- A paid plan was always given with a status (active unless told otherwise); a row that still says
-- none under a paid plan was written by hand, and meant active.
UPDATE users SET subscription_status = 'active' WHERE plan <> 'Explorer' AND subscription_status = 'none';
