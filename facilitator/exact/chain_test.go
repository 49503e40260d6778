package exact

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// chainEnv is a devnet with a scheme over its token.
type chainEnv struct {
	chain  *devnet.Devnet
	rpc    *rpc.Client
	eth    *ethclient.Client
	scheme *Scheme
	// usedNonce is an authorization of Accounts[1] spent on chain.
	usedNonce [32]byte
}

func newChainEnv(t *testing.T) *chainEnv {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	c, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	s, err := New(Config{ChainID: d.ChainID, Assets: []Asset{{Address: d.Token.Address, Name: d.Token.Name, Version: d.Token.Version}}, Chain: c})
	if err != nil {
		t.Fatal(err)
	}
	e := &chainEnv{chain: d, rpc: c, eth: ethclient.NewClient(c), scheme: s}
	e.usedNonce = e.spend(t, d.Accounts[1], d.Accounts[2].Address, 1_000)
	return e
}

// sign signs an authorization of payer, valid for ten minutes.
func (e *chainEnv) sign(t *testing.T, payer devnet.Account, to common.Address, value int64, nonce [32]byte) *Authorization {
	t.Helper()
	now := time.Now().Unix()
	a := &Authorization{From: payer.Address, To: to, Value: big.NewInt(value), ValidAfter: big.NewInt(now - 600), ValidBefore: big.NewInt(now + 600), Nonce: nonce}
	sig, err := crypto.Sign(e.scheme.Digest(e.chain.Token.Address, a).Bytes(), payer.Key)
	if err != nil {
		t.Fatal(err)
	}
	sig[64] += 27
	copy(a.Signature[:], sig)
	return a
}

