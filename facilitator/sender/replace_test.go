package sender

import (
	"context"
	"math/big"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// replacements records the calls of Config.Replace.
type replacements struct {
	mu    sync.Mutex
	pairs [][2]*types.Transaction
}

func (r *replacements) hook(old, replacement *types.Transaction) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pairs = append(r.pairs, [2]*types.Transaction{old, replacement})
	return nil
}

func (r *replacements) all() [][2]*types.Transaction {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][2]*types.Transaction(nil), r.pairs...)
}

// checkReplacements asserts that each replacement re-signs the one before
// it with the same nonce, call and gas, raises the tip and the fee cap by at
// least an eighth, and stays under the ceiling.
func checkReplacements(t *testing.T, first *types.Transaction, pairs [][2]*types.Transaction, ceiling *big.Int) {
	t.Helper()
	prev := first
	for i, p := range pairs {
		old, repl := p[0], p[1]
		if old.Hash() != prev.Hash() {
			t.Fatalf("replacement %d replaces %s, want %s", i, old.Hash(), prev.Hash())
		}
		if repl.Nonce() != old.Nonce() || *repl.To() != *old.To() || string(repl.Data()) != string(old.Data()) ||
			repl.Gas() != old.Gas() || repl.Value().Cmp(old.Value()) != 0 {
			t.Fatalf("replacement %d is another call: %+v vs %+v", i, repl, old)
		}
		if repl.GasTipCap().Cmp(raise(old.GasTipCap())) < 0 || repl.GasFeeCap().Cmp(raise(old.GasFeeCap())) < 0 {
			t.Fatalf("replacement %d raises tip %v -> %v, fee cap %v -> %v: less than an eighth",
				i, old.GasTipCap(), repl.GasTipCap(), old.GasFeeCap(), repl.GasFeeCap())
		}
		if repl.GasFeeCap().Cmp(ceiling) > 0 || repl.GasTipCap().Cmp(repl.GasFeeCap()) > 0 {
			t.Fatalf("replacement %d: fee cap %v over the ceiling %v, or tip %v over it", i, repl.GasFeeCap(), ceiling, repl.GasTipCap())
		}
		prev = repl
	}
}

// lowCap is a tenth of the latest base fee.
func lowCap(t *testing.T, eth interface {
	HeaderByNumber(context.Context, *big.Int) (*types.Header, error)
}) *big.Int {
	t.Helper()
	head, err := eth.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return new(big.Int).Div(head.BaseFee, big.NewInt(10))
}

// signStuck signs, through the Sender's own nonce manager, a call whose fee
// cap is feeCap, below the base fee, as a fee cache gone stale while the
// base fee rose would: it stays in the pool, unminable. It sends 7 wei,
// which its replacements must keep.
func signStuck(t *testing.T, s *Sender, d *devnet.Devnet, feeCap *big.Int) *types.Transaction {
	t.Helper()
	nonce, err := s.allocate(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	tx, err := s.sign(nonce, Call{To: d.Accounts[4].Address, Value: big.NewInt(7), Data: []byte{1, 2, 3}, Gas: 30_000}, big.NewInt(1_000_000), feeCap)
	if err != nil {
		t.Fatal(err)
	}
	return tx
}

// The base fee is above a transaction's fee cap: the Sender replaces it
// with higher fees, telling Replace first, and Wait on the old hash returns
// the replacement's receipt. The settlement after it is mined too.
func TestBaseFeeAboveCapIsReplaced(t *testing.T) {
	t.Parallel()
	d, rc, eth := startChainWith(t, devnet.Config{BlockPeriod: time.Second})
	var rep replacements
	s := newSender(t, Config{
		Backend: eth, Batcher: rc, Key: d.Accounts[1].Key, ChainID: d.ChainID,
		CheckInterval: 100 * time.Millisecond, ReplaceAfter: 300 * time.Millisecond, Replace: rep.hook,
	})
	ctx := context.Background()
	stuck := signStuck(t, s, d, lowCap(t, eth))
	start := time.Now()
	if err := s.Send(ctx, stuck); err != nil {
		t.Fatal(err)
	}
	after, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, after); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	r, err := s.Wait(wctx, stuck.Hash())
	if err != nil {
		t.Fatalf("waiting on the stuck transaction: %v", err)
	}
	pairs := rep.all()
	if len(pairs) == 0 {
		t.Fatal("mined without a replacement")
	}
	checkReplacements(t, stuck, pairs, DefaultMaxFeePerGas)
	if r.TxHash == stuck.Hash() || r.TxHash != pairs[len(pairs)-1][1].Hash() {
		t.Fatalf("receipt of %s, want the replacement %s", r.TxHash, pairs[len(pairs)-1][1].Hash())
	}
	notMined(t, eth, stuck.Hash(), "the replaced transaction")
	if r, err := s.Wait(wctx, after.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("the settlement after it: %v, %v", r, err)
	}
	t.Logf("replaced %d time(s); mined %v after sending", len(pairs), time.Since(start))
}

