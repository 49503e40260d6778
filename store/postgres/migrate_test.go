package postgres

import (
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// versions lists the versions recorded in s's schema_migrations.
func versions(t *testing.T, s *Store) []int {
	t.Helper()
	rows, err := s.pool.Query(t.Context(), `SELECT version FROM schema_migrations ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	v, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// all is every embedded version.
func all(t *testing.T) []int {
	t.Helper()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	var out []int
	for _, m := range ms {
		out = append(out, m.version)
	}
	return out
}

func TestMigrations(t *testing.T) {
	t.Parallel()
	testURL(t)

	t.Run("an empty schema migrates, and again is a no-op", func(t *testing.T) {
		t.Parallel()
		cfg := freshConfig(t)
		s := openStore(t, cfg)
		if got := versions(t, s); !slices.Equal(got, all(t)) {
			t.Fatalf("versions after the first Open: %v, want %v", got, all(t))
		}
		var applied time.Time
		if err := s.pool.QueryRow(t.Context(), `SELECT max(applied_at) FROM schema_migrations`).Scan(&applied); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s = openStore(t, cfg)
		if got := versions(t, s); !slices.Equal(got, all(t)) {
			t.Fatalf("versions after the second Open: %v", got)
		}
		var again time.Time
		if err := s.pool.QueryRow(t.Context(), `SELECT max(applied_at) FROM schema_migrations`).Scan(&again); err != nil {
			t.Fatal(err)
		}
		if !applied.Equal(again) {
			t.Fatalf("the second Open migrated again: applied at %v, then %v", applied, again)
		}
	})

	t.Run("replicas starting at once migrate once", func(t *testing.T) {
		t.Parallel()
		cfg := freshConfig(t)
		stores := make([]*Store, 3)
		var wg sync.WaitGroup
		for i := range stores {
			wg.Go(func() {
				s, err := Open(t.Context(), cfg)
				if err != nil {
					t.Error(err)
					return
				}
				stores[i] = s
			})
		}
		wg.Wait()
		for _, s := range stores {
			if s != nil {
				t.Cleanup(func() { s.Close() })
			}
		}
		if t.Failed() {
			t.FailNow()
		}
		if got := versions(t, stores[0]); !slices.Equal(got, all(t)) {
			t.Fatalf("versions: %v, want %v", got, all(t))
		}
	})

	t.Run("a schema of a newer binary is refused", func(t *testing.T) {
		t.Parallel()
		cfg := freshConfig(t)
		s := openStore(t, cfg)
		latest := all(t)[len(all(t))-1]
		if _, err := s.pool.Exec(t.Context(), `INSERT INTO schema_migrations (version) VALUES ($1)`, latest+1); err != nil {
			t.Fatal(err)
		}
		s.Close()
		s, err := Open(t.Context(), cfg)
		if err == nil {
			s.Close()
			t.Fatal("opened a schema of a newer binary")
		}
		if !errors.Is(err, ErrSchemaTooNew) {
			t.Fatalf("Open: %v, want ErrSchemaTooNew", err)
		}
		t.Log(err)
	})
}

// The embedded migrations are numbered from 1 without gaps.
func TestLoadMigrations(t *testing.T) {
	t.Parallel()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range ms {
		if m.version != i+1 || m.sql == "" {
			t.Fatalf("migration %d: %+v", i, m)
		}
	}
}
