package batchsettlement

import (
	"crypto/ecdsa"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// TestVerify runs the verification rules against the devnet: a payer with
// no ETH deposits through the scheme (its Settlement sent by the
// facilitator's key, its Outcome read from the receipt), the receiver
// claims 300, and then each payload below is verified, good or refused
// with upstream's code.
func TestVerify(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	facilitator, receiver, authorizer, funder := e.d.Accounts[1], e.d.Accounts[2], e.d.Accounts[3], e.d.Accounts[5]
	key, other := newKey(t), newKey(t)
	e.send(funder.Key, e.d.Token.Address, contracts.NewDevUSD().PackTransfer(crypto.PubkeyToAddress(key.PublicKey), big.NewInt(20_000)))
	p := e.payer(key, receiver.Address, authorizer.Address, 1)
	req := e.requirements(receiver.Address, authorizer.Address)
	now := time.Now().Unix()

	// The deposit, verified and sent as the facilitator would.
	depReq := e.request(p.deposit(10_000, 100, 0, now+3600), req)
	pay, err := e.s.Decode(depReq)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.s.Verify(e.ctx(), pay, depReq); err != nil {
		t.Fatalf("the deposit did not verify: %v", err)
	}
	if snap, ok := ChannelSnapshot(pay); !ok || snap.Balance != "0" || snap.ChannelID != p.id().Hex() {
		t.Errorf("the deposit's snapshot %+v, %v", snap, ok)
	}
	s := e.s.Settlement(pay)
	r := e.send(facilitator.Key, s.To, s.Data)
	if o := e.s.Outcome(nil, r); o.Verdict != scheme.Paid {
		t.Fatalf("the deposit's outcome %+v", o)
	}
	if eth, err := e.c.BalanceAt(e.ctx(), p.cfg.Payer, nil); err != nil || eth.Sign() != 0 {
		t.Errorf("the payer holds %v ETH (%v): its deposit was not gasless", eth, err)
	}
	e.send(receiver.Key, e.d.Contracts.BatchSettlement, e.bs.PackClaim([]batchsettle.VoucherClaim{{
		Voucher:      batchsettle.X402BatchSettlementVoucher{Channel: p.cfg, MaxClaimableAmount: big.NewInt(300)},
		Signature:    hexutil.MustDecode(p.voucher(TypeVoucher, 300)["voucher"].(map[string]any)["signature"].(string)),
		TotalClaimed: big.NewInt(300),
	}}))

	// Variations on the channel and the offer.
	swapped := *p
	swapped.cfg.ReceiverAuthorizer = crypto.PubkeyToAddress(other.PublicKey)
	wrongReceiver := *p
	wrongReceiver.cfg.Receiver = facilitator.Address
	wrongToken := *p
	wrongToken.cfg.Token = e.d.Contracts.PermitToken
	longer := *p
	longer.cfg.WithdrawDelay = big.NewInt(1000)
	empty := e.payer(key, receiver.Address, authorizer.Address, 9)
	forged := *p
	forged.key = other
	badID := p.voucher(TypeVoucher, 400)
	badID["voucher"].(map[string]any)["channelId"] = empty.id().Hex()
	shortReq := req
	shortExtra := *req.Extra
	shortExtra.WithdrawDelay = 600
	shortReq.Extra = &shortExtra
	shortDelay := *p
	shortDelay.cfg.WithdrawDelay = big.NewInt(600)

	for _, tc := range []struct {
		name    string
		req     *x402.VerifyRequest
		want    Code
		balance string // the snapshot's balance when it verifies
	}{
		{"a voucher", e.request(p.voucher(TypeVoucher, 400), req), "", "10000"},
		{"a voucher for all the channel holds", e.request(p.voucher(TypeVoucher, 10_000), req), "", "10000"},
		{"a top-up whose voucher spends it", e.request(p.deposit(5_000, 15_000, 0, now+3600), req), "", "10000"},
		{"a refund of everything", e.request(p.voucher(TypeRefund, 300), req), "", "10000"},
		{"a refund of part", e.request(with(p.voucher(TypeRefund, 300), "amount", "1500"), req), "", "10000"},
		{"a completed refund", e.request(p.completedRefund(300, 1500, 0, authorizer.Key), req), "", "10000"},
		{"a completed refund at a spent nonce", e.request(p.completedRefund(300, 1500, 1, authorizer.Key), req), CodeRefundNonce, ""},
		{"a completed refund not the authorizer's", e.request(p.completedRefund(300, 1500, 0, other), req), CodeRefundSignature, ""},
		{"a refund of zero", e.request(with(p.voucher(TypeRefund, 300), "amount", "0"), req), CodeRefundAmountInvalid, ""},
		{"an operator's refund", e.request(p.operatorRefund(1500, 0, authorizer.Key), req), "", "10000"},
		{"an operator's refund at a spent nonce", e.request(p.operatorRefund(1500, 1, authorizer.Key), req), CodeRefundNonce, ""},
		{"an operator's refund not the authorizer's", e.request(p.operatorRefund(1500, 0, other), req), CodeRefundSignature, ""},
		{"an operator's refund of another receiver's channel", e.request(wrongReceiver.operatorRefund(1500, 0, authorizer.Key), req), CodeReceiverMismatch, ""},
		{"an operator's refund of an empty channel", e.request(empty.operatorRefund(1500, 0, authorizer.Key), req), CodeChannelNotFound, ""},
		{"a voucher above the balance", e.request(p.voucher(TypeVoucher, 10_001), req), CodeCumulativeExceedsBalance, ""},
		{"a voucher at what was claimed", e.request(p.voucher(TypeVoucher, 300), req), CodeCumulativeBelowClaimed, ""},
		{"a voucher below what was claimed", e.request(p.voucher(TypeVoucher, 200), req), CodeCumulativeBelowClaimed, ""},
		{"a refund below what was claimed", e.request(p.voucher(TypeRefund, 200), req), CodeCumulativeBelowClaimed, ""},
		{"a voucher of an empty channel", e.request(empty.voucher(TypeVoucher, 100), req), CodeChannelNotFound, ""},
		{"a voucher signed by another key", e.request(forged.voucher(TypeVoucher, 400), req), CodeVoucherSignature, ""},
		{"a voucher naming another channel", e.request(badID, req), CodeChannelIDMismatch, ""},
		{"a channel to another receiver", e.request(wrongReceiver.voucher(TypeVoucher, 400), req), CodeReceiverMismatch, ""},
		{"a channel of another token", e.request(wrongToken.voucher(TypeVoucher, 400), req), CodeTokenMismatch, ""},
		{"a channel of another receiver authorizer", e.request(swapped.voucher(TypeVoucher, 400), req), CodeReceiverAuthorizer, ""},
		{"a channel of another withdraw delay", e.request(longer.voucher(TypeVoucher, 400), req), CodeWithdrawDelayMismatch, ""},
		{"a withdraw delay under 15 minutes", e.request(shortDelay.voucher(TypeVoucher, 400), shortReq), CodeWithdrawDelayOutOfRange, ""},
		{"an offer whose receiverAuthorizer the client swapped", swapAccepted(e.request(p.voucher(TypeVoucher, 400), req), other), CodeReceiverAuthorizer, ""},
		{"an offer whose payTo the client swapped", swapPayTo(e.request(p.voucher(TypeVoucher, 400), req), facilitator.Address), CodeReceiverMismatch, ""},
		{"a deposit above the payer's balance", e.request(p.deposit(30_000, 100, 0, now+3600), req), CodeInsufficientBalance, ""},
		{"a deposit authorization not yet valid", e.request(p.deposit(1_000, 400, now+600, now+3600), req), CodeValidAfter, ""},
		{"a deposit authorization expiring", e.request(p.deposit(1_000, 400, 0, now+2), req), CodeValidBefore, ""},
		{"a deposit authorization not the payer's", e.request(forged.deposit(1_000, 400, 0, now+3600), req), CodeReceiveAuthSignature, ""},
		{"another network", e.request(p.voucher(TypeVoucher, 400), onNetwork(req, "eip155:1")), CodeNetworkMismatch, ""},
		{"another scheme", e.request(p.voucher(TypeVoucher, 400), withScheme(req, x402.SchemeExact)), CodeScheme, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := *e
			e.t = t
			got, p := e.verify(tc.req)
			if got != tc.want {
				t.Fatalf("verify: %q, want %q", got, tc.want)
			}
			if tc.want == "" && p.Snapshot.Balance.String() != tc.balance {
				t.Errorf("snapshot balance %s, want %s", p.Snapshot.Balance, tc.balance)
			}
		})
	}
}

