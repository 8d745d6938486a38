package store

// schemaVersion is stored in PRAGMA user_version; bump it with a migration.
// Schema 2 added studies.uid (migrateStudyUID in uid.go).
const schemaVersion = 2

const schema = `
CREATE TABLE IF NOT EXISTS studies (
	id          INTEGER PRIMARY KEY,
	name        TEXT NOT NULL,
	spec_yaml   TEXT NOT NULL,
	seed        INTEGER NOT NULL,
	host_json   TEXT NOT NULL,
	status      TEXT NOT NULL,
	created_at  INTEGER NOT NULL,
	finished_at INTEGER
);
CREATE TABLE IF NOT EXISTS runs (
	id            INTEGER PRIMARY KEY,
	study_id      INTEGER NOT NULL REFERENCES studies(id),
	seq           INTEGER NOT NULL,
	cell_key      TEXT NOT NULL,
	workload      TEXT NOT NULL,
	env           TEXT NOT NULL,
	levels_json   TEXT NOT NULL,
	params_json   TEXT NOT NULL,
	rep           INTEGER NOT NULL,
	warmup        INTEGER NOT NULL,
	status        TEXT NOT NULL,
	reason        TEXT NOT NULL DEFAULT '',
	settings_json TEXT NOT NULL DEFAULT '{}',
	notes_json    TEXT NOT NULL DEFAULT '{}',
	started_at    INTEGER,
	ended_at      INTEGER,
	UNIQUE (study_id, seq)
);
CREATE INDEX IF NOT EXISTS runs_by_study ON runs(study_id, status);
CREATE TABLE IF NOT EXISTS samples (
	run_id   INTEGER NOT NULL REFERENCES runs(id),
	instance INTEGER NOT NULL DEFAULT 0, -- 0: the run's figure; 1..N: one of N concurrent instances
	metric   TEXT NOT NULL,
	value    REAL NOT NULL,
	unit     TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS samples_by_run ON samples(run_id);
CREATE TABLE IF NOT EXISTS series (
	run_id INTEGER NOT NULL REFERENCES runs(id),
	instance INTEGER NOT NULL DEFAULT 0,
	name   TEXT NOT NULL,
	unit   TEXT NOT NULL,
	chunk  INTEGER NOT NULL,
	n      INTEGER NOT NULL,
	data   BLOB NOT NULL, -- n little-endian float64 values
	PRIMARY KEY (run_id, instance, name, chunk)
) WITHOUT ROWID;
`