// spend signs an authorization of payer and has another account submit it.
func (e *chainEnv) spend(t *testing.T, payer devnet.Account, to common.Address, value int64) [32]byte {
	t.Helper()
	var authNonce [32]byte
	rand.Read(authNonce[:])
	a := e.sign(t, payer, to, value, authNonce)
	relayer := e.chain.Accounts[5]
	ctx, cancel := context.WithTimeout(context.Background(), devnet.WaitTimeout)
	defer cancel()
	nonce, err := e.eth.PendingNonceAt(ctx, relayer.Address)
	if err != nil {
		t.Fatal(err)
	}
	tx, _ := types.SignNewTx(relayer.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &e.chain.Token.Address, Data: e.scheme.Call(a), Gas: 200_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if r, err := e.chain.Wait(ctx, tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("spending an authorization: %v %v", r, err)
	}
	return a.Nonce
}

// balance reads balanceOf with a plain eth_call.
func (e *chainEnv) balance(t *testing.T, holder common.Address) *big.Int {
	t.Helper()
	tok := contracts.NewDevUSD()
	out, err := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &e.chain.Token.Address, Data: tok.PackBalanceOf(holder)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	v, err := tok.UnpackBalanceOf(out)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// refusingInitCode is a node that cannot run init code in eth_call: it
// answers an eth_call without a recipient with an error.
type refusingInitCode struct {
	Chain
	refused atomic.Int32
}

func (c *refusingInitCode) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	var pass []rpc.BatchElem
	var at []int
	for i, el := range b {
		if args, ok := el.Args[0].(callArgs); ok && el.Method == "eth_call" && args.To == nil {
			b[i].Error = errors.New("contract creation is not supported in eth_call")
			c.refused.Add(1)
			continue
		}
		pass, at = append(pass, el), append(at, i)
	}
	if len(pass) == 0 {
		return nil
	}
	if err := c.Chain.BatchCallContext(ctx, pass); err != nil {
		return err
	}
	for j, i := range at {
		b[i] = pass[j]
	}
	return nil
}

// TestReadStates reads payments' states in one state call, and with the
// fallback of a node that refuses it, against what plain calls read:
// balances, a nonce spent on chain, a token without code and a contract
// that is no token.
func TestReadStates(t *testing.T) {
	t.Parallel()
	e := newChainEnv(t)
	d := e.chain
	var fresh [32]byte
	rand.Read(fresh[:])
	nobody := common.HexToAddress("0x000000000000000000000000000000000000dEaD")
	head, err := e.eth.HeaderByNumber(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		q       stateQuery
		balance *big.Int
		used    bool
		code    bool // the payer has code
		err     string
	}{
		{"unused nonce", stateQuery{token: d.Token.Address, from: d.Accounts[1].Address, nonce: fresh}, e.balance(t, d.Accounts[1].Address), false, false, ""},
		{"nonce spent on chain", stateQuery{token: d.Token.Address, from: d.Accounts[1].Address, nonce: e.usedNonce}, e.balance(t, d.Accounts[1].Address), true, false, ""},
		{"the nonce is the payer's", stateQuery{token: d.Token.Address, from: d.Accounts[3].Address, nonce: e.usedNonce}, e.balance(t, d.Accounts[3].Address), false, false, ""},
		{"empty balance", stateQuery{token: d.Token.Address, from: nobody, nonce: fresh}, new(big.Int), false, false, ""},
		{"a payer with code", stateQuery{token: d.Token.Address, from: d.Contracts.EntryPoint, nonce: fresh}, e.balance(t, d.Contracts.EntryPoint), false, true, ""},
		{"token without code", stateQuery{token: nobody, from: d.Accounts[1].Address, nonce: fresh}, nil, false, false, "balanceOf of " + nobody.Hex()},
		{"not a token", stateQuery{token: d.Contracts.EntryPoint, from: d.Accounts[1].Address, nonce: fresh}, nil, false, false, "reverted"},
	}
	qs := make([]stateQuery, len(tests))
	for i, tc := range tests {
		qs[i] = tc.q
	}
	refusing := &refusingInitCode{Chain: e.rpc}
	fallback, err := New(Config{ChainID: d.ChainID, Assets: e.scheme.Assets(), Chain: refusing})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name   string
		scheme *Scheme
	}{{"state call", e.scheme}, {"fallback", fallback}} {
		t.Run(s.name, func(t *testing.T) {
			states, errs, err := s.scheme.readStates(context.Background(), qs)
			if err != nil {
				t.Fatal(err)
			}
			for i, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					if tc.err != "" {
						if errs[i] == nil || !strings.Contains(errs[i].Error(), tc.err) {
							t.Fatalf("error %v, want one with %q", errs[i], tc.err)
						}
						return
					}
					st := states[i]
					if errs[i] != nil {
						t.Fatal(errs[i])
					}
					if st.balance.Cmp(tc.balance) != 0 || st.used != tc.used || st.hasCode != tc.code || st.time < head.Time || st.time > uint64(time.Now().Add(devnet.MaxClockLead).Unix()) {
						t.Fatalf("state %+v, want balance %s, used %v, code %v, time from %d", st, tc.balance, tc.used, tc.code, head.Time)
					}
				})
			}
		})
	}
	if refusing.refused.Load() == 0 {
		t.Fatal("the fallback was not exercised")
	}
}

