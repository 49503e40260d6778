package batchsettle_test

import (
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestGasPerRequest measures, in one run on the devnet, the gas of 1,000
// paid requests across 10 channels beside a lone exact settlement: ten
// deposits, 1,000 vouchers signed and checked off chain (no gas), one
// claimWithSignature of the ten channels' last vouchers and one sweep. The
// claim and the sweep must cost each request at most 0.01× what a lone
// exact settlement (transferWithAuthorization) costs; the deposits, a
// channel's one-time cost, are reported beside.
func TestGasPerRequest(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	// A receiver of its own: a sweep takes everything claimed for its
	// receiver, which another test's must not be.
	facilitator, funder, authorizer := h.d.Accounts[1], h.d.Accounts[2], h.d.Accounts[4]
	receiver := struct{ Address common.Address }{addr(newKey(t))}
	settlement := h.d.Contracts.BatchSettlement
	const channels, requests, price, deposit = 10, 1000, 10, 10_000

	payers := make([]*ecdsa.PrivateKey, channels)
	addrs := make([]common.Address, channels)
	cfgs := make([]batchsettle.ChannelConfig, channels)
	for i := range payers {
		payers[i] = newKey(t)
		addrs[i] = addr(payers[i])
		cfgs[i] = h.config(payers[i], authorizer.Key, receiver.Address, 7)
	}
	h.fund(funder, big.NewInt(deposit+1000), addrs...)
	// The receiver already holds tokens, as a merchant does: neither its
	// exact payment nor the sweep pays for its first balance.
	h.fund(funder, big.NewInt(1), receiver.Address)

	// A lone exact settlement: an EIP-3009 transfer of one request's price
	// from a payer that holds tokens to the receiver, sent by the
	// facilitator.
	auth := contracts.TransferAuthorization{
		From: addrs[0], To: receiver.Address, Value: big.NewInt(price), ValidAfter: new(big.Int),
		ValidBefore: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: crypto.Keccak256Hash([]byte("gas"), addrs[0][:]),
	}
	sig, err := auth.Sign(h.tok, payers[0])
	if err != nil {
		t.Fatal(err)
	}
	exact := h.send(facilitator.Key, h.d.Token.Address, h.dev.PackTransferWithAuthorization0(auth.From, auth.To, auth.Value,
		auth.ValidAfter, auth.ValidBefore, auth.Nonce, sig[64], [32]byte(sig[:32]), [32]byte(sig[32:64])))

	var hashes []common.Hash
	for i := range payers {
		hashes = append(hashes, h.submit(facilitator.Key, settlement, h.depositCall(payers[i], cfgs[i], big.NewInt(deposit), big.NewInt(int64(100+i)))))
	}
	var depositGas uint64
	for _, x := range hashes {
		depositGas += h.wait(x).GasUsed
	}

	// The requests: each channel's payer signs a voucher for its charged
	// total plus the price, which the server checks without a node.
	latest := make([]batchsettle.VoucherClaim, channels)
	charged := make([]int64, channels)
	for r := range requests {
		i := r % channels
		charged[i] += price
		latest[i] = h.voucher(payers[i], cfgs[i], charged[i])
		signer, err := batchsettle.Recover(h.dom.VoucherDigest(h.dom.ChannelID(cfgs[i]), latest[i].Voucher.MaxClaimableAmount), latest[i].Signature)
		if err != nil || signer != addrs[i] {
			t.Fatalf("request %d: the voucher recovers to %s (%v)", r, signer, err)
		}
	}
	claim := h.send(facilitator.Key, settlement, h.claimCall(authorizer.Key, latest))
	sweep := h.send(facilitator.Key, settlement, h.bs.PackSettle(receiver.Address, h.d.Token.Address))

	perRequest := float64(claim.GasUsed+sweep.GasUsed) / requests
	withDeposits := float64(claim.GasUsed+sweep.GasUsed+depositGas) / requests
	t.Logf("a lone exact settlement: %d gas", exact.GasUsed)
	t.Logf("%d requests across %d channels: deposits %d, claim %d, sweep %d gas", requests, channels, depositGas, claim.GasUsed, sweep.GasUsed)
	t.Logf("gas per request: %.0f claim and sweep (%.4f× exact), %.0f with the deposits (%.4f× exact)",
		perRequest, perRequest/float64(exact.GasUsed), withDeposits, withDeposits/float64(exact.GasUsed))
	if perRequest > 0.01*float64(exact.GasUsed) {
		t.Errorf("claim and sweep cost %.0f gas a request, more than 0.01× a lone exact settlement's %d", perRequest, exact.GasUsed)
	}
}