// A node answers "txpool is full" to a transaction, every time it is sent:
// Send still succeeds (the Sender owns it now), and the Sender replaces it
// with higher fees, which the node takes; Wait on the old hash returns the
// replacement's receipt.
func TestTxpoolFullIsReplaced(t *testing.T) {
	t.Parallel()
	d, _, _ := startChain(t)
	p := newFaultProxy(t, d.URL)
	rc, eth := dial(t, p.URL)
	var rep replacements
	s := newSender(t, Config{
		Backend: eth, Batcher: rc, Key: d.Accounts[2].Key, ChainID: d.ChainID,
		CheckInterval: 100 * time.Millisecond, ReplaceAfter: 200 * time.Millisecond, Replace: rep.hook,
	})
	ctx := context.Background()
	tx, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
	if err != nil {
		t.Fatal(err)
	}
	p.refuseTx(tx.Hash(), "txpool is full", -1)
	if err := s.Send(ctx, tx); err != nil {
		t.Fatalf("send refused for the pool: %v", err)
	}
	wctx, cancel := context.WithTimeout(ctx, waitLimit)
	defer cancel()
	r, err := s.Wait(wctx, tx.Hash())
	if err != nil {
		t.Fatalf("waiting on the refused transaction: %v", err)
	}
	pairs := rep.all()
	if len(pairs) != 1 {
		t.Fatalf("%d replacements, want 1", len(pairs))
	}
	checkReplacements(t, tx, pairs, DefaultMaxFeePerGas)
	if r.TxHash != pairs[0][1].Hash() || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt of %s (status %d), want the replacement %s", r.TxHash, r.Status, pairs[0][1].Hash())
	}
	if _, refused := p.counts(); refused < 1 {
		t.Fatal("the proxy refused nothing")
	}
}

// With a fee ceiling too low for what the chain needs, no transaction the
// Sender signs, new or replacement, goes over it: one with no room under
// the ceiling is never replaced, and one with room is replaced once, at the
// ceiling, and not again.
func TestReplacementStaysUnderCeiling(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		ceiling func(stuckCap *big.Int) *big.Int
		want    int // replacements
	}{
		{"no room", func(c *big.Int) *big.Int { return new(big.Int).Add(c, new(big.Int).Div(c, big.NewInt(16))) }, 0},
		{"room for one", func(c *big.Int) *big.Int { return new(big.Int).Div(new(big.Int).Mul(c, big.NewInt(3)), big.NewInt(2)) }, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d, rc, eth := startChainWith(t, devnet.Config{BlockPeriod: time.Second})
			ctx := context.Background()
			feeCap := lowCap(t, eth)
			ceiling := tc.ceiling(feeCap)
			var rep replacements
			const replaceAfter = 100 * time.Millisecond
			s := newSender(t, Config{
				Backend: eth, Batcher: rc, Key: d.Accounts[3].Key, ChainID: d.ChainID, MaxFeePerGas: ceiling,
				CheckInterval: 50 * time.Millisecond, ReplaceAfter: replaceAfter, Replace: rep.hook,
			})
			stuck := signStuck(t, s, d, feeCap)
			start := time.Now()
			if err := s.Send(ctx, stuck); err != nil {
				t.Fatal(err)
			}
			// New transactions are signed under the ceiling too.
			tx, err := s.Sign(ctx, d.Accounts[4].Address, nil, 21_000)
			if err != nil {
				t.Fatal(err)
			}
			if tx.GasFeeCap().Cmp(ceiling) > 0 || tx.GasTipCap().Cmp(tx.GasFeeCap()) > 0 {
				t.Fatalf("signed fee cap %v, tip %v over the ceiling %v", tx.GasFeeCap(), tx.GasTipCap(), ceiling)
			}
			s.Release(tx.Nonce())
			// Let every replacement that could happen happen: several
			// checks after the transaction, and a replacement of it, were
			// due for replacement.
			waitFor(t, "replacements are due", func() bool { return time.Since(start) > 4*replaceAfter })
			done := s.checks.Load() + 5
			waitFor(t, "five more checks", func() bool { return s.checks.Load() >= done })
			pairs := rep.all()
			checkReplacements(t, stuck, pairs, ceiling)
			if len(pairs) != tc.want {
				t.Fatalf("%d replacements, want %d", len(pairs), tc.want)
			}
			if tc.want > 0 && pairs[0][1].GasFeeCap().Cmp(ceiling) != 0 {
				t.Fatalf("replacement fee cap %v, want the ceiling %v", pairs[0][1].GasFeeCap(), ceiling)
			}
		})
	}
}