// TestStateCodeGroups checks the state call's loop at the group sizes at
// its ends, one payment and maxGroupSize, and between, against the plain
// reads (readEach) on the devnet: each payment's balance, nonce state and
// code, whatever its place in the table.
func TestStateCodeGroups(t *testing.T) {
	t.Parallel()
	e := newChainEnv(t)
	d := e.chain
	for _, n := range []int{1, 2, 7, maxGroupSize} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			qs := make([]stateQuery, n)
			for i := range qs {
				qs[i] = stateQuery{token: d.Token.Address, from: d.Accounts[i%len(d.Accounts)].Address}
				switch i % 3 {
				case 0:
					rand.Read(qs[i].nonce[:])
				case 1:
					qs[i].nonce = e.usedNonce
				case 2:
					qs[i].from = d.Contracts.EntryPoint // a payer with code
				}
			}
			states, errs, err := e.scheme.readStates(context.Background(), qs)
			if err != nil {
				t.Fatal(err)
			}
			want, wantErrs, err := e.scheme.readEach(context.Background(), qs)
			if err != nil {
				t.Fatal(err)
			}
			var used, code int
			for i := range qs {
				got, w := states[i], want[i]
				if errs[i] != nil || wantErrs[i] != nil || got.balance.Cmp(w.balance) != 0 || got.used != w.used || got.hasCode != w.hasCode {
					t.Fatalf("payment %d of %d: %+v (%v), the plain reads %+v (%v)", i, n, got, errs[i], w, wantErrs[i])
				}
				used += boolInt(got.used)
				code += boolInt(got.hasCode)
			}
			// Payment 1 is account 1's spent nonce, 2 a payer with code.
			if n >= 7 && (used == 0 || code == 0) {
				t.Fatalf("%d spent nonces and %d payers with code of %d; the test lays out both", used, code, n)
			}
		})
	}
}

// TestVerifyReadsTheChain checks Verify's chain checks through shared
// state calls: concurrent verifications of distinct payments each get
// their own answer, a nonce spent on chain is replay and a payer without
// the amount is refused.
func TestVerifyReadsTheChain(t *testing.T) {
	t.Parallel()
	e := newChainEnv(t)
	d := e.chain
	poor, _ := crypto.GenerateKey()
	poorAccount := devnet.Account{Address: crypto.PubkeyToAddress(poor.PublicKey), Key: poor}
	merchant := d.Accounts[2].Address
	req := &x402.PaymentRequirements{Scheme: x402.SchemeExact, Network: x402.FormatNetwork(d.ChainID.Uint64()), Amount: "10000", Asset: d.Token.Address.Hex(), PayTo: merchant.Hex()}
	payload := &x402.PaymentPayload{X402Version: x402.Version, Accepted: *req}
	type payment struct {
		a      *Authorization
		reason string
	}
	pays := make([]payment, 48)
	for i := range pays {
		payer, reason := d.Accounts[1+i%4], ""
		var nonce [32]byte
		rand.Read(nonce[:])
		switch i % 6 {
		case 1:
			payer, nonce, reason = d.Accounts[1], e.usedNonce, "already used or cancelled on chain"
		case 2:
			payer, reason = poorAccount, "insufficient balance"
		}
		pays[i] = payment{e.sign(t, payer, merchant, 10_000, nonce), reason}
	}
	var wg sync.WaitGroup
	for i, p := range pays {
		wg.Go(func() {
			// Half of them bounded as the facilitator bounds them.
			var ctx context.Context
			var release func()
			if i%2 == 0 {
				ctx, release = context.WithTimeout(context.Background(), time.Minute)
			} else {
				ctx, release = scheme.WithBound(context.Background(), time.Minute)
			}
			defer release()
			_, err := e.scheme.verifyAuthorization(ctx, p.a, payload, req)
			switch {
			case p.reason == "" && err != nil:
				t.Errorf("payment %d: %v", i, err)
			case p.reason != "" && (err == nil || !strings.Contains(err.Error(), p.reason)):
				t.Errorf("payment %d: %v, want %q", i, err, p.reason)
			}
		})
	}
	wg.Wait()
}

