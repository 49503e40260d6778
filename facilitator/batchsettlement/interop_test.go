package batchsettlement

import (
	"context"
	"encoding/json"
	"math/big"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// upstreamClient returns the interop directory with its pinned npm
// packages installed; it skips the test without node.
func upstreamClient(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed; .ci/run installs it")
	}
	dir, _ := filepath.Abs(filepath.Join("..", "..", "interop"))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@x402", "evm")); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), opTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--silent")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci: %v\n%s", err, out)
		}
	}
	return dir
}

// sign runs interop/batch-settlement.mjs: @x402/evm 2.27.0's
// batch-settlement client signs a payment of offer with key, reading the
// payer's channel from the devnet.
func (e *env) upstreamPayment(dir string, key []byte, offer x402.PaymentRequirements) json.RawMessage {
	e.t.Helper()
	o, err := json.Marshal(offer)
	if err != nil {
		e.t.Fatal(err)
	}
	cmd := exec.CommandContext(e.ctx(), "node", "batch-settlement.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OFFER="+string(o), "RPC="+e.d.URL, "X402_KEY=0x"+common.Bytes2Hex(key))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		e.t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	var res struct {
		Payload json.RawMessage `json:"payload"`
	}
	if err := json.Unmarshal(out, &res); err != nil || res.Payload == nil {
		e.t.Fatalf("the client printed %s (%v)", out, err)
	}
	return res.Payload
}

// TestUpstreamClient: upstream's own client interoperates with our
// contracts and our verifier. @x402/evm 2.27.0's BatchSettlementEvmScheme
// reads the payer's channel from our contract on the devnet, finds none and
// signs a deposit (EIP-3009 to the ERC-3009 collector, with a voucher);
// this scheme verifies it and the facilitator's key sends it. A second run
// of the client, with no memory of the first, finds the channel on chain
// and signs a voucher, which verifies against the channel's balance.
func TestUpstreamClient(t *testing.T) {
	t.Parallel()
	dir := upstreamClient(t)
	e := newEnv(t)
	facilitator, receiver, authorizer, payer := e.d.Accounts[1], e.d.Accounts[2], e.d.Accounts[3], e.d.Accounts[7]
	offer := e.requirements(receiver.Address, authorizer.Address)
	key := crypto.FromECDSA(payer.Key)

	first := e.upstreamPayment(dir, key, offer)
	req := &x402.VerifyRequest{PaymentPayload: x402.PaymentPayload{X402Version: x402.Version, Accepted: offer, Payload: first}, PaymentRequirements: offer}
	pay, err := e.s.Decode(req)
	if err != nil {
		t.Fatalf("decoding upstream's first payment %s: %v", first, err)
	}
	p := pay.Mechanism.(*Payment)
	if p.Type != TypeDeposit || p.Deposit.ERC3009 == nil {
		t.Fatalf("upstream's first payment is a %s, want an EIP-3009 deposit: %s", p.Type, first)
	}
	if err := e.s.Verify(e.ctx(), pay, req); err != nil {
		t.Fatalf("upstream's deposit did not verify: %v\n%s", err, first)
	}
	s := e.s.Settlement(pay)
	e.send(facilitator.Key, s.To, s.Data)
	t.Logf("upstream's client deposited %s into channel %s with a voucher for %s", p.Deposit.Amount, p.ChannelID, p.MaxClaimable)

	second := e.upstreamPayment(dir, key, offer)
	req = &x402.VerifyRequest{PaymentPayload: x402.PaymentPayload{X402Version: x402.Version, Accepted: offer, Payload: second}, PaymentRequirements: offer}
	code, v := e.verify(req)
	if code != "" {
		t.Fatalf("upstream's second payment was refused: %s\n%s", code, second)
	}
	if v.Type != TypeVoucher || v.ChannelID != p.ChannelID || v.Snapshot.Balance.Cmp(p.Deposit.Amount) != 0 {
		t.Fatalf("upstream's second payment: a %s of channel %s (snapshot %+v), want a voucher of %s", v.Type, v.ChannelID, v.Snapshot, p.ChannelID)
	}
	if want := new(big.Int).Add(v.Snapshot.TotalClaimed, big.NewInt(100)); v.MaxClaimable.Cmp(want) != 0 {
		t.Errorf("the voucher's ceiling %s, want what was claimed plus the price, %s", v.MaxClaimable, want)
	}
}

// TestUpstreamFacilitator: upstream's own facilitator (@x402/evm 2.27.0's
// batch-settlement facilitator, interop/batch-settlement-facilitator.mjs)
// runs on our contracts: it verifies and sends its client's deposit,
// verifies the voucher its client then signs, claims it (signing the
// ClaimBatch as the receiver authorizer) and sweeps it to the receiver.
// The chain shows the channel claimed and the receiver paid, and our
// scheme reads the same channel.
func TestUpstreamFacilitator(t *testing.T) {
	t.Parallel()
	dir := upstreamClient(t)
	e := newEnv(t)
	sender, authorizer, payer := e.d.Accounts[0], e.d.Accounts[4], e.d.Accounts[6]
	receiver := crypto.PubkeyToAddress(newKey(t).PublicKey)
	offer := e.requirements(receiver, authorizer.Address)
	o, err := json.Marshal(offer)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(e.ctx(), "node", "batch-settlement-facilitator.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OFFER="+string(o), "RPC="+e.d.URL,
		"PAYER_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(payer.Key)),
		"FACILITATOR_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(sender.Key)),
		"AUTHORIZER_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(authorizer.Key)))
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("upstream's facilitator: %s", out)
	var got struct {
		ChannelID string `json:"channelId"`
		Claimed   string `json:"claimed"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatal(err)
	}
	id := common.HexToHash(got.ChannelID)
	ch, err := e.bs.UnpackChannels(mustCall(t, e, e.d.Contracts.BatchSettlement, e.bs.PackChannels(id)))
	if err != nil || ch.TotalClaimed.String() != got.Claimed || ch.Balance.Sign() == 0 {
		t.Fatalf("channel %s: %+v (%v), want %s claimed", id, ch, err, got.Claimed)
	}
	paid, err := contracts.NewDevUSD().UnpackBalanceOf(mustCall(t, e, e.d.Token.Address, contracts.NewDevUSD().PackBalanceOf(receiver)))
	if err != nil || paid.String() != got.Claimed {
		t.Fatalf("the receiver holds %v (%v), want the %s swept", paid, err, got.Claimed)
	}
}
