package batchsettlement

import (
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The payloads of scheme_batch_settlement_evm.md's examples, with real
// hex where the spec has placeholders.
const (
	specConfig = `"channelConfig":{"payer":"0x1111111111111111111111111111111111111111","payerAuthorizer":"0x2222222222222222222222222222222222222222",` +
		`"receiver":"0x3333333333333333333333333333333333333333","receiverAuthorizer":"0x4444444444444444444444444444444444444444",` +
		`"token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","withdrawDelay":900,` +
		`"salt":"0x0000000000000000000000000000000000000000000000000000000000000000"}`
	specVoucher = `"voucher":{"channelId":"0xabc1230000000000000000000000000000000000000000000000000000000000","maxClaimableAmount":"5000","signature":"0x` +
		sig65 + `"}`
	sig65       = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1b"
	specDeposit = `{"type":"deposit",` + specConfig + `,` + specVoucher + `,"deposit":{"amount":"100000","authorization":{"erc3009Authorization":` +
		`{"validAfter":"0","validBefore":"1770000000","salt":"0x00000000000000000000000000000000000000000000000000000000000000ff","signature":"0x` + sig65 + `"}}}}`
	specPermit2 = `{"type":"deposit",` + specConfig + `,` + specVoucher + `,"deposit":{"amount":"100000","authorization":{"permit2Authorization":` +
		`{"from":"0x1111111111111111111111111111111111111111","permitted":{"token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","amount":"100000"},` +
		`"spender":"0x4020425FAf3B746C082C2f942b4E5159887B0005","nonce":"7","deadline":"1770000000",` +
		`"witness":{"channelId":"0xabc1230000000000000000000000000000000000000000000000000000000000"},"signature":"0x` + sig65 + `"}}}}`
	specVoucherPayload = `{"type":"voucher",` + specConfig + `,` + specVoucher + `}`
	specRefund         = `{"type":"refund",` + specConfig + `,` + specVoucher + `,"amount":"1500"}`
	specFullRefund     = `{"type":"refund",` + specConfig + `,` + specVoucher + `}`
	specClaim          = `{"type":"claim","claims":[{"voucher":{"channel":` + specChannel + `,"maxClaimableAmount":"5000"},"signature":"0x` + sig65 + `","totalClaimed":"5000"}],"claimAuthorizerSignature":"0x` + sig65 + `"}`
	specChannel        = `{"payer":"0x1111111111111111111111111111111111111111","payerAuthorizer":"0x2222222222222222222222222222222222222222",` +
		`"receiver":"0x3333333333333333333333333333333333333333","receiverAuthorizer":"0x4444444444444444444444444444444444444444",` +
		`"token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913","withdrawDelay":900,` +
		`"salt":"0x0000000000000000000000000000000000000000000000000000000000000000"}`
	specEnriched = `{"type":"refund",` + specConfig + `,` + specVoucher + `,"amount":"1500","refundNonce":"1","refundAuthorizerSignature":"0x` + sig65 +
		`","claims":[{"voucher":{"channel":` + specChannel + `,"maxClaimableAmount":"5000"},"signature":"0x` + sig65 + `","totalClaimed":"5000"}],"claimAuthorizerSignature":"0x` + sig65 + `"}`
	specOperator  = `{"type":"refund",` + specConfig + `,"amount":"1500","refundNonce":"1","refundAuthorizerSignature":"0x` + sig65 + `"}`
	specSweep     = `{"type":"settle","receiver":"0x3333333333333333333333333333333333333333","token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}`
	specCompleted = `{"type":"refund",` + specConfig + `,` + specVoucher + `,"amount":"1500","refundNonce":"1","refundAuthorizerSignature":"0x` + sig65 + `"}`
)

// TestDecodePayload: the spec's payloads decode to their values, and each
// malformed field is refused with its payload type's code.
func TestDecodePayload(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, payload string
		want          Code
		check         func(t *testing.T, p *Payment)
	}{
		{"the spec's deposit", specDeposit, "", func(t *testing.T, p *Payment) {
			if p.Type != TypeDeposit || p.Deposit.Amount.Int64() != 100000 || p.Deposit.ERC3009.Salt.Int64() != 255 ||
				p.Deposit.ERC3009.ValidBefore.Int64() != 1770000000 || p.Config.WithdrawDelay.Int64() != 900 || p.MaxClaimable.Int64() != 5000 {
				t.Errorf("decoded %+v, deposit %+v", p, p.Deposit)
			}
		}},
		{"a Permit2 deposit", specPermit2, "", func(t *testing.T, p *Payment) {
			if a := p.Deposit.Permit2; a == nil || a.Nonce.Int64() != 7 || a.Witness != common.HexToHash("0xabc123"+strings.Repeat("0", 58)) {
				t.Errorf("decoded permit %+v", a)
			}
		}},
		{"the spec's voucher", specVoucherPayload, "", func(t *testing.T, p *Payment) {
			if p.Type != TypeVoucher || p.Deposit != nil || p.Refund != nil || len(p.Signature) != 65 ||
				p.Config.Token != common.HexToAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913") {
				t.Errorf("decoded %+v", p)
			}
		}},
		{"the spec's refund", specRefund, "", func(t *testing.T, p *Payment) {
			if p.Refund == nil || p.Refund.Amount.Int64() != 1500 || p.Refund.Nonce != nil {
				t.Errorf("decoded refund %+v", p.Refund)
			}
		}},
		{"a full refund", specFullRefund, "", func(t *testing.T, p *Payment) {
			if p.Refund == nil || p.Refund.Amount != nil {
				t.Errorf("decoded refund %+v", p.Refund)
			}
		}},
		{"an operator's refund", specOperator, "", func(t *testing.T, p *Payment) {
			if !p.Refund.Operator || p.Refund.Nonce.Int64() != 1 || p.Refund.Amount.Int64() != 1500 || len(p.Signature) != 65 || p.MaxClaimable.Sign() != 0 {
				t.Errorf("decoded refund %+v", p.Refund)
			}
		}},
		{"a refund with neither voucher nor the authorizer's signature", `{"type":"refund",` + specConfig + `,"amount":"1500"}`, CodeRefundPayload, nil},
		{"an operator's refund with no nonce", `{"type":"refund",` + specConfig + `,"amount":"1500","refundAuthorizerSignature":"0x` + sig65 + `"}`, CodeRefundPayload, nil},
		{"the spec's settle", specSweep, "", func(t *testing.T, p *Payment) {
			if p.Type != TypeSettle || p.Sweep == nil || p.Sweep.Receiver != common.HexToAddress("0x3333333333333333333333333333333333333333") || p.Config.Token != p.Sweep.Token {
				t.Errorf("decoded sweep %+v", p.Sweep)
			}
		}},
		{"a settle with no receiver", `{"type":"settle","token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}`, CodeSweepPayload, nil},
		{"a settle to the zero address", `{"type":"settle","receiver":"0x0000000000000000000000000000000000000000","token":"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"}`, CodeSweepPayload, nil},
		{"a completed refund", specCompleted, "", func(t *testing.T, p *Payment) {
			if p.Refund.Nonce.Int64() != 1 || len(p.Refund.AuthorizerSig) != 65 {
				t.Errorf("decoded refund %+v", p.Refund)
			}
		}},
		{"a refund the server completed with its claim", specEnriched, "", func(t *testing.T, p *Payment) {
			if p.Refund == nil || p.Refund.Claim == nil || len(p.Refund.Claim.Rows) != 1 || len(p.Refund.Claim.AuthorizerSig) != 65 {
				t.Errorf("decoded refund %+v", p.Refund)
			}
		}},
		{"a refund's claim without its signature", strings.Replace(specEnriched, `,"claimAuthorizerSignature":"0x`+sig65+`"`, ``, 1), CodeRefundPayload, nil},
		{"the spec's claim", specClaim, "", func(t *testing.T, p *Payment) {
			if p.Type != TypeClaim || p.Claim == nil || len(p.Claim.Rows) != 1 || p.Claim.Rows[0].TotalClaimed.Int64() != 5000 ||
				p.Config.ReceiverAuthorizer != common.HexToAddress("0x4444444444444444444444444444444444444444") {
				t.Errorf("decoded claim %+v", p.Claim)
			}
		}},
		{"a claim of nothing", `{"type":"claim","claims":[],"claimAuthorizerSignature":"0x01"}`, CodeClaimPayload, nil},
		{"a claim without its authorizer's signature", strings.Replace(specClaim, `,"claimAuthorizerSignature":"0x`+sig65+`"`, ``, 1), CodeClaimPayload, nil},
		{"a claim row without a channel", `{"type":"claim","claims":[{"voucher":{"maxClaimableAmount":"1"},"signature":"0x01","totalClaimed":"1"}],"claimAuthorizerSignature":"0x01"}`, CodeClaimPayload, nil},
		{"not JSON", `{"type":`, CodePayloadType, nil},
		{"two objects", specVoucherPayload + `{}`, CodePayloadType, nil},
		{"an unknown type", strings.Replace(specVoucherPayload, `"voucher",`, `"sweep",`, 1), CodePayloadType, nil},
		{"no channel config", `{"type":"voucher",` + specVoucher + `}`, CodeVoucherPayload, nil},
		{"no voucher", `{"type":"voucher",` + specConfig + `}`, CodeVoucherPayload, nil},
		{"a short address", strings.Replace(specVoucherPayload, "0x3333333333333333333333333333333333333333", "0x3333", 1), CodeVoucherPayload, nil},
		{"a fractional delay", strings.Replace(specVoucherPayload, `"withdrawDelay":900`, `"withdrawDelay":900.5`, 1), CodeVoucherPayload, nil},
		{"a delay over 40 bits", strings.Replace(specVoucherPayload, `"withdrawDelay":900`, `"withdrawDelay":1099511627776`, 1), CodeVoucherPayload, nil},
		{"a delay that is no number", strings.Replace(specVoucherPayload, `"withdrawDelay":900`, `"withdrawDelay":"soon"`, 1), CodePayloadType, nil},
		{"a short salt", strings.Replace(specVoucherPayload, `"salt":"0x00000000`, `"salt":"0x000000`, 1), CodeVoucherPayload, nil},
		{"a ceiling over 128 bits", strings.Replace(specVoucherPayload, `"5000"`, `"340282366920938463463374607431768211456"`, 1), CodeVoucherPayload, nil},
		{"a negative ceiling", strings.Replace(specVoucherPayload, `"5000"`, `"-5"`, 1), CodeVoucherPayload, nil},
		{"no signature", strings.Replace(specVoucherPayload, `"0x`+sig65+`"`, `"0x"`, 1), CodeVoucherPayload, nil},
		{"a deposit without deposit", `{"type":"deposit",` + specConfig + `,` + specVoucher + `}`, CodeDepositPayload, nil},
		{"a deposit of zero", strings.Replace(specDeposit, `"amount":"100000"`, `"amount":"0"`, 1), CodeDepositPayload, nil},
		{"a deposit with no authorization", `{"type":"deposit",` + specConfig + `,` + specVoucher + `,"deposit":{"amount":"1","authorization":{}}}`, CodeDepositPayload, nil},
		{"a deposit with both authorizations", strings.Replace(specPermit2, `"authorization":{`, `"authorization":{"erc3009Authorization":{"validAfter":"0","validBefore":"1","salt":"0x01","signature":"0x01"},`, 1), CodeDepositPayload, nil},
		{"a refund of zero", strings.Replace(specRefund, `"1500"`, `"0"`, 1), CodeRefundAmountInvalid, nil},
		{"a refund signature without its nonce", strings.Replace(specCompleted, `"refundNonce":"1",`, ``, 1), CodeRefundPayload, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := DecodePayload([]byte(tc.payload))
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				tc.check(t, p)
				return
			}
			var r *Refusal
			if !errors.As(err, &r) || r.Code != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
			var xe *x402.Error
			if !errors.As(err, &xe) || !strings.HasPrefix(xe.Message, string(tc.want)+": ") {
				t.Errorf("the refusal does not unwrap to an x402.Error that names its code: %v", err)
			}
		})
	}
}

