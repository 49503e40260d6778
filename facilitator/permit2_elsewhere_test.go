package facilitator

import (
	"context"
	"crypto/ecdsa"
	"math/big"
	"net/http"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// sendSettlement sends p's settlement call itself, from key (another
// replica, or anyone), and waits for it to succeed.
func (e *env) sendSettlement(key *ecdsa.PrivateKey, p *payment) common.Hash {
	e.t.Helper()
	tx := e.transferGas(key, p.settlement.To, p.settlement.Data, 400_000)
	if r, err := e.chain.Wait(context.Background(), tx.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("the settlement sent from outside: %+v %v", r, err)
	}
	return tx.Hash()
}

// transferGas is transfer of no value with a gas limit.
func (e *env) transferGas(key *ecdsa.PrivateKey, to common.Address, data []byte, gas uint64) *types.Transaction {
	e.t.Helper()
	from := e.chain.Accounts[0].Address
	for _, a := range e.chain.Accounts {
		if a.Key == key {
			from = a.Address
		}
	}
	nonce, err := e.eth.PendingNonceAt(context.Background(), from)
	if err != nil {
		e.t.Fatal(err)
	}
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e9 + 1e11),
	})
	if err := e.eth.SendTransaction(context.Background(), tx); err != nil {
		e.t.Fatal(err)
	}
	return tx
}

// staleClaim stores a claim of p with no transaction, as a replica leaves
// it that signed p's settlement and died before storing it; the next
// settle of p takes it over.
func (e *env) staleClaim(p *payment) *store.Record {
	e.t.Helper()
	now := time.Now().UTC()
	rec := &store.Record{Key: p.key, PayloadHash: p.hash, State: store.StateClaimed, Scheme: p.scheme, Network: e.network,
		Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount, Created: now, Updated: now, ServeBy: now.Add(time.Minute)}
	if _, claimed, err := e.svc.store.Claim(*rec); err != nil || !claimed {
		e.t.Fatalf("claim: %v %v", claimed, err)
	}
	return rec
}