// with is payload with key set to v.
func with(payload map[string]any, key string, v any) map[string]any {
	payload[key] = v
	return payload
}

// completedRefund is a refund payload as the server completes it: the
// refund nonce and the receiver authorizer's signature of amount.
func (p *payer) completedRefund(max, amount, nonce int64, authorizer *ecdsa.PrivateKey) map[string]any {
	v := p.voucher(TypeRefund, max)
	v["amount"] = big.NewInt(amount).String()
	v["refundNonce"] = big.NewInt(nonce).String()
	v["refundAuthorizerSignature"] = sign(p.e.t, p.e.dom.RefundDigest(p.id(), big.NewInt(nonce), big.NewInt(amount)), authorizer)
	return v
}

// operatorRefund is an operator's refund payload: no payer voucher, the
// receiver authorizer's signature of amount at nonce.
func (p *payer) operatorRefund(amount, nonce int64, authorizer *ecdsa.PrivateKey) map[string]any {
	v := p.voucher(TypeRefund, 0)
	delete(v, "voucher")
	v["amount"] = big.NewInt(amount).String()
	v["refundNonce"] = big.NewInt(nonce).String()
	v["refundAuthorizerSignature"] = sign(p.e.t, p.e.dom.RefundDigest(p.id(), big.NewInt(nonce), big.NewInt(amount)), authorizer)
	return v
}

func swapAccepted(req *x402.VerifyRequest, to *ecdsa.PrivateKey) *x402.VerifyRequest {
	req.PaymentPayload.Accepted.Extra.ReceiverAuthorizer = crypto.PubkeyToAddress(to.PublicKey).Hex()
	return req
}

func swapPayTo(req *x402.VerifyRequest, to common.Address) *x402.VerifyRequest {
	req.PaymentPayload.Accepted.PayTo = to.Hex()
	return req
}

func onNetwork(r x402.PaymentRequirements, n string) x402.PaymentRequirements {
	r.Network = n
	return r
}

func withScheme(r x402.PaymentRequirements, s string) x402.PaymentRequirements {
	r.Scheme = s
	return r
}

func newKey(t *testing.T) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}
