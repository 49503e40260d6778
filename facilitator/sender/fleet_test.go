package sender

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"math/big"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/jackc/pgx/v5"
	"go.uber.org/zap/zaptest"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
)

// fleetDatabase is the PostgreSQL database of the fleet tests, from
// X402_TEST_DATABASE_URL.
func fleetDatabase(t *testing.T) string {
	t.Helper()
	return pgtest.URL(t, "the fleet tests")
}

// fleetSchema is the journal configuration of a test: a schema of its own,
// dropped when the test ends, after every handle on it is closed.
func fleetSchema(t *testing.T) postgres.Config {
	t.Helper()
	url := fleetDatabase(t)
	schema := pgtest.Schema(t, url, "x402_sender_")
	return postgres.Config{URL: url, MaxConns: 4, Schema: schema}
}

// openJournal opens a handle on the journal of cfg (a replica's own pool),
// closed when the test ends.
func openJournal(t *testing.T, cfg postgres.Config) *postgres.Store {
	t.Helper()
	j, err := postgres.Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	return j
}

// fundedKey returns a new key holding 100 ETH from the devnet's first
// account: a settler no other test shares, so a lease's connection is
// found by its address.
func fundedKey(t *testing.T, d *devnet.Devnet, eth *ethclient.Client) *ecdsa.PrivateKey {
	t.Helper()
	ctx := t.Context()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	to := crypto.PubkeyToAddress(key.PublicKey)
	nonce, err := eth.PendingNonceAt(ctx, d.Accounts[0].Address)
	if err != nil {
		t.Fatal(err)
	}
	head, err := eth.HeaderByNumber(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tip := big.NewInt(1_000_000_000)
	tx, err := types.SignNewTx(d.Accounts[0].Key, types.LatestSignerForChainID(d.ChainID), &types.DynamicFeeTx{
		ChainID: d.ChainID, Nonce: nonce, To: &to, Value: new(big.Int).Mul(big.NewInt(100), big.NewInt(1e18)),
		Gas: 21_000, GasTipCap: tip, GasFeeCap: new(big.Int).Add(new(big.Int).Lsh(head.BaseFee, 1), tip),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	if r, err := d.Wait(wctx, tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("funding the settler: %v, %v", r, err)
	}
	return key
}

// sendCounter counts the transactions a Sender broadcasts.
type sendCounter struct {
	Batcher
	n atomic.Int64
}

func (c *sendCounter) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	for _, e := range b {
		if e.Method == "eth_sendRawTransaction" {
			c.n.Add(1)
		}
	}
	return c.Batcher.BatchCallContext(ctx, b)
}

// replica is one process of a fleet: its own journal handle, chain
// connection and Sender.
type replica struct {
	s     *Sender
	sends *sendCounter
}

// startReplica starts a replica of the fleet of key on the journal of cfg.
func startReplica(t *testing.T, d *devnet.Devnet, key *ecdsa.PrivateKey, cfg postgres.Config, tune func(*Config)) *replica {
	t.Helper()
	journal := openJournal(t, cfg)
	rc, eth := dial(t, d.URL)
	sends := &sendCounter{Batcher: rc}
	c := Config{Backend: eth, Batcher: sends, Key: key, ChainID: d.ChainID, Journal: journal, Logger: zaptest.NewLogger(t)}
	if tune != nil {
		tune(&c)
	}
	return &replica{s: newSender(t, c), sends: sends}
}

// leaders counts the replicas that hold the delivery lease.
func leaders(rs []*replica) int {
	n := 0
	for _, r := range rs {
		if r.s.fleet.leading.Load() {
			n++
		}
	}
	return n
}

// leader is the replica that holds the delivery lease, once one does.
func leader(t *testing.T, rs []*replica) *replica {
	t.Helper()
	var l *replica
	waitFor(t, "a replica delivers", func() bool {
		for _, r := range rs {
			if r.s.fleet.leading.Load() {
				l = r
				return true
			}
		}
		return false
	})
	return l
}

// payment is one settlement a test makes through a replica.
type payment struct {
	tx      *types.Transaction
	receipt *types.Receipt
	err     error
}

// pay signs a transfer on s, hands it over and waits for it.
func pay(ctx context.Context, s *Sender, to common.Address) (p payment) {
	if p.tx, p.err = s.Sign(ctx, to, nil, 21_000); p.err != nil {
		return p
	}
	if p.err = s.Send(ctx, p.tx); p.err != nil {
		return p
	}
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	p.receipt, p.err = s.Wait(wctx, p.tx.Hash())
	return p
}

// checkMinedOnce asserts that every payment was mined as itself, and that
// their nonces are 0 to len-1, each once: the settler's every nonce went
// to one of them, so none was lost, filled or used twice.
func checkMinedOnce(t *testing.T, eth *ethclient.Client, from common.Address, ps []payment) {
	t.Helper()
	nonces := make([]uint64, len(ps))
	for i, p := range ps {
		if p.err != nil || p.receipt.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("payment %d: %v (receipt %v)", i, p.err, p.receipt)
		}
		if p.receipt.TxHash != p.tx.Hash() {
			t.Fatalf("payment %d mined as %s, not as itself (%s)", i, p.receipt.TxHash, p.tx.Hash())
		}
		nonces[i] = p.tx.Nonce()
	}
	slices.Sort(nonces)
	for i, n := range nonces {
		if n != uint64(i) {
			t.Fatalf("nonces %v: want 0 to %d, each once", nonces, len(ps)-1)
		}
	}
	if n, err := eth.NonceAt(context.Background(), from, nil); err != nil || n != uint64(len(ps)) {
		t.Fatalf("the settler's nonce is %d (%v), want %d", n, err, len(ps))
	}
}

// Three replicas share one settler key and one journal, and settle 30
// payments each at once. Every payment is mined, with the nonces 0 to 89
// each once, and one replica delivers them all: never two at a time.
func TestFleetSharesOneKey(t *testing.T) {
	t.Parallel()
	cfg := fleetSchema(t)
	d, _, eth := startChain(t)
	key := fundedKey(t, d, eth)
	rs := make([]*replica, 3)
	for i := range rs {
		rs[i] = startReplica(t, d, key, cfg, nil)
	}
	first := leader(t, rs)

	stop, sampled := make(chan struct{}), make(chan int)
	go func() {
		most := 0
		for {
			most = max(most, leaders(rs))
			select {
			case <-stop:
				sampled <- most
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	const each = 30
	ps := make([]payment, len(rs)*each)
	var wg sync.WaitGroup
	for i := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps[i] = pay(t.Context(), rs[i%len(rs)].s, d.Accounts[4].Address)
		}()
	}
	wg.Wait()
	close(stop)
	if most := <-sampled; most != 1 {
		t.Fatalf("%d replicas delivered at once", most)
	}
	checkMinedOnce(t, eth, first.s.Address(), ps)
	for i, r := range rs {
		if n := r.sends.n.Load(); (r == first) != (n > 0) {
			t.Fatalf("replica %d broadcast %d transactions; only the first leader (leading: %v) should", i, n, r == first)
		}
	}
}

// The replica that delivers goes away in the middle of a burst: it is
// closed, or its lease's database connection is killed. Another replica
// (or, after a lost connection, the same one) takes the lease over, and
// every payment is mined exactly once, those signed afterwards by the
// closed replica too.
func TestFleetFailover(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"close", "terminate"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			cfg := fleetSchema(t)
			d, _, eth := startChain(t)
			key := fundedKey(t, d, eth)
			from := crypto.PubkeyToAddress(key.PublicKey)
			rs := make([]*replica, 3)
			for i := range rs {
				rs[i] = startReplica(t, d, key, cfg, func(c *Config) { c.CheckInterval = 100 * time.Millisecond })
			}
			old := leader(t, rs)

			const wave = 30
			ps := make([]payment, 2*wave)
			var wg sync.WaitGroup
			var mined atomic.Int32
			midway := make(chan struct{})
			start := func(from, to int) {
				for i := from; i < to; i++ {
					wg.Add(1)
					go func() {
						defer wg.Done()
						ps[i] = pay(t.Context(), rs[i%len(rs)].s, d.Accounts[4].Address)
						if mined.Add(1) == wave/3 {
							close(midway)
						}
					}()
				}
			}
			start(0, wave)
			select {
			case <-midway:
			case <-time.After(waitLimit):
				t.Fatal("the first third of the burst was not mined")
			}
			switch mode {
			case "close":
				old.s.Close()
			case "terminate":
				terminateLease(t, cfg.URL, from)
			}
			start(wave, 2*wave)
			wg.Wait()
			checkMinedOnce(t, eth, from, ps)
			if mode == "close" {
				if l := leader(t, rs); l == old {
					t.Fatal("the closed replica leads")
				}
			}
		})
	}
}

