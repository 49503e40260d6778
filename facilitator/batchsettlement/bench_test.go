package batchsettlement

import (
	"context"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/x402"
)

// BenchmarkVerifyVoucherOffline is the CPU of a voucher's verification
// without the chain, as a server with a fresh mirror of the channel runs
// it for a plain EOA voucher: the offer, the channel config (rules 1 to 5:
// the channel id's EIP-712 hash) and the voucher's signature (rule 6: its
// digest and one ecrecover). Compare exact's BenchmarkVerifyOffline.
func BenchmarkVerifyVoucherOffline(b *testing.B) {
	s, err := New(Config{ChainID: big.NewInt(31337), Chain: noChain{}, Assets: []Asset{{Address: common.Address{5}, Name: "USD Coin", Version: "2"}}})
	if err != nil {
		b.Fatal(err)
	}
	key, _ := crypto.GenerateKey()
	payer := crypto.PubkeyToAddress(key.PublicKey)
	cfg := batchsettle.ChannelConfig{
		Payer: payer, PayerAuthorizer: payer, Receiver: common.Address{3}, ReceiverAuthorizer: common.Address{4},
		Token: common.Address{5}, WithdrawDelay: big.NewInt(900),
	}
	id := s.dom.ChannelID(cfg)
	sig, _ := batchsettle.Sign(s.dom.VoucherDigest(id, big.NewInt(5000)), key)
	p := &Payment{Type: TypeVoucher, Config: cfg, ChannelID: id, MaxClaimable: big.NewInt(5000), Signature: sig}
	req := &x402.VerifyRequest{PaymentRequirements: x402.PaymentRequirements{
		Scheme: x402.SchemeBatchSettlement, Network: "eip155:31337", Amount: "100", Asset: cfg.Token.Hex(), PayTo: cfg.Receiver.Hex(),
		Extra: &x402.Extra{ReceiverAuthorizer: cfg.ReceiverAuthorizer.Hex(), WithdrawDelay: 900},
	}}
	req.PaymentPayload.Accepted = req.PaymentRequirements
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.checkOffer(req); err != nil {
			b.Fatal(err)
		}
		if err := s.checkConfig(p, &req.PaymentRequirements); err != nil {
			b.Fatal(err)
		}
		if err := s.checkVoucherSignature(ctx, p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeVoucher is the decoding of a voucher payload.
func BenchmarkDecodeVoucher(b *testing.B) {
	data := []byte(specVoucherPayload)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodePayload(data); err != nil {
			b.Fatal(err)
		}
	}
}
