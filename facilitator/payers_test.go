package facilitator

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// transfer sends a transaction from key and waits for it.
func (e *env) transfer(key *ecdsa.PrivateKey, to common.Address, value *big.Int, data []byte, tip int64) *types.Transaction {
	e.t.Helper()
	from := crypto.PubkeyToAddress(key.PublicKey)
	nonce, _ := e.eth.PendingNonceAt(context.Background(), from)
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Value: value, Data: data, Gas: 100_000,
		GasTipCap: big.NewInt(tip), GasFeeCap: big.NewInt(tip + 1e11),
	})
	if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
		e.t.Fatal(err)
	}
	return tx
}

// fundPayer makes a payer holding tokens (and ETH for its own moves).
func (e *env) fundPayer(tokens int64) devnet.Account {
	e.t.Helper()
	key, _ := crypto.GenerateKey()
	a := devnet.Account{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
	eth := e.transfer(e.chain.Accounts[3].Key, a.Address, big.NewInt(1e18), nil, 1e9)
	if _, err := e.chain.Wait(context.Background(), eth.Hash()); err != nil {
		e.t.Fatal(err)
	}
	tx := e.transfer(e.chain.Accounts[3].Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(a.Address, big.NewInt(tokens)), 1e9)
	if _, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil {
		e.t.Fatal(err)
	}
	return a
}

// One balance, forty authorizations: a payer holding one price signs forty
// and settles them at once. One is settled; the others are refused before
// anything is broadcast, so the settler sends one transaction, not forty
// of which thirty-nine revert.
func TestOneBalanceManyAuthorizations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	const price = 10_000
	payer, merchant := e.fundPayer(price), e.chain.Accounts[2].Address
	reqs := make([]*x402.VerifyRequest, 40)
	for i := range reqs {
		reqs[i] = e.pay(payer, merchant, price)
	}
	settler := e.svc.Settler()
	nonceBefore, _ := e.eth.PendingNonceAt(context.Background(), settler)
	var (
		wg      sync.WaitGroup
		mu      sync.Mutex
		settled int
		refused = map[string]int{}
	)
	for _, req := range reqs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var res x402.SettleResponse
			e.post("settle", req, &res)
			mu.Lock()
			defer mu.Unlock()
			if res.Success {
				settled++
			} else {
				refused[string(res.ErrorCode)]++
				if !strings.Contains(res.Message, "insufficient balance") {
					t.Errorf("refusal: %+v", res)
				}
			}
		}()
	}
	wg.Wait()
	nonceAfter, _ := e.eth.PendingNonceAt(context.Background(), settler)
	if settled != 1 || refused[string(x402.ErrorVerifyFailed)] != 39 || nonceAfter-nonceBefore != 1 {
		t.Fatalf("%d settled, refused %v, the settler sent %d transactions; want 1, 39 verify_failed, 1", settled, refused, nonceAfter-nonceBefore)
	}
	// Verify also counts what is in flight: nothing is now, and the
	// balance is spent.
	var v x402.VerifyResponse
	if e.post("verify", e.pay(payer, merchant, price), &v); v.IsValid {
		t.Fatalf("verify after the balance is spent: %+v", v)
	}
}

// A payer that moves its tokens away between verification and inclusion
// makes its settlement revert at the settler's cost once: then it waits in
// the penalty box, and its payments are refused before any broadcast.
func TestPenaltyBoxAfterARevert(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{blockPeriod: time.Second})
	const price = 10_000
	merchant := e.chain.Accounts[2].Address
	settler := e.svc.Settler()
	// The payer's front-running transfer must reach the pool before the
	// block that would mine the settlement is sealed; on a loaded machine
	// the block can come first (the settlement then succeeds), and a fresh
	// payer tries again.
	var (
		payer       devnet.Account
		nonceBefore uint64
	)
	for attempt := 0; ; attempt++ {
		payer = e.fundPayer(price)
		req := e.pay(payer, merchant, price)
		// Once the settlement is in the pool, the payer empties its
		// balance with a higher tip, so its transfer is mined first in the
		// same block.
		var res x402.SettleResponse
		res, nonceBefore = e.settleRacing(req, func() {
			e.transfer(payer.Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(e.chain.Accounts[4].Address, big.NewInt(price)), 50e9)
		})
		if res.Success && attempt < 4 {
			continue // mined before the front-run arrived
		}
		if res.Success || !strings.Contains(res.Message, "reverted on chain") {
			t.Fatalf("the front-run settlement: %+v", res)
		}
		break
	}

	// Funded again, the payer is refused until its penalty ends.
	tx := e.transfer(e.chain.Accounts[3].Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(payer.Address, big.NewInt(price)), 1e9)
	e.chain.Wait(context.Background(), tx.Hash())
	var v x402.VerifyResponse
	e.post("verify", e.pay(payer, merchant, price), &v)
	if v.IsValid || !strings.Contains(v.InvalidMessage, "reverted on chain recently") {
		t.Fatalf("verify in the penalty box: %+v", v)
	}
	var again x402.SettleResponse
	e.post("settle", e.pay(payer, merchant, price), &again)
	nonceAfter, _ := e.eth.PendingNonceAt(context.Background(), settler)
	if again.Success || nonceAfter-nonceBefore != 1 {
		t.Fatalf("settle in the penalty box: %+v; the settler sent %d transactions", again, nonceAfter-nonceBefore)
	}
}

func TestPenaltyGrows(t *testing.T) {
	t.Parallel()
	for count, want := range map[int]time.Duration{1: time.Minute, 2: 2 * time.Minute, 4: 8 * time.Minute, 7: time.Hour, 30: time.Hour} {
		if got := penalty(count); got != want {
			t.Errorf("penalty(%d) = %v, want %v", count, got, want)
		}
	}
}

// TestPayerHex: the remembered hex of an address is its checksummed hex,
// the first time and from the memo.
func TestPayerHex(t *testing.T) {
	t.Parallel()
	for i := range 64 {
		a := common.BytesToAddress(crypto.Keccak256([]byte{byte(i)}))
		for range 2 {
			if got, want := payerHex(a), a.Hex(); got != want {
				t.Fatalf("payerHex(%x) = %s, want %s", a, got, want)
			}
		}
	}
}