// FuzzDecodePayload: any input decodes or is refused with a Refusal, never
// a panic, and what decodes is within the contract's types.
func FuzzDecodePayload(f *testing.F) {
	for _, s := range []string{specDeposit, specPermit2, specVoucherPayload, specRefund, specFullRefund, specCompleted, specClaim, specEnriched, specOperator, specSweep, `{}`, `null`, `[]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := DecodePayload(data)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("not a Refusal: %v", err)
			}
			if _, ok := reasons[r.Code]; !ok {
				t.Fatalf("a code with no reason: %s", r.Code)
			}
			return
		}
		if p.MaxClaimable.Cmp(maxUint128) > 0 || p.MaxClaimable.Sign() < 0 || !p.Config.WithdrawDelay.IsUint64() ||
			p.Config.WithdrawDelay.Uint64() >= 1<<40 || (len(p.Signature) == 0) != (p.Sweep != nil) {
			t.Fatalf("decoded out of range: %+v", p)
		}
		if (p.Type == TypeDeposit) != (p.Deposit != nil) || (p.Type == TypeRefund) != (p.Refund != nil) || (p.Type == TypeClaim) != (p.Claim != nil) ||
			(p.Type == TypeSettle) != (p.Sweep != nil) {
			t.Fatalf("type %s with deposit %v and refund %v", p.Type, p.Deposit, p.Refund)
		}
		if d := p.Deposit; d != nil && ((d.ERC3009 == nil) == (d.Permit2 == nil) || d.Amount.Sign() <= 0 || d.Amount.Cmp(maxUint128) > 0) {
			t.Fatalf("deposit %+v", d)
		}
	})
}

// FuzzDecode: the scheme's Decode of any payload under the spec's offer
// returns a payment or an error, never a panic, and a payment keyed and
// hashed.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{specDeposit, specPermit2, specVoucherPayload, specRefund, specCompleted, specClaim, specEnriched, specOperator, specSweep} {
		f.Add([]byte(s), "100")
	}
	s, err := New(Config{ChainID: big.NewInt(8453), Chain: noChain{}, Assets: []Asset{{Address: common.HexToAddress("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913"), Name: "USD Coin", Version: "2"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, payload []byte, amount string) {
		req := &x402.VerifyRequest{
			PaymentPayload:      x402.PaymentPayload{X402Version: x402.Version, Payload: payload},
			PaymentRequirements: x402.PaymentRequirements{Scheme: x402.SchemeBatchSettlement, Network: "eip155:8453", Amount: amount},
		}
		pay, err := s.Decode(req)
		if err != nil {
			return
		}
		if pay.Key == (common.Hash{}) || pay.Hash == (common.Hash{}) || pay.Amount == nil {
			t.Fatalf("payment %+v", pay)
		}
		if _, ok := pay.Mechanism.(*Payment); !ok {
			t.Fatalf("mechanism %T", pay.Mechanism)
		}
		_ = s.Settlement(pay)
	})
}

// noChain is the chain of a scheme that only decodes: Decode reads none,
// and a read would fail the fuzz test loudly.
type noChain struct{}

func (noChain) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	panic("Decode read the chain")
}

func (noChain) CodeAt(context.Context, common.Address, *big.Int) ([]byte, error) {
	panic("Decode read the chain")
}
