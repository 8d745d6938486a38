package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A study's uid is a UUID that names it in every database it is copied to:
// `boxtax merge` adds a study only when no study with its uid is there yet,
// so merging the same file twice adds nothing. New studies get a random
// (version 4) uid from a trigger; studies written before the column existed
// get one derived from what never changes about them (name, seed, creation
// time, host facts, spec), so an old file gets the same uids whether it is
// upgraded in place or read by merge without being upgraded.

// migrateStudyUID adds the uid column (schema 2) to a database that lacks it,
// fills it for every study, and installs the trigger that gives new studies
// theirs. It is idempotent, and one transaction (begun IMMEDIATE, so two
// programs opening an old file at once take turns).
func migrateStudyUID(ctx context.Context, sqlDB *sql.DB) (err error) {
	db, err := sqlDB.Conn(ctx)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_, _ = db.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
			return
		}
		if _, err = db.ExecContext(ctx, `COMMIT`); err != nil {
			_, _ = db.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		}
	}()
	has, err := hasColumn(ctx, db, "studies", "uid")
	if err != nil {
		return err
	}
	if !has {
		if _, err := db.ExecContext(ctx, `ALTER TABLE studies ADD COLUMN uid TEXT`); err != nil {
			return fmt.Errorf("adding studies.uid: %w", err)
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT `+studyCols+` FROM studies WHERE uid IS NULL OR uid = ''`)
	if err != nil {
		return err
	}
	var old []Study
	for rows.Next() {
		st, err := scanStudy(rows)
		if err != nil {
			rows.Close()
			return err
		}
		old = append(old, st)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, st := range old {
		if _, err := db.ExecContext(ctx, `UPDATE studies SET uid=? WHERE id=?`, derivedUID(st), st.ID); err != nil {
			return fmt.Errorf("giving study %d its uid: %w", st.ID, err)
		}
	}
	for _, stmt := range []string{
		`CREATE UNIQUE INDEX IF NOT EXISTS studies_by_uid ON studies(uid)`,
		strings.Replace(studyUIDTrigger, "CREATE TRIGGER ", "CREATE TRIGGER IF NOT EXISTS ", 1),
	} {
		if _, err := db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("installing the study uid index and trigger: %w", err)
		}
	}
	return nil
}

// studyUIDTrigger gives a new study its uid. SQLite keeps this text in
// sqlite_schema, where merge checks that an input's trigger is this one.
const studyUIDTrigger = `CREATE TRIGGER studies_new_uid AFTER INSERT ON studies WHEN NEW.uid IS NULL OR NEW.uid = ''
		BEGIN UPDATE studies SET uid = ` + sqlUUIDv4 + ` WHERE id = NEW.id; END`

// sqlUUIDv4 is an SQL expression for a random version 4 UUID.
const sqlUUIDv4 = `(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' ||
	substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) ||
	substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))`

// derivedUID is the uid of a study stored before uids existed: a version 8
// (custom) UUID from the SHA-256 of the study's unchanging fields.
func derivedUID(st Study) string {
	h := sha256.New()
	for _, part := range []string{st.Name, strconv.FormatInt(st.Seed, 10), strconv.FormatInt(st.CreatedAt.UnixNano(), 10), st.HostJSON, st.SpecYAML} {
		fmt.Fprintf(h, "%d:%s\x00", len(part), part)
	}
	return formatUUID(h.Sum(nil)[:16], 8)
}

func formatUUID(b []byte, version byte) string {
	b[6] = b[6]&0x0f | version<<4
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// StudyUID returns the uid of a study.
func (s *Store) StudyUID(ctx context.Context, id int64) (string, error) {
	var uid sql.NullString
	err := s.db.QueryRowContext(ctx, `SELECT uid FROM studies WHERE id=?`, id).Scan(&uid)
	if errors.Is(err, sql.ErrNoRows) {
		return "", fmt.Errorf("study %d in %s: %w", id, s.path, ErrNotFound)
	}
	return uid.String, err
}

// hasColumn tells whether a table has a column.
func hasColumn(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, table, column string) (bool, error) {
	var n int
	if err := q.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = ?`, table, column).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}