// TestReaderShares checks that concurrent reads share calls, within the
// group size, and that each read gets its own answer; that a read whose
// caller gives up does not fail the others; and that a call's failure
// reaches every read in it.
func TestReaderShares(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ size, parallel, reads int }{{32, 1, 200}, {4, 2, 100}, {1, 1, 20}, {32, 64, 50}} {
		t.Run(fmt.Sprintf("size %d parallel %d", tc.size, tc.parallel), func(t *testing.T) {
			t.Parallel()
			var calls, biggest, inCalls atomic.Int32
			release := make(chan struct{})
			r := &reader{size: tc.size, parallel: tc.parallel, read: func(ctx context.Context, qs []stateQuery) ([]chainState, []error, error) {
				calls.Add(1)
				if n := int32(len(qs)); n > biggest.Load() {
					biggest.Store(n)
				}
				inCalls.Add(int32(len(qs)))
				<-release
				states := make([]chainState, len(qs))
				for i, q := range qs {
					states[i] = chainState{time: 1, balance: new(big.Int).SetBytes(q.nonce[:])}
				}
				return states, make([]error, len(qs)), nil
			}}
			var wg sync.WaitGroup
			for i := range tc.reads {
				wg.Go(func() {
					var q stateQuery
					q.nonce[31] = byte(i)
					q.nonce[30] = byte(i >> 8)
					st, err := r.state(context.Background(), q)
					if err != nil || st.balance.Int64() != int64(i) {
						t.Errorf("read %d: %+v %v", i, st, err)
					}
				})
			}
			// Let every read reach a call or wait behind the first
			// calls, then answer.
			for int(inCalls.Load())+r.waitingReads() < tc.reads {
				time.Sleep(time.Millisecond)
			}
			close(release)
			wg.Wait()
			if int(biggest.Load()) > tc.size {
				t.Errorf("a call read %d payments, over the group size %d", biggest.Load(), tc.size)
			}
			if tc.parallel < tc.reads && tc.size > 1 && int(calls.Load()) >= tc.reads {
				t.Errorf("%d calls for %d reads: none was shared", calls.Load(), tc.reads)
			}
			// Every call ends once its reads are answered.
			for !r.idle() {
				time.Sleep(time.Millisecond)
			}
		})
	}

	t.Run("a read given up", func(t *testing.T) {
		t.Parallel()
		gate := make(chan struct{})
		r, inCalls := gatedReader(gate)
		read := func(ctx context.Context) <-chan error { return r.stateAsync(ctx) }
		a := read(context.Background())
		for inCalls.Load() < 1 {
			time.Sleep(time.Millisecond)
		}
		// b and c wait for a's call, and then share one.
		ctx, cancel := context.WithCancel(context.Background())
		b := read(ctx)
		for r.waitingReads() < 1 {
			time.Sleep(time.Millisecond)
		}
		c := read(context.Background())
		for r.waitingReads() < 2 {
			time.Sleep(time.Millisecond)
		}
		gate <- struct{}{}
		if err := <-a; err != nil {
			t.Fatalf("a: %v", err)
		}
		for inCalls.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		cancel()
		if err := <-b; !errors.Is(err, context.Canceled) {
			t.Fatalf("b, given up during its call: %v", err)
		}
		gate <- struct{}{}
		if err := <-c; err != nil {
			t.Fatalf("c, in b's call: %v", err)
		}
	})

	t.Run("a failed call", func(t *testing.T) {
		t.Parallel()
		boom := errors.New("node down")
		r := &reader{size: 8, parallel: 1, read: func(context.Context, []stateQuery) ([]chainState, []error, error) {
			return nil, nil, boom
		}}
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				if _, err := r.state(context.Background(), stateQuery{}); !errors.Is(err, boom) {
					t.Errorf("err = %v", err)
				}
			})
		}
		wg.Wait()
	})
}

