package facilitator

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/x402"
)

// channelPayer signs batch-settlement payments of one channel, as
// upstream's client does, for its offer.
type channelPayer struct {
	e     *env
	key   *ecdsa.PrivateKey
	cfg   batchsettle.ChannelConfig
	dom   batchsettle.Domain
	offer x402.PaymentRequirements
}

// newChannelEnv is an env with the batch-settlement scheme on, and the
// channel of a new payer holding funds of the token (and no ETH) to
// account 2, account 3 its receiver authorizer, offered at 100 a call.
func newChannelEnv(t testing.TB, funds int64) (*env, *channelPayer) {
	t.Helper()
	e := newEnvB(t, envOptions{})
	e.stop()
	e.cfg.BatchSettlement = &BatchSettlement{}
	e.start()
	d := e.chain
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	payer := crypto.PubkeyToAddress(key.PublicKey)
	receiver, authorizer := d.Accounts[2].Address, d.Accounts[3].Address
	e.fundTokens(payer, funds)
	return e, &channelPayer{e: e, key: key, dom: batchsettle.NewDomain(d.ChainID, d.Contracts.BatchSettlement),
		cfg: batchsettle.ChannelConfig{
			Payer: payer, PayerAuthorizer: payer, Receiver: receiver, ReceiverAuthorizer: authorizer,
			Token: d.Token.Address, WithdrawDelay: big.NewInt(900),
		},
		offer: x402.PaymentRequirements{
			Scheme: x402.SchemeBatchSettlement, Network: e.network, Amount: "100", Asset: d.Token.Address.Hex(), PayTo: receiver.Hex(),
			MaxTimeoutSeconds: 60, Extra: &x402.Extra{ReceiverAuthorizer: authorizer.Hex(), WithdrawDelay: 900, Name: d.Token.Name, Version: d.Token.Version},
		}}
}

// request is a verify or settle request of payload for the channel's
// offer.
func (c *channelPayer) request(payload json.RawMessage) *x402.VerifyRequest {
	return &x402.VerifyRequest{PaymentPayload: x402.PaymentPayload{X402Version: x402.Version, Accepted: c.offer, Payload: payload}, PaymentRequirements: c.offer}
}

func (c *channelPayer) id() common.Hash { return c.dom.ChannelID(c.cfg) }

func (c *channelPayer) sign(digest common.Hash) string {
	c.e.t.Helper()
	sig, err := batchsettle.Sign(digest, c.key)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return hexutil.Encode(sig)
}

// payload is a payment payload of typ whose voucher is for max; a deposit
// also moves deposit through EIP-3009.
func (c *channelPayer) payload(typ string, max, deposit int64) json.RawMessage {
	c.e.t.Helper()
	cfg := c.cfg
	p := map[string]any{
		"type": typ,
		"channelConfig": map[string]any{
			"payer": cfg.Payer.Hex(), "payerAuthorizer": cfg.PayerAuthorizer.Hex(), "receiver": cfg.Receiver.Hex(),
			"receiverAuthorizer": cfg.ReceiverAuthorizer.Hex(), "token": cfg.Token.Hex(), "withdrawDelay": cfg.WithdrawDelay.Int64(),
			"salt": hexutil.Encode(cfg.Salt[:]),
		},
		"voucher": map[string]any{"channelId": c.id().Hex(), "maxClaimableAmount": fmt.Sprint(max), "signature": c.sign(c.dom.VoucherDigest(c.id(), big.NewInt(max)))},
	}
	if typ == "deposit" {
		d := c.e.chain
		salt := big.NewInt(time.Now().UnixNano())
		auth := batchsettle.ReceiveAuthorization{
			From: cfg.Payer, To: d.Contracts.ERC3009DepositCollector, Value: big.NewInt(deposit),
			ValidAfter: new(big.Int), ValidBefore: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: batchsettle.DepositNonce(c.id(), salt),
		}
		digest, err := auth.Digest(contracts.TokenDomain{Name: d.Token.Name, Version: d.Token.Version, ChainID: d.ChainID, Token: d.Token.Address})
		if err != nil {
			c.e.t.Fatal(err)
		}
		p["deposit"] = map[string]any{"amount": fmt.Sprint(deposit), "authorization": map[string]any{"erc3009Authorization": map[string]any{
			"validAfter": "0", "validBefore": auth.ValidBefore.String(), "salt": salt.String(), "signature": c.sign(digest),
		}}}
	}
	raw, err := json.Marshal(p)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return raw
}

