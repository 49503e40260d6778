package facilitator

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

// A payer's Permit2 settlements in flight are counted across a fleet too
// (issue 40, item 1): three replicas on one PostgreSQL store and one
// settler are given 21 Permit2 payments of one payer whose balance covers
// one price. The settler sends one transaction; the other 20 are refused
// before anything is sent. With each replica counting only its own, each
// sent one and all but one reverted at the settler's cost.
func TestFleetPermit2Funds(t *testing.T) {
	t.Parallel()
	e, replica := fleetOf(t, "permit2funds_")
	e.cfg.Assets = append(e.cfg.Assets, Asset{Address: e.chain.Contracts.PermitToken, Name: wellknown.PermitTokenName, Version: "1", Decimals: 6, Permit2: true})
	replicas := []*Service{replica(), replica(), replica()}
	const price, payments = 10_000, 21
	ctx := context.Background()

	key, _ := crypto.GenerateKey()
	payer := devnet.Account{Key: key, Address: crypto.PubkeyToAddress(key.PublicKey)}
	if _, err := e.chain.Wait(ctx, e.transfer(e.chain.Accounts[3].Key, payer.Address, big.NewInt(1e18), nil, 1e9).Hash()); err != nil {
		t.Fatal(err)
	}
	e.exec(e.chain.Accounts[3].Key, e.chain.Contracts.PermitToken, contracts.NewDevPermitToken().PackTransfer(payer.Address, big.NewInt(price)))
	e.approvePermit2(payer)

	merchant := e.chain.Accounts[9].Address
	settler := replicas[0].Settler()
	nonce, err := e.eth.PendingNonceAt(ctx, settler)
	if err != nil {
		t.Fatal(err)
	}
	reqs := make([]*x402.VerifyRequest, payments)
	for i := range reqs {
		reqs[i] = e.permit2Pay(payer, e.permit2Requirements(merchant, price), false, nil)
	}
	before := e.permitBalance(merchant)
	settled := settleAcross(t, replicas, reqs)
	after, err := e.eth.PendingNonceAt(ctx, settler)
	if err != nil {
		t.Fatal(err)
	}
	if settled != 1 || after-nonce != 1 {
		t.Fatalf("%d settled and the settler sent %d transactions for %d Permit2 payments over one price's balance, want 1 and 1", settled, after-nonce, payments)
	}
	if got := new(big.Int).Sub(e.permitBalance(merchant), before); got.Int64() != price {
		t.Fatalf("the merchant got %s, want one price", got)
	}
}