// TestReaderNearNode checks that a read that comes while a call is under
// way waits for it when the node's calls are fast (a near node), even
// with parallel 2, and starts a call of its own when they are slow; that
// reads waiting for a near node's call that outlives a near node's go out
// without it, with no other read to send them; and that the calls' time
// is measured.
func TestReaderNearNode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		took, near time.Duration
		calls      int32 // under way once both reads came
		eventually bool  // once the first call is overdue, not at once
	}{
		{"near", time.Millisecond, time.Hour, 1, false},
		{"far", 40 * time.Millisecond, 0, 2, false},
		{"not measured yet", 0, 0, 2, false},
		{"near, its call overdue", time.Millisecond, 20 * time.Millisecond, 2, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var calls atomic.Int32
			gate := make(chan struct{})
			r := &reader{size: 8, parallel: 2, took: tc.took, near: tc.near, read: func(ctx context.Context, qs []stateQuery) ([]chainState, []error, error) {
				calls.Add(1)
				<-gate
				return make([]chainState, len(qs)), make([]error, len(qs)), nil
			}}
			var wg sync.WaitGroup
			read := func() {
				wg.Go(func() {
					if _, err := r.state(context.Background(), stateQuery{}); err != nil {
						t.Error(err)
					}
				})
			}
			read()
			for calls.Load() < 1 {
				time.Sleep(time.Millisecond)
			}
			read()
			// Both reads are in a call or waiting (and, once the first
			// call is overdue, both in calls).
			deadline := time.Now().Add(10 * time.Second)
			for calls.Load()+int32(r.waitingReads()) < 2 || (tc.eventually && calls.Load() < tc.calls) {
				if time.Now().After(deadline) {
					t.Fatalf("after 10 s, %d calls under way and %d reads waiting; want %d calls", calls.Load(), r.waitingReads(), tc.calls)
				}
				time.Sleep(time.Millisecond)
			}
			if got := calls.Load(); got != tc.calls {
				t.Errorf("%d calls under way, want %d", got, tc.calls)
			}
			close(gate)
			wg.Wait()
			for !r.idle() {
				time.Sleep(time.Millisecond)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.took <= 0 {
				t.Errorf("the calls' time was not measured: %v", r.took)
			}
		})
	}
}

// TestReaderBounded checks the reads of verifications bounded by a
// *scheme.Bound, which make no timer of their own: the reader answers
// each at its deadline, whether its call is under way or it waits for
// one, and at once when its request is abandoned; reads answered in time
// are answered by their call; and the reader forgets every read it
// answered.
func TestReaderBounded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		// first is a read, not bounded, whose call is under way when the
		// bounded read comes: the bounded read waits for it.
		first   bool
		timeout time.Duration
		cancel  bool // the bounded read's request is abandoned
		want    error
	}{
		{"its call outlives its deadline", false, 30 * time.Millisecond, false, context.DeadlineExceeded},
		{"waiting past its deadline for a call", true, 30 * time.Millisecond, false, context.DeadlineExceeded},
		{"abandoned in its call", false, time.Hour, true, context.Canceled},
		{"abandoned while waiting", true, time.Hour, true, context.Canceled},
		{"answered in time", false, time.Hour, false, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gate := make(chan struct{})
			r, inCalls := gatedReader(gate)
			read := r.stateAsync
			var first <-chan error
			if tc.first {
				first = read(context.Background())
				for inCalls.Load() < 1 {
					time.Sleep(time.Millisecond)
				}
			}
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			ctx, release := scheme.WithBound(parent, tc.timeout)
			defer release()
			got := read(ctx)
			// Once the bounded read is in its call, or waits for one.
			for int(inCalls.Load())+r.waitingReads() < 1+boolInt(tc.first) {
				time.Sleep(time.Millisecond)
			}
			if tc.cancel {
				cancel()
			}
			if tc.want == nil {
				close(gate)
			}
			select {
			case err := <-got:
				if !errors.Is(err, tc.want) && !(tc.want == nil && err == nil) {
					t.Errorf("err = %v, want %v", err, tc.want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("the bounded read was not answered after 10 s (its bound: %v)", tc.timeout)
			}
			if tc.want != nil {
				close(gate)
			}
			if first != nil {
				if err := <-first; err != nil {
					t.Errorf("the first read: %v", err)
				}
			}
			deadline := time.Now().Add(10 * time.Second)
			for !r.idle() {
				if time.Now().After(deadline) {
					t.Fatal("the reader is not idle 10 s after its reads were answered")
				}
				time.Sleep(time.Millisecond)
			}
			r.mu.Lock()
			defer r.mu.Unlock()
			if n := len(r.bounded); n != 0 {
				t.Errorf("the reader still holds %d bounded reads", n)
			}
		})
	}
}