// TestBatchSettlementScheme: the facilitator with the batch-settlement
// scheme on. A payer with no ETH deposits through /settle (the
// facilitator's settler sends the deposit and pays its gas); /verify of a
// voucher answers the channel's snapshot in its extra; /settle of a
// voucher is refused and sends nothing, since a voucher is charged off
// chain and claimed later; the merchant's claim of it, signed as the
// receiver authorizer, claims and sweeps it in one transaction, once.
func TestBatchSettlementScheme(t *testing.T) {
	t.Parallel()
	e, c := newChannelEnv(t, 50_000)
	d := e.chain
	payer, receiver := c.cfg.Payer, c.cfg.Receiver
	request := c.request

	var deposited x402.SettleResponse
	if resp := e.post("settle", request(c.payload("deposit", 100, 40_000)), &deposited); resp.StatusCode != http.StatusOK || !deposited.Success {
		t.Fatalf("settling the deposit: %d %+v", resp.StatusCode, deposited)
	}
	if deposited.Amount != "40000" {
		t.Errorf("the deposit's answer names an amount of %q, want the 40000 deposited", deposited.Amount)
	}
	if x := deposited.Extra; x == nil || x.ChannelState == nil || x.ChannelState.Balance != "40000" || x.ChannelState.ChannelID != c.id().Hex() {
		t.Errorf("the deposit's answer reports the channel %+v, want its balance of 40000", x)
	}
	if eth, err := e.eth.BalanceAt(t.Context(), payer, nil); err != nil || eth.Sign() != 0 {
		t.Errorf("the payer holds %v ETH (%v): the deposit was not sponsored", eth, err)
	}
	if got := e.balance(payer); got.Int64() != 10_000 {
		t.Errorf("the payer holds %v after depositing 40000 of 50000", got)
	}

	var verified x402.VerifyResponse
	e.post("verify", request(c.payload("voucher", 200, 0)), &verified)
	if !verified.IsValid || verified.Extra == nil || verified.Extra.Balance != "40000" || verified.Extra.ChannelID != c.id().Hex() || verified.Extra.RefundNonce != "0" {
		t.Fatalf("verifying a voucher: %+v, extra %+v", verified, verified.Extra)
	}

	var refused x402.SettleResponse
	e.post("settle", request(c.payload("voucher", 200, 0)), &refused)
	if refused.Success || refused.ErrorCode != x402.ErrorVerifyFailed {
		t.Fatalf("settling a voucher: %+v", refused)
	}
	e.post("verify", request(c.payload("voucher", 40_001, 0)), &verified)
	if verified.IsValid || verified.InvalidReason != x402.ReasonAmountMismatch {
		t.Errorf("a voucher above the deposit: %+v", verified)
	}

	// The merchant claims the voucher, signing the batch as its receiver
	// authorizer: one transaction claims it and sweeps it to the receiver.
	before := e.balance(receiver)
	var forged, claimed, again x402.SettleResponse
	e.post("settle", request(c.claim(200, d.Accounts[5].Key)), &forged)
	if forged.Success {
		t.Fatalf("a claim signed by another key settled: %+v", forged)
	}
	claim := request(c.claim(200, d.Accounts[3].Key))
	if resp := e.post("settle", claim, &claimed); resp.StatusCode != http.StatusOK || !claimed.Success {
		t.Fatalf("settling the claim: %d %+v", resp.StatusCode, claimed)
	}
	if got := new(big.Int).Sub(e.balance(receiver), before); got.Int64() != 200 {
		t.Errorf("the receiver got %v from the claim, want 200", got)
	}
	e.post("settle", claim, &again)
	if again.Success {
		t.Errorf("the same claim settled twice: %+v", again)
	}
	if got := new(big.Int).Sub(e.balance(receiver), before); got.Int64() != 200 {
		t.Errorf("the receiver got %v after a replayed claim, want 200", got)
	}
}

