-- The operator's listing and summaries of settlements (store.Reporter).
--
-- New columns repeat fields of the stored record, as state and consumer
-- do, so listings filter and summaries aggregate in SQL: scheme, payer,
-- pay_to, asset, amount (numeric, NULL for a record without one) and
-- error_reason (the response's error code, NULL without one). created and
-- updated become the record's own Created and Updated times, truncated to
-- the microsecond as the store writes them from now on; they held the
-- database's times of the insert and of the last write.
--
-- Existing rows are filled from their record's JSON.

ALTER TABLE settlements
	ADD COLUMN scheme       text,
	ADD COLUMN payer        bytea CHECK (length(payer) = 20),
	ADD COLUMN pay_to       bytea CHECK (length(pay_to) = 20),
	ADD COLUMN asset        bytea CHECK (length(asset) = 20),
	ADD COLUMN amount       numeric,
	ADD COLUMN error_reason text;

UPDATE settlements AS s SET
	scheme       = coalesce(r.j->>'scheme', ''),
	payer        = coalesce(decode(substr(r.j->>'payer', 3), 'hex'), decode(repeat('00', 20), 'hex')),
	pay_to       = coalesce(decode(substr(r.j->>'payTo', 3), 'hex'), decode(repeat('00', 20), 'hex')),
	asset        = coalesce(decode(substr(r.j->>'asset', 3), 'hex'), decode(repeat('00', 20), 'hex')),
	amount       = (r.j->>'amount')::numeric,
	error_reason = coalesce(nullif(r.j->'response'->>'errorCode', ''), nullif(r.j->'response'->>'errorReason', '')),
	-- Go writes up to nine digits of a second; the store truncates to six.
	created      = coalesce(regexp_replace(r.j->>'created', '(\.[0-9]{6})[0-9]+', '\1')::timestamptz, s.created),
	updated      = coalesce(regexp_replace(r.j->>'updated', '(\.[0-9]{6})[0-9]+', '\1')::timestamptz, s.updated)
FROM (SELECT key, convert_from(record, 'UTF8')::jsonb AS j FROM settlements) AS r
WHERE s.key = r.key;

ALTER TABLE settlements
	ALTER COLUMN scheme SET NOT NULL,
	ALTER COLUMN payer  SET NOT NULL,
	ALTER COLUMN pay_to SET NOT NULL,
	ALTER COLUMN asset  SET NOT NULL;

-- The listing's order, and the summaries' window.
CREATE INDEX settlements_created ON settlements (created DESC, key DESC);
-- Listings of one payer, or of one payee.
CREATE INDEX settlements_payer ON settlements (payer, created DESC, key DESC);
CREATE INDEX settlements_pay_to ON settlements (pay_to, created DESC, key DESC);