// A Permit2 payment (exact or upto) that a transaction the record does not
// hold settled (a replica's whose claim was taken over) is answered with
// that transaction, and the payer is charged once. Only a transaction
// carrying the payment's own signed permit counts: not one of the same
// payer's other payments of the same amount to the same merchant, nor one
// of a permit that reuses the payment's nonce with another term.
func TestPermit2SettledElsewhere(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		upto bool
	}{
		{"exact", false},
		{"upto", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newPermit2Env(t)
			payer, merchant := e.chain.Accounts[4], e.chain.Accounts[2].Address
			e.approvePermit2(payer)
			// Anyone may call the exact proxy; the upto proxy takes
			// only the witness's facilitator: the settler, which the
			// replicas of a fleet share.
			outsider := e.chain.Accounts[6].Key
			pay := func(edit func(*contracts.Permit2Transfer)) (*x402.VerifyRequest, *payment) {
				req := e.permit2Pay(payer, e.permit2Requirements(merchant, 10_000), false, edit)
				if tc.upto {
					req = owing(e.uptoPay(payer, e.uptoRequirements(merchant, 10_000), false, edit), 7_000)
				}
				p, err := e.svc.decode(req)
				if err != nil {
					t.Fatal(err)
				}
				return req, p
			}
			charge := int64(10_000)
			if tc.upto {
				outsider, charge = e.chain.Accounts[0].Key, 7_000
			}
			reqB, pB := pay(nil)
			nonceB := pB.pay.Mechanism.(*exact.Permit2Payment).Nonce
			// A: B's nonce, another deadline: another payment under B's key.
			_, pA := pay(func(t *contracts.Permit2Transfer) {
				t.Nonce = nonceB
				t.Deadline = new(big.Int).Add(t.Deadline, big.NewInt(1))
			})
			_, pC := pay(nil)    // the same payer's other payment, the same terms
			reqD, pD := pay(nil) // and one more, not settled yet

			before := e.permitBalance(payer.Address)
			txC := e.sendSettlement(outsider, pC)
			txB := e.sendSettlement(outsider, pB)
			if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Int64() != 2*charge {
				t.Fatalf("the payer paid %s for two settlements of %d", paid, charge)
			}

			unsent := func(p *payment) *store.Record {
				return &store.Record{Key: p.key, Scheme: p.scheme, Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount}
			}
			for _, n := range []struct {
				name string
				p    *payment
				want common.Hash
			}{
				{"the payment", pB, txB},
				{"the neighbour settled by its own transaction", pC, txC},
				{"a permit of the payment's nonce with another deadline", pA, common.Hash{}},
				{"a neighbour not settled", pD, common.Hash{}},
			} {
				got := e.svc.minedElsewhere(context.Background(), n.p, unsent(n.p))
				switch {
				case n.want == (common.Hash{}) && got != nil:
					t.Errorf("%s: found settled by %s", n.name, got.TxHash)
				case n.want != (common.Hash{}) && (got == nil || got.TxHash != n.want):
					t.Errorf("%s: found %v, want %s", n.name, got, n.want)
				}
			}

			// The settle that takes B's claim over finds B settled: it
			// answers with txB and charges nothing more.
			e.staleClaim(pB)
			before = e.permitBalance(payer.Address)
			var sr x402.SettleResponse
			if resp := e.post("settle", reqB, &sr); resp.StatusCode != http.StatusOK || !sr.Success {
				t.Fatalf("settle of the payment settled elsewhere: %d %+v", resp.StatusCode, sr)
			}
			if sr.TransactionHash != txB.Hex() {
				t.Errorf("settled by %s, want the transaction that settled it %s", sr.TransactionHash, txB)
			}
			if after := e.permitBalance(payer.Address); after.Cmp(before) != 0 {
				t.Errorf("the payer was charged %s more", new(big.Int).Sub(before, after))
			}
			if rec, err := e.st.Get(pB.key); err != nil || rec == nil || rec.State != store.StateSettled || rec.TxHash != txB {
				t.Errorf("the record: %+v %v; want settled by %s", rec, err, txB)
			}

			// The neighbour D, its claim taken over likewise, is settled
			// by a transaction of its own: neither B's nor C's counts.
			e.staleClaim(pD)
			before = e.permitBalance(payer.Address)
			if resp := e.post("settle", reqD, &sr); resp.StatusCode != http.StatusOK || !sr.Success {
				t.Fatalf("settle of the neighbour: %d %+v", resp.StatusCode, sr)
			}
			if tx := common.HexToHash(sr.TransactionHash); tx == txB || tx == txC {
				t.Errorf("the neighbour was answered with another payment's transaction %s", tx)
			}
			if paid := new(big.Int).Sub(before, e.permitBalance(payer.Address)); paid.Int64() != charge {
				t.Errorf("the neighbour charged %s, want %d", paid, charge)
			}
		})
	}
}

// A Permit2 payment's settlement found elsewhere follows the chain: a
// reorganisation that mines it again in another block still finds it
// there, one that drops it finds nothing (the nonce is unused again).
func TestPermit2SettledElsewhereReorg(t *testing.T) {
	t.Parallel()
	e := newPermit2Env(t)
	payer, merchant := e.chain.Accounts[4], e.chain.Accounts[2].Address
	e.approvePermit2(payer)
	p, err := e.svc.decode(e.permit2Pay(payer, e.permit2Requirements(merchant, 10_000), false, nil))
	if err != nil {
		t.Fatal(err)
	}
	tx := e.sendSettlement(e.chain.Accounts[6].Key, p)
	unsent := &store.Record{Key: p.key, Scheme: p.scheme, Payer: p.payer, PayTo: p.payTo, Asset: p.asset, Amount: p.amount}
	first := e.svc.minedElsewhere(context.Background(), p, unsent)
	if first == nil || first.TxHash != tx {
		t.Fatalf("before the reorganisation: found %v, want %s", first, tx)
	}
	if _, err := e.chain.Reorg(1, true); err != nil {
		t.Fatal(err)
	}
	again := e.svc.minedElsewhere(context.Background(), p, unsent)
	if again == nil || again.TxHash != tx || again.BlockHash == first.BlockHash {
		t.Fatalf("mined again in another block: found %+v, want %s in a block other than %s", again, tx, first.BlockHash)
	}
	if _, err := e.chain.Reorg(2, false); err != nil {
		t.Fatal(err)
	}
	if got := e.svc.minedElsewhere(context.Background(), p, unsent); got != nil {
		t.Fatalf("dropped by the reorganisation, yet found in %s", got.BlockHash)
	}
}
