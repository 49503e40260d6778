// Package pgtest gives a test a PostgreSQL schema of its own, in the
// database of X402_TEST_DATABASE_URL, so tests that run in parallel never
// share rows. A test without that variable is skipped with a message that
// says what it needed; .ci/run sets it to the local server.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL is the variable that names the test database.
const EnvURL = "X402_TEST_DATABASE_URL"

// URL returns the test database's URL, or skips t, saying that what (such
// as "the fleet tests") needs PostgreSQL.
func URL(t testing.TB, what string) string {
	t.Helper()
	u := os.Getenv(EnvURL)
	if u == "" {
		t.Skipf("%s is not set: skipping %s, which need PostgreSQL (.ci/run sets it to postgres://postgres@127.0.0.1:5432/test?sslmode=disable)", EnvURL, what)
	}
	return u
}

// Schema returns a fresh schema name that starts with prefix, and drops
// that schema (CASCADE) when the test ends. Call it before opening stores
// on the schema, so that the drop runs after their cleanups close them.
func Schema(t testing.TB, url, prefix string) string {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	schema := prefix + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+pgx.Identifier{schema}.Sanitize()+` CASCADE`); err != nil {
			t.Errorf("dropping schema %s: %v", schema, err)
		}
	})
	return schema
}