// claim is a merchant's claim payload of the channel's voucher for max,
// claimed in full, the batch signed by authorizer.
func (c *channelPayer) claim(max int64, authorizer *ecdsa.PrivateKey) json.RawMessage {
	c.e.t.Helper()
	cfg := c.cfg
	row := batchsettle.VoucherClaim{
		Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: cfg, MaxClaimableAmount: big.NewInt(max)},
		Signature: hexutil.MustDecode(c.sign(c.dom.VoucherDigest(c.id(), big.NewInt(max)))), TotalClaimed: big.NewInt(max),
	}
	sig, err := batchsettle.Sign(c.dom.ClaimBatchDigest(c.dom.Entries([]batchsettle.VoucherClaim{row})), authorizer)
	if err != nil {
		c.e.t.Fatal(err)
	}
	raw, err := batchsettlement.ClaimPayload([]batchsettle.VoucherClaim{row}, sig)
	if err != nil {
		c.e.t.Fatal(err)
	}
	return raw
}

// TestBatchSettlementChecksContracts: a facilitator told that the
// settlement contract is somewhere it is not (here, the token) does not
// start, and says why.
func TestBatchSettlementChecksContracts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	e.stop()
	cfg := e.cfg
	cfg.BatchSettlement = &BatchSettlement{Settlement: e.chain.Token.Address}
	svc, err := e.open(cfg)
	if err == nil {
		svc.Close()
		e.stop()
		t.Fatal("the facilitator started on a settlement address holding another contract")
	}
	if !strings.Contains(err.Error(), "EIP-712 domain") {
		t.Errorf("refused with %v, want the domain named", err)
	}
}

// TestUpstreamBatchSettlementServer: upstream's batch-settlement server
// (@x402/express with @x402/evm's server scheme, which owns the receiver
// authorizer's key) runs with this facilitator behind it, and upstream's
// client pays it through @x402/fetch three times: a deposit, which this
// facilitator verifies and sends, then two vouchers. The payer then asks
// for a cooperative refund: the server completes it with its claim and
// signatures, and this facilitator claims the 300 served, sweeps them to
// the receiver and returns the rest, in one transaction.
func TestUpstreamBatchSettlementServer(t *testing.T) {
	t.Parallel()
	dir := interopDir(t)
	e := newEnv(t, envOptions{})
	e.stop()
	e.cfg.BatchSettlement = &BatchSettlement{}
	e.start()
	d := e.chain
	receiver := d.Accounts[2].Address
	payerBefore, receiverBefore := e.balance(d.Accounts[7].Address), e.balance(receiver)
	cmd := exec.CommandContext(t.Context(), "node", "batch-settlement-express.mjs")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "FACILITATOR_URL="+e.srv.URL, "SETTLE_KEY="+testSettleKey, "NETWORK="+e.network, "RPC="+d.URL,
		"ASSET="+d.Token.Address.Hex(), "TOKEN_NAME="+d.Token.Name, "TOKEN_VERSION="+d.Token.Version, "PAY_TO="+receiver.Hex(), "AMOUNT=100",
		"AUTHORIZER_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(d.Accounts[3].Key)),
		"X402_KEY=0x"+common.Bytes2Hex(crypto.FromECDSA(d.Accounts[7].Key)), "COUNT=3")
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("node: %v\n%s\n%s", err, out, stderr)
	}
	t.Logf("upstream's server and client: %s", out)
	var got struct {
		Results []struct {
			Status   int                  `json:"status"`
			Response *x402.SettleResponse `json:"response"`
		} `json:"results"`
		Refund *x402.SettleResponse `json:"refund"`
	}
	if err := json.Unmarshal(out, &got); err != nil || len(got.Results) != 3 {
		t.Fatalf("results %s: %v", out, err)
	}
	for i, r := range got.Results {
		if r.Status != http.StatusOK || r.Response == nil || !r.Response.Success {
			t.Fatalf("request %d: %d, %+v", i, r.Status, r.Response)
		}
	}
	if got.Results[0].Response.TransactionHash == "" || got.Results[1].Response.TransactionHash != "" {
		t.Errorf("the first request should be paid by a deposit's transaction, the next by vouchers alone: %+v, %+v",
			got.Results[0].Response, got.Results[1].Response)
	}
	if a := got.Results[0].Response.Amount; a == "" || a == "100" {
		t.Errorf("the deposit's PAYMENT-RESPONSE names an amount of %q, want what was deposited", a)
	}
	last := got.Results[2].Response.Extra
	if last == nil || last.ChannelState == nil || last.ChannelState.ChargedCumulativeAmount != "300" || last.ChargedAmount != "100" {
		t.Fatalf("the third answer's extra %+v, want 300 charged in all, 100 of it now", last)
	}
	bs := batchsettle.NewX402BatchSettlement()
	out, err = e.eth.CallContract(t.Context(), callMsg(d.Contracts.BatchSettlement, bs.PackChannels(common.HexToHash(last.ChannelState.ChannelID))), nil)
	if err != nil {
		t.Fatal(err)
	}
	ch, err := bs.UnpackChannels(out)
	if err != nil {
		t.Fatal(err)
	}
	// The refund claimed the 300 served and swept them to the receiver in
	// its transaction, then returned the rest to the payer.
	if got.Refund == nil || !got.Refund.Success || got.Refund.TransactionHash == "" || got.Refund.Amount != "700" {
		t.Fatalf("the refund: %+v", got.Refund)
	}
	if ch.TotalClaimed.Int64() != 300 || ch.Balance.Int64() != 300 {
		t.Errorf("the channel after the refund: %+v, want 300 held and claimed", ch)
	}
	if paid := new(big.Int).Sub(payerBefore, e.balance(d.Accounts[7].Address)); paid.Int64() != 300 {
		t.Errorf("the payer paid %v in all, want the 300 it was charged", paid)
	}
	if got := new(big.Int).Sub(e.balance(receiver), receiverBefore); got.Int64() != 300 {
		t.Errorf("the receiver got %v, want 300", got)
	}
}