// terminateLease kills the database connection that holds from's
// delivery lease, as a crashed replica's or a partitioned one's would end.
func terminateLease(t *testing.T, url string, from common.Address) {
	t.Helper()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	var killed int
	// The holder, not a connection another replica opened to try for the
	// lease at that moment.
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM (SELECT pg_terminate_backend(a.pid) FROM pg_stat_activity a
		WHERE a.application_name = $1 AND EXISTS (SELECT FROM pg_locks l WHERE l.pid = a.pid AND l.locktype = 'advisory' AND l.granted)) k`,
		"x402 lease "+from.Hex()).Scan(&killed); err != nil {
		t.Fatal(err)
	}
	if killed != 1 {
		t.Fatalf("terminated %d lease connections, want 1", killed)
	}
}

// A transaction one replica signed and released, between others of two
// replicas, is given up in the journal: the deliverer fills its nonce, the
// ones after it are mined, and Wait tells either replica that it never
// will be. A transaction the deliverer's own replica releases is never
// broadcast. Once mined, the entries are pruned but for the latest.
func TestFleetFillsReleasedNonce(t *testing.T) {
	t.Parallel()
	cfg := fleetSchema(t)
	d, _, eth := startChain(t)
	key := fundedKey(t, d, eth)
	from := crypto.PubkeyToAddress(key.PublicKey)
	ctx := t.Context()
	to := d.Accounts[4].Address

	// Nothing is delivered until the lease is free: the release comes
	// before any broadcast.
	journal := openJournal(t, cfg)
	lease, ok, err := journal.Lead(ctx, from)
	if err != nil || !ok {
		t.Fatalf("holding the lease: %v, %v", ok, err)
	}
	tune := func(c *Config) { c.CheckInterval = 100 * time.Millisecond }
	a, b := startReplica(t, d, key, cfg, tune), startReplica(t, d, key, cfg, tune)
	sign := func(s *Sender) *types.Transaction {
		t.Helper()
		tx, err := s.Sign(ctx, to, nil, 21_000)
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	a1, released, a2, b2 := sign(a.s), sign(b.s), sign(a.s), sign(b.s)
	if got := []uint64{a1.Nonce(), released.Nonce(), a2.Nonce(), b2.Nonce()}; !slices.Equal(got, []uint64{0, 1, 2, 3}) {
		t.Fatalf("nonces %v, want 0 to 3 in the order signed", got)
	}
	b.s.Release(released.Nonce())
	for _, p := range []struct {
		s  *Sender
		tx *types.Transaction
	}{{a.s, a1}, {a.s, a2}, {b.s, b2}} {
		if err := p.s.Send(ctx, p.tx); err != nil {
			t.Fatal(err)
		}
	}
	lease.Release()

	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	for _, p := range []struct {
		s  *Sender
		tx *types.Transaction
	}{{a.s, a1}, {a.s, a2}, {b.s, b2}} {
		if r, err := p.s.Wait(wctx, p.tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
			t.Fatalf("nonce %d: %v, %v", p.tx.Nonce(), r, err)
		}
	}
	for name, s := range map[string]*Sender{"the releasing replica": b.s, "another replica": a.s} {
		if r, err := s.Wait(wctx, released.Hash()); !errors.Is(err, ErrRejected) {
			t.Fatalf("%s's Wait on the released transaction: %v, %v; want ErrRejected", name, r, err)
		}
	}
	notMined(t, eth, released.Hash(), "the released transaction")
	if err := a.s.Rebroadcast(ctx, released); !errors.Is(err, ErrNonceTooLow) {
		t.Fatalf("rebroadcasting the released transaction: %v; want ErrNonceTooLow", err)
	}

	// The deliverer's own replica holds back what it signed until Send or
	// Release.
	l := leader(t, []*replica{a, b}).s
	held, next := sign(l), sign(l)
	l.Release(held.Nonce())
	if err := l.Send(ctx, next); err != nil {
		t.Fatal(err)
	}
	if r, err := l.Wait(wctx, next.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("the transaction after a held one: %v, %v", r, err)
	}
	notMined(t, eth, held.Hash(), "the released transaction of the deliverer's replica")
	if n, err := eth.NonceAt(ctx, from, nil); err != nil || n != 6 {
		t.Fatalf("the settler's nonce is %d (%v), want 6", n, err)
	}

	// Mined entries are pruned, but for the latest: the journal's
	// high-water mark.
	waitFor(t, "the journal is pruned", func() bool {
		es, err := journal.Entries(ctx, from, 0)
		return err == nil && len(es) == 1 && es[0].Nonce == 5
	})
}

// A replica that does not deliver settles through the one that does: its
// Wait returns the receipt of a transaction the deliverer broadcast, and,
// for one stuck under the base fee, the receipt of the replacement the
// deliverer made, which only the journal told it of.
func TestFleetWaitAcrossReplicas(t *testing.T) {
	t.Parallel()
	cfg := fleetSchema(t)
	d, _, eth := startChainWith(t, devnet.Config{BlockPeriod: time.Second})
	key := fundedKey(t, d, eth)
	ctx := t.Context()
	to := d.Accounts[4].Address
	var rep replacements
	tune := func(c *Config) {
		c.CheckInterval, c.ReplaceAfter, c.Replace = 100*time.Millisecond, 300*time.Millisecond, rep.hook
	}
	deliverer := startReplica(t, d, key, cfg, tune)
	waitFor(t, "the first replica delivers", deliverer.s.fleet.leading.Load)
	other := startReplica(t, d, key, cfg, tune)

	if p := pay(ctx, other.s, to); p.err != nil || p.receipt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("a payment through the other replica: %v (receipt %v)", p.err, p.receipt)
	}

	// Signed with a fee cap under the base fee, as a fee cache gone stale
	// while the base fee rose would; it sends 7 wei, which the deliverer's
	// replacements must keep.
	stuck, err := other.s.SignCall(ctx, Call{To: to, Value: big.NewInt(7), Data: []byte{1, 2, 3}, Gas: 30_000, FeeCap: lowCap(t, eth)})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.s.Send(ctx, stuck); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	r, err := other.s.Wait(wctx, stuck.Hash())
	if err != nil {
		t.Fatalf("waiting on the stuck transaction: %v", err)
	}
	pairs := rep.all()
	if len(pairs) == 0 {
		t.Fatal("mined without a replacement")
	}
	checkReplacements(t, stuck, pairs, DefaultMaxFeePerGas)
	if r.TxHash != pairs[len(pairs)-1][1].Hash() {
		t.Fatalf("receipt of %s, want the replacement %s", r.TxHash, pairs[len(pairs)-1][1].Hash())
	}
	if n := other.sends.n.Load(); n != 0 {
		t.Fatalf("the replica that does not deliver broadcast %d transactions", n)
	}
	t.Logf("replaced %d time(s) by the deliverer, which broadcast %d transactions", len(pairs), deliverer.sends.n.Load())
}
