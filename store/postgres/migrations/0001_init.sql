-- The first schema of the PostgreSQL store: settlements, key-value spaces
-- and the settler journal. See the package doc for what each column holds.

CREATE TABLE settlements (
	key      bytea       PRIMARY KEY CHECK (length(key) = 32),
	state    text        NOT NULL,
	record   bytea       NOT NULL,
	consumer text,
	created  timestamptz NOT NULL DEFAULT now(),
	updated  timestamptz NOT NULL DEFAULT now()
);

-- Unfinished lists what a restart reconciles: only the records in flight.
CREATE INDEX settlements_unfinished ON settlements (key) WHERE state IN ('claimed', 'submitted');

CREATE TABLE kv (
	bucket text  NOT NULL,
	key    bytea NOT NULL,
	value  bytea,
	PRIMARY KEY (bucket, key)
);

CREATE TABLE settler_txs (
	address  bytea       NOT NULL CHECK (length(address) = 20),
	nonce    bigint      NOT NULL CHECK (nonce >= 0),
	chain_id numeric     NOT NULL,
	hash     bytea       NOT NULL CHECK (length(hash) = 32),
	raw      bytea       NOT NULL,
	previous bytea[]     NOT NULL DEFAULT '{}',
	void     boolean     NOT NULL DEFAULT false,
	created  timestamptz NOT NULL DEFAULT now(),
	updated  timestamptz NOT NULL DEFAULT now(),
	PRIMARY KEY (address, nonce)
);