func TestBump(t *testing.T) {
	t.Parallel()
	g := func(x int64) *big.Int { return big.NewInt(x) }
	tests := []struct {
		name                                string
		tip, feeCap, baseFee, sugg, ceiling *big.Int
		wantTip, wantCap                    *big.Int
		ok                                  bool
	}{
		{"an eighth more", g(100), g(1000), g(100), g(100), g(1_000_000), g(113), g(1125), true},
		{"covers twice the base fee", g(100), g(1000), g(2000), g(100), g(1_000_000), g(113), g(4113), true},
		{"the suggested tip", g(100), g(1000), g(100), g(500), g(1_000_000), g(500), g(1125), true},
		{"no suggestion", g(100), g(1000), g(100), nil, g(1_000_000), g(113), g(1125), true},
		{"zero fees", g(0), g(0), g(0), g(0), g(1_000_000), g(1), g(1), true},
		{"clamped to the ceiling", g(100), g(1000), g(2000), g(100), g(1200), g(113), g(1200), true},
		{"tip clamped to the cap", g(1000), g(1000), g(0), g(5000), g(1200), g(1200), g(1200), true},
		{"no room under the ceiling", g(100), g(1000), g(2000), g(100), g(1100), g(113), g(1100), false},
		{"tip cannot rise", g(1000), g(1000), g(0), g(0), g(1100), g(1100), g(1100), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tip, feeCap, ok := bump(tc.tip, tc.feeCap, tc.baseFee, tc.sugg, tc.ceiling)
			if ok != tc.ok || tip.Cmp(tc.wantTip) != 0 || feeCap.Cmp(tc.wantCap) != 0 {
				t.Fatalf("bump = %v, %v, %v; want %v, %v, %v", tip, feeCap, ok, tc.wantTip, tc.wantCap, tc.ok)
			}
			if feeCap.Cmp(tc.ceiling) > 0 || tip.Cmp(feeCap) > 0 {
				t.Fatalf("bump = %v, %v: over the ceiling %v", tip, feeCap, tc.ceiling)
			}
		})
	}
}

// Wait follows a transaction to its replacements while its nonce is kept,
// and after it is mined and forgotten, for a Wait that starts late.
func TestVersions(t *testing.T) {
	t.Parallel()
	key, _ := crypto.GenerateKey()
	// No check runs: the interval is long and nothing pokes the loop.
	s := newSender(t, Config{Backend: &ethclient.Client{}, Batcher: &rpc.Client{}, Key: key, ChainID: big.NewInt(1), CheckInterval: time.Hour})
	sign := func(nonce uint64, feeCap int64) *types.Transaction {
		tx, err := s.sign(nonce, Call{To: common.Address{1}, Gas: 21_000}, big.NewInt(1), big.NewInt(feeCap))
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}
	v1, v2, other := sign(5, 10), sign(5, 20), sign(6, 10)
	s.mu.Lock()
	s.keepLocked(5, v1, false)
	s.keepLocked(5, v2, false)
	s.keepLocked(6, other, false)
	s.mu.Unlock()
	want := []common.Hash{v1.Hash(), v2.Hash()}
	if got := s.versions([]common.Hash{v1.Hash()}); !slices.Equal(got, want) {
		t.Fatalf("versions while kept = %v, want %v", got, want)
	}
	s.mu.Lock()
	s.observeLocked(7, 7) // both mined
	kept := len(s.kept)
	s.mu.Unlock()
	if kept != 0 {
		t.Fatalf("%d nonces kept after they were mined", kept)
	}
	if got := s.versions([]common.Hash{v1.Hash()}); !slices.Equal(got, want) {
		t.Fatalf("versions once mined = %v, want %v", got, want)
	}
	if got := s.versions([]common.Hash{other.Hash()}); len(got) != 1 {
		t.Fatalf("versions of a transaction never replaced = %v", got)
	}
}
