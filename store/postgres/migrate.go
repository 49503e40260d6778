package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"go.uber.org/zap"
)

// migrationFiles are the schema's migrations, NNNN_what.sql, applied in
// order from 0001. A released migration is never edited: a change of the
// schema is a new file.
//
//go:embed migrations/*.sql
var migrationFiles embed.FS

// migration is one numbered step of the schema.
type migration struct {
	version int
	name    string
	sql     string
}

// ErrSchemaTooNew is returned by Open for a database that a newer binary
// migrated: this binary does not know its tables and must not write them.
var ErrSchemaTooNew = errors.New("the database schema is newer than this binary")

// loadMigrations reads the embedded migrations, in order, and checks that
// they are numbered 1, 2, 3… with no gap or repeat.
func loadMigrations() ([]migration, error) {
	entries, err := fs.ReadDir(migrationFiles, "migrations")
	if err != nil {
		return nil, fmt.Errorf("reading the embedded migrations: %w", err)
	}
	var out []migration
	for _, e := range entries {
		prefix, _, ok := strings.Cut(e.Name(), "_")
		v, err := strconv.Atoi(prefix)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("migration %s is not named NNNN_what.sql", e.Name())
		}
		b, err := fs.ReadFile(migrationFiles, path.Join("migrations", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("reading migration %s: %w", e.Name(), err)
		}
		out = append(out, migration{version: v, name: e.Name(), sql: string(b)})
	}
	slices.SortFunc(out, func(a, b migration) int { return a.version - b.version })
	for i, m := range out {
		if m.version != i+1 {
			return nil, fmt.Errorf("migration %s: want version %d (migrations are numbered from 1 without gaps)", m.name, i+1)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no migrations are embedded")
	}
	return out, nil
}

// migrate brings the schema to the newest embedded migration. Each step is
// a transaction of its own that first takes a transaction-scoped advisory
// lock of the schema and checks schema_migrations again under it, so
// replicas starting at once wait for one another and apply each step once;
// a step that fails rolls back whole and leaves the version before it.
func migrate(ctx context.Context, pool *pgxpool.Pool, schema string, log *zap.Logger) error {
	ms, err := loadMigrations()
	if err != nil {
		return err
	}
	key := lockKey("migrate", schema)
	latest := ms[len(ms)-1].version
	err = inTx(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, key); err != nil {
			return fmt.Errorf("locking the schema: %w", err)
		}
		if schema != "" {
			if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+pgx.Identifier{schema}.Sanitize()); err != nil {
				return fmt.Errorf("creating schema %s: %w", schema, err)
			}
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
			version    integer     PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return fmt.Errorf("creating schema_migrations: %w", err)
		}
		var current int
		if err := tx.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
			return fmt.Errorf("reading the schema version: %w", err)
		}
		if current > latest {
			return fmt.Errorf("%w: the database is at version %d and this binary knows versions up to %d; run the newer binary", ErrSchemaTooNew, current, latest)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("migrating: %w", err)
	}
	for _, m := range ms {
		applied := false
		err := inTx(ctx, pool, func(tx pgx.Tx) error {
			applied = false
			if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, key); err != nil {
				return fmt.Errorf("locking the schema: %w", err)
			}
			var done bool
			if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE version = $1)`, m.version).Scan(&done); err != nil {
				return fmt.Errorf("reading the schema version: %w", err)
			}
			if done {
				return nil
			}
			// No arguments: pgx sends it by the simple protocol, which runs
			// a file of several statements.
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return err
			}
			if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version) VALUES ($1)`, m.version); err != nil {
				return fmt.Errorf("recording the version: %w", err)
			}
			applied = true
			return nil
		})
		if err != nil {
			return fmt.Errorf("migrating to %s: %w", m.name, err)
		}
		if applied {
			log.Info("migrated the PostgreSQL schema", zap.String("migration", m.name), zap.String("schema", schema))
		}
	}
	return nil
}