// TestBatchSettlementSweep: the merchant's settle payload (type settle)
// sweeps what was claimed for the receiver and not swept: its answer
// names the amount transferred and its transaction; a sweep with nothing
// due succeeds with "0" and sends nothing.
func TestBatchSettlementSweep(t *testing.T) {
	t.Parallel()
	e, c := newChannelEnv(t, 5_000)
	d := e.chain
	receiver := d.Accounts[2]
	request := c.request
	var deposited x402.SettleResponse
	if e.post("settle", request(c.payload("deposit", 100, 4_000)), &deposited); !deposited.Success {
		t.Fatalf("settling the deposit: %+v", deposited)
	}
	// The receiver claims 700 itself, with no sweep.
	e.exec(receiver.Key, d.Contracts.BatchSettlement, batchsettle.NewX402BatchSettlement().PackClaim([]batchsettle.VoucherClaim{{
		Voucher:   batchsettle.X402BatchSettlementVoucher{Channel: c.cfg, MaxClaimableAmount: big.NewInt(700)},
		Signature: hexutil.MustDecode(c.sign(c.dom.VoucherDigest(c.id(), big.NewInt(700)))), TotalClaimed: big.NewInt(700),
	}}))
	before := e.balance(receiver.Address)
	sweep := request(batchsettlement.SweepPayload(receiver.Address, d.Token.Address))
	var swept, idle x402.SettleResponse
	if resp := e.post("settle", sweep, &swept); resp.StatusCode != http.StatusOK || !swept.Success || swept.Amount != "700" || swept.TransactionHash == "" {
		t.Fatalf("the sweep: %d %+v; want 700 moved by a transaction", resp.StatusCode, swept)
	}
	if got := new(big.Int).Sub(e.balance(receiver.Address), before); got.Int64() != 700 {
		t.Errorf("the receiver got %v, want 700", got)
	}
	if e.post("settle", sweep, &idle); !idle.Success || idle.Amount != "0" || idle.TransactionHash != "" {
		t.Errorf("a sweep with nothing due: %+v; want success, 0 and no transaction", idle)
	}
}
