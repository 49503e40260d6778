package batchsettlement

import (
	"bytes"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// TestMerchantPayloads: the claim, operator's refund and sweep payloads
// the encoders write decode to what they were made of.
func TestMerchantPayloads(t *testing.T) {
	t.Parallel()
	cfg := batchsettle.ChannelConfig{
		Payer: common.Address{1}, PayerAuthorizer: common.Address{2}, Receiver: common.Address{3}, ReceiverAuthorizer: common.Address{4},
		Token: common.Address{5}, WithdrawDelay: big.NewInt(900), Salt: common.Hash{6},
	}
	sig := bytes.Repeat([]byte{7}, 65)
	rows := []batchsettle.VoucherClaim{
		{Voucher: batchsettle.X402BatchSettlementVoucher{Channel: cfg, MaxClaimableAmount: big.NewInt(500)}, Signature: sig, TotalClaimed: big.NewInt(400)},
		{Voucher: batchsettle.X402BatchSettlementVoucher{Channel: cfg, MaxClaimableAmount: big.NewInt(9)}, Signature: sig[:64], TotalClaimed: big.NewInt(9)},
	}
	sameRows := func(t *testing.T, got []batchsettle.VoucherClaim) {
		t.Helper()
		if len(got) != len(rows) {
			t.Fatalf("%d rows, want %d", len(got), len(rows))
		}
		for i, r := range got {
			w := rows[i]
			if r.Voucher.Channel.Salt != w.Voucher.Channel.Salt || r.Voucher.Channel.Payer != w.Voucher.Channel.Payer ||
				r.Voucher.Channel.WithdrawDelay.Cmp(w.Voucher.Channel.WithdrawDelay) != 0 || r.Voucher.MaxClaimableAmount.Cmp(w.Voucher.MaxClaimableAmount) != 0 ||
				r.TotalClaimed.Cmp(w.TotalClaimed) != 0 || !bytes.Equal(r.Signature, w.Signature) {
				t.Errorf("row %d: %+v, want %+v", i, r, w)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		raw   func() ([]byte, error)
		check func(t *testing.T, p *Payment)
	}{
		{"a claim", func() ([]byte, error) { return ClaimPayload(rows, sig) }, func(t *testing.T, p *Payment) {
			if p.Type != TypeClaim || !bytes.Equal(p.Claim.AuthorizerSig, sig) {
				t.Errorf("decoded %+v", p)
			}
			sameRows(t, p.Claim.Rows)
		}},
		{"an operator's refund with a claim", func() ([]byte, error) {
			return OperatorRefundPayload(cfg, big.NewInt(600), big.NewInt(3), sig, rows, sig)
		}, func(t *testing.T, p *Payment) {
			r := p.Refund
			if p.Type != TypeRefund || !r.Operator || r.Amount.Int64() != 600 || r.Nonce.Int64() != 3 || p.Config.Salt != cfg.Salt || p.Config.Receiver != cfg.Receiver {
				t.Errorf("decoded %+v, refund %+v", p, r)
			}
			sameRows(t, r.Claim.Rows)
		}},
		{"an operator's refund alone", func() ([]byte, error) {
			return OperatorRefundPayload(cfg, big.NewInt(600), big.NewInt(0), sig, nil, nil)
		}, func(t *testing.T, p *Payment) {
			if r := p.Refund; !r.Operator || r.Claim != nil || r.Nonce.Sign() != 0 {
				t.Errorf("decoded refund %+v", r)
			}
		}},
		{"a sweep", func() ([]byte, error) { return SweepPayload(cfg.Receiver, cfg.Token), nil }, func(t *testing.T, p *Payment) {
			if p.Sweep == nil || p.Sweep.Receiver != cfg.Receiver || p.Sweep.Token != cfg.Token {
				t.Errorf("decoded %+v", p.Sweep)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			raw, err := tc.raw()
			if err != nil {
				t.Fatal(err)
			}
			p, err := DecodePayload(raw)
			if err != nil {
				t.Fatalf("%s: %v", raw, err)
			}
			tc.check(t, p)
		})
	}
	if _, err := ClaimPayload(nil, sig); err == nil {
		t.Error("an empty claim was written")
	}
}