// gatedReader is a reader of groups of up to 8, one call at a time, whose
// calls count their reads in inCalls and answer once gate lets them: an
// error if their context is done by then.
func gatedReader(gate <-chan struct{}) (r *reader, inCalls *atomic.Int32) {
	inCalls = new(atomic.Int32)
	r = &reader{size: 8, parallel: 1, read: func(ctx context.Context, qs []stateQuery) ([]chainState, []error, error) {
		inCalls.Add(int32(len(qs)))
		<-gate
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		return make([]chainState, len(qs)), make([]error, len(qs)), nil
	}}
	return r, inCalls
}

// stateAsync reads a state in a goroutine of its own, and sends its error.
func (r *reader) stateAsync(ctx context.Context) <-chan error {
	done := make(chan error, 1)
	go func() { _, err := r.state(ctx, stateQuery{}); done <- err }()
	return done
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// idle reports whether no call is under way and no read waits.
func (r *reader) idle() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.underway == 0 && len(r.waiting) == 0
}

func (r *reader) waitingReads() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.waiting)
}

// TestDecodeStates checks the state call's answer is read strictly.
func TestDecodeStates(t *testing.T) {
	t.Parallel()
	word := func(v uint64) []byte { return common.LeftPadBytes(new(big.Int).SetUint64(v).Bytes(), 32) }
	// answer is the block time 7 and one payment's balance 5 and flags
	// (balance, authorizationState, boolean, used, code).
	answer := func(flags ...byte) []byte {
		return append(append(word(7), word(5)...), flags...)
	}
	huge := make([]byte, 32)
	huge[0] = 1
	q := []stateQuery{{token: common.Address{1}}}
	tests := []struct {
		name string
		out  []byte
		err  string // of the whole answer
		read string // of the read
		used bool
	}{
		{"valid", answer(1, 1, 1, 1, 0), "", "", true},
		{"unused, with code", answer(1, 1, 1, 0, 1), "", "", false},
		{"short", answer(1, 1, 1, 1), "answered 68 bytes, want 69", "", false},
		{"time past 2^64", append(append(huge, word(5)...), 1, 1, 1, 1, 0), "block time", "", false},
		{"balanceOf reverted or answered less than a word", answer(0, 1, 1, 1, 0), "", "balanceOf", false},
		{"authorizationState reverted", answer(1, 0, 1, 1, 0), "", "authorizationState", false},
		{"not a boolean", answer(1, 1, 0, 0, 0), "", "not a boolean", false},
		{"a flag that is not 1", answer(2, 1, 1, 1, 0), "", "balanceOf", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			states, errs, err := decodeStates(tc.out, q)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			case tc.read != "":
				if errs[0] == nil || !strings.Contains(errs[0].Error(), tc.read) {
					t.Fatalf("read error %v, want %q", errs[0], tc.read)
				}
			case errs[0] != nil:
				t.Fatal(errs[0])
			case states[0].time != 7 || states[0].balance.Int64() != 5 || states[0].used != tc.used ||
				states[0].hasCode != (tc.name == "unused, with code"):
				t.Fatalf("state %+v", states[0])
			}
		})
	}
}

// TestStateCodeSize holds the largest group's init code under EIP-3860's
// limit, and New to the group size it can read.
func TestStateCodeSize(t *testing.T) {
	t.Parallel()
	if n := len(stateCode(make([]stateQuery, maxGroupSize))); n > 49152 {
		t.Fatalf("the init code of %d payments is %d bytes, over 49,152", maxGroupSize, n)
	}
	for _, size := range []int{-1, maxGroupSize + 1} {
		if _, err := New(Config{ChainID: big.NewInt(1), Assets: []Asset{testAsset}, Chain: noChain{}, GroupSize: size}); err == nil {
			t.Errorf("group size %d accepted", size)
		}
	}
}
