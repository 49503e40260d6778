package postgres

import (
	"math/big"
	"slices"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/jackc/pgx/v5"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// A database of the first schema, whose rows hold the database's times,
// is migrated with its rows' new columns filled from their records, and
// created and updated set to the records' own times (to the microsecond):
// the listing and the summaries see the old records as the bbolt store
// would.
func TestMigrationFillsTheListingColumns(t *testing.T) {
	t.Parallel()
	cfg := freshConfig(t)
	ctx := t.Context()
	ms, err := loadMigrations()
	if err != nil {
		t.Fatal(err)
	}

	// The schema as the previous binary left it, with its rows.
	conn, err := pgx.Connect(ctx, cfg.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	schema := pgx.Identifier{cfg.Schema}.Sanitize()
	for _, sql := range []string{
		`CREATE SCHEMA ` + schema,
		`SET search_path = ` + schema,
		ms[0].sql,
		`CREATE TABLE schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`,
		`INSERT INTO schema_migrations (version) VALUES (1)`,
	} {
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatalf("%.40s: %v", sql, err)
		}
	}
	t0 := time.Date(2027, 1, 15, 8, 0, 0, 0, time.UTC)
	big2_80 := new(big.Int).Lsh(big.NewInt(1), 80)
	recs := []store.Record{
		{
			Key: common.Hash{1}, State: store.StateSettled, Scheme: x402.SchemeExact,
			Payer: common.Address{0xa1}, PayTo: common.Address{0xa2}, Asset: common.Address{0xa3}, Amount: big2_80,
			Response: &x402.SettleResponse{Success: true},
			// Nanoseconds, which PostgreSQL keeps to the microsecond.
			Created: t0.Add(123_456_789), Updated: t0.Add(2*time.Second + 123_456_999),
		},
		{
			Key: common.Hash{2}, State: store.StateFailed, Scheme: x402.SchemeAANative,
			Payer: common.Address{0xb1}, PayTo: common.Address{0xb2}, Asset: common.Address{0xb3}, Amount: big.NewInt(5),
			Response: &x402.SettleResponse{ErrorCode: x402.ErrorUserOpFailed},
			// Another zone than UTC.
			Created: t0.Add(time.Minute).In(time.FixedZone("x", 2*3600)), Updated: t0.Add(2 * time.Minute),
		},
		{
			Key: common.Hash{3}, State: store.StateClaimed, Scheme: x402.SchemeExact,
			Payer: common.Address{0xa1}, PayTo: common.Address{0xb2},
			Created: t0.Add(2 * time.Minute), Updated: t0.Add(2 * time.Minute),
		},
	}
	for _, r := range recs {
		raw, err := encode(&r)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := conn.Exec(ctx, `INSERT INTO settlements (key, state, record) VALUES ($1, $2, $3)`, r.Key[:], string(r.State), raw); err != nil {
			t.Fatal(err)
		}
	}

	s := openStore(t, cfg)
	if got := versions(t, s); !slices.Equal(got, all(t)) {
		t.Fatalf("versions: %v, want %v", got, all(t))
	}
	for _, tc := range []struct {
		key              common.Hash
		scheme           string
		payer, to, asset common.Address
		amount           *string
		reason           *string
		created, updated time.Time
	}{
		{common.Hash{1}, x402.SchemeExact, common.Address{0xa1}, common.Address{0xa2}, common.Address{0xa3}, ptr(big2_80.String()), nil,
			t0.Add(123_456 * time.Microsecond), t0.Add(2*time.Second + 123_456*time.Microsecond)},
		{common.Hash{2}, x402.SchemeAANative, common.Address{0xb1}, common.Address{0xb2}, common.Address{0xb3}, ptr("5"), ptr(string(x402.ErrorUserOpFailed)),
			t0.Add(time.Minute), t0.Add(2 * time.Minute)},
		{common.Hash{3}, x402.SchemeExact, common.Address{0xa1}, common.Address{0xb2}, common.Address{}, nil, nil,
			t0.Add(2 * time.Minute), t0.Add(2 * time.Minute)},
	} {
		var (
			scheme           string
			payer, to, asset []byte
			amount, reason   *string
			created, updated time.Time
		)
		if err := s.pool.QueryRow(ctx, `SELECT scheme, payer, pay_to, asset, amount::text, error_reason, created, updated
			FROM settlements WHERE key = $1`, tc.key[:]).Scan(&scheme, &payer, &to, &asset, &amount, &reason, &created, &updated); err != nil {
			t.Fatal(err)
		}
		if scheme != tc.scheme || common.BytesToAddress(payer) != tc.payer || common.BytesToAddress(to) != tc.to ||
			common.BytesToAddress(asset) != tc.asset || !equalPtr(amount, tc.amount) || !equalPtr(reason, tc.reason) ||
			!created.Equal(tc.created) || !updated.Equal(tc.updated) {
			t.Errorf("row %x: %s %x %x %x %v %v %v %v", tc.key[:1], scheme, payer, to, asset, deref(amount), deref(reason), created, updated)
		}
	}

	payer := common.Address{0xa1}
	p, err := s.List(ctx, store.Query{Payer: &payer})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Records) != 2 || p.Records[0].Key != (common.Hash{3}) || p.Records[1].Key != (common.Hash{1}) {
		t.Fatalf("the payer's records: %+v", p.Records)
	}
	rep, err := s.Summarize(ctx, store.SummaryQuery{Since: t0, Until: t0.Add(time.Hour), Step: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settled != 1 || rep.Failed != 1 || rep.Pending != 1 || rep.Failures[string(x402.ErrorUserOpFailed)] != 1 ||
		rep.LatencyP50 != 2*time.Second || len(rep.Steps[0].Assets) != 1 || rep.Steps[0].Assets[0].Amount.Cmp(big2_80) != 0 {
		t.Fatalf("the summary: %+v", rep)
	}
}

// ceilMicro rounds up to the microsecond, so a window's bounds keep the
// microseconds the bbolt store's nanoseconds would keep.
func TestCeilMicro(t *testing.T) {
	t.Parallel()
	t0 := time.Unix(1_800_000_000, 0)
	for _, tc := range []struct {
		in, want time.Time
	}{
		{t0, t0},
		{t0.Add(time.Nanosecond), t0.Add(time.Microsecond)},
		{t0.Add(time.Microsecond - 1), t0.Add(time.Microsecond)},
		{t0.Add(-time.Nanosecond), t0},
		{time.Unix(-1, 1), time.Unix(-1, 1000)},
	} {
		if got := ceilMicro(tc.in); !got.Equal(tc.want) {
			t.Errorf("ceilMicro(%v) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

func ptr(s string) *string { return &s }

func equalPtr(a, b *string) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func deref(s *string) string {
	if s == nil {
		return "NULL"
	}
	return *s
}
