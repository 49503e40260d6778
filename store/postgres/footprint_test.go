package postgres

import (
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/store/storetest"
)

// BenchmarkPaymentFootprint reports what one paid request adds to the
// settlements table, its TOAST table and its indexes: settled payments
// alternately exact and aa-native, as the facilitator stored them on the
// devnet (storetest.Payment), each claimed with its transaction, settled
// and served. Run it with a fixed count, such as -benchtime=5000x.
// table-B/payment and index-B/payment are measured after a VACUUM FULL
// (the live rows alone); written-B/payment before it, with the dead row
// versions of each payment's updates that autovacuum makes reusable.
func BenchmarkPaymentFootprint(b *testing.B) {
	url := pgtest.URL(b, "the PostgreSQL benchmarks")
	s, err := Open(b.Context(), Config{URL: url, MaxConns: 8, Schema: pgtest.Schema(b, url, "x402_bench_")})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	created := time.Unix(1_800_000_000, 0).UTC()
	var wg sync.WaitGroup
	work := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range work {
				storetest.Settle(b, s, storetest.Payment(i, created.Add(time.Duration(i)*time.Millisecond)))
			}
		})
	}
	for i := range b.N {
		work <- i
	}
	close(work)
	wg.Wait()
	b.StopTimer()
	size := func() (table, index int64) {
		if err := s.pool.QueryRow(b.Context(), `SELECT pg_table_size('settlements'), pg_indexes_size('settlements')`).Scan(&table, &index); err != nil {
			b.Fatal(err)
		}
		return table, index
	}
	table, index := size()
	b.ReportMetric(float64(table+index)/float64(b.N), "written-B/payment")
	if _, err := s.pool.Exec(b.Context(), `VACUUM FULL settlements`); err != nil {
		b.Fatal(err)
	}
	table, index = size()
	b.ReportMetric(float64(table)/float64(b.N), "table-B/payment")
	b.ReportMetric(float64(index)/float64(b.N), "index-B/payment")
}
