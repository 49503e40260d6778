package exact

import (
	"encoding/json"
	"errors"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The digest verification computes by hand is the one a wallet signs with
// geth's EIP-712 implementation, and the key is unique per (from, nonce).
func TestPermit2DigestMatchesEIP712(t *testing.T) {
	t.Parallel()
	key, _ := crypto.GenerateKey()
	from := crypto.PubkeyToAddress(key.PublicKey)
	chainID := big.NewInt(31337)
	pt := contracts.Permit2Transfer{
		Token: common.HexToAddress("0x1111111111111111111111111111111111111111"), Amount: big.NewInt(10_000),
		Spender: ExactPermit2Proxy, Nonce: new(big.Int).Lsh(big.NewInt(7), 200), Deadline: big.NewInt(1_900_000_000),
		To: common.HexToAddress("0x2222222222222222222222222222222222222222"), ValidAfter: new(big.Int), ChainID: chainID,
	}
	sig, err := pt.Sign(Permit2, key)
	if err != nil {
		t.Fatal(err)
	}
	p := &Permit2Payment{From: from, Token: pt.Token, Amount: pt.Amount, Spender: pt.Spender, Nonce: pt.Nonce,
		Deadline: pt.Deadline, To: pt.To, ValidAfter: pt.ValidAfter}
	copy(p.Signature[:], sig)
	if err := new(Scheme).signedBy(Permit2Digest(chainID, p), p.Signature, from, "signature"); err != nil {
		t.Fatal(err)
	}
	q := *p
	q.Nonce = new(big.Int).Add(p.Nonce, big.NewInt(1))
	if p.Key(chainID) == q.Key(chainID) {
		t.Error("two nonces share a replay key")
	}
}

// A payload of any shape decodes to a payment or to an *x402.Error, never
// a panic or another error.
func FuzzDecodePermit2(f *testing.F) {
	f.Add([]byte(`{"signature":"0x111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111111b","permit2Authorization":{"from":"0x1111111111111111111111111111111111111111","permitted":{"token":"0x1111111111111111111111111111111111111111","amount":"1"},"spender":"0x402085c248EeA27D92E8b30b2C58ed07f9E20001","nonce":"1","deadline":"2","witness":{"to":"0x1111111111111111111111111111111111111111","validAfter":"0"}}}`),
		[]byte(`{"eip2612GasSponsoring":{"info":{"from":"0x1111111111111111111111111111111111111111","asset":"0x1111111111111111111111111111111111111111","spender":"0x000000000022D473030F116dDEE9F6B43aC78BA3","amount":"1","nonce":"0","deadline":"2","signature":"0x00","version":"1"}}}`))
	f.Add([]byte(`{"permit2Authorization":null}`), []byte(`null`))
	f.Add([]byte(`{"permit2Authorization":{"nonce":"115792089237316195423570985008687907853269984665640564039457584007913129639936"}}`), []byte(`{"eip2612GasSponsoring":{"info":{}}}`))
	f.Fuzz(func(t *testing.T, payload, extensions []byte) {
		p := &x402.PaymentPayload{Payload: json.RawMessage(payload)}
		if json.Valid(extensions) {
			p.Extensions = json.RawMessage(extensions)
		}
		pp, err := DecodePermit2(p)
		if err != nil {
			var xe *x402.Error
			if !errors.As(err, &xe) {
				t.Fatalf("error %v is not an *x402.Error", err)
			}
			return
		}
		_ = pp.Key(big.NewInt(1))
		_ = pp.PayloadHash()
		_ = pp.calldata(nil)
		_ = Permit2Digest(big.NewInt(1), pp)
	})
}

// carriedPayment is a payment whose settlement calls carriedBy reads.
func carriedPayment(upto bool, permit bool) *Permit2Payment {
	p := &Permit2Payment{
		From: common.HexToAddress("0x3333333333333333333333333333333333333333"), Token: common.HexToAddress("0x1111111111111111111111111111111111111111"),
		To: common.HexToAddress("0x2222222222222222222222222222222222222222"), Spender: ExactPermit2Proxy,
		Amount: big.NewInt(10_000), Nonce: new(big.Int).Lsh(big.NewInt(7), 200), Deadline: big.NewInt(1_900_000_000), ValidAfter: big.NewInt(5),
	}
	p.Signature[64] = 27
	if upto {
		p.Upto, p.Spender, p.Facilitator, p.Settle = true, UptoPermit2Proxy, common.HexToAddress("0x4444444444444444444444444444444444444444"), big.NewInt(7_000)
	}
	if permit {
		p.Permit = &EIP2612Permit{From: p.From, Asset: p.Token, Spender: Permit2, Amount: p.Amount, Nonce: new(big.Int), Deadline: p.Deadline}
	}
	return p
}

// A settlement call carries a payment only if it names the payment's
// every signed term: the payment's own call (settle or settleWithPermit,
// any amount settled of an upto maximum, another encoding of its
// signature) does; another owner, token, amount, nonce, deadline,
// recipient, validAfter or facilitator, the other proxy's call, or garbage
// does not.
func TestPermit2CarriedBy(t *testing.T) {
	t.Parallel()
	for _, upto := range []bool{false, true} {
		for _, permit := range []bool{false, true} {
			p := carriedPayment(upto, permit)
			for _, tc := range []struct {
				name string
				edit func(*Permit2Payment)
				want bool
			}{
				{"its own call", func(*Permit2Payment) {}, true},
				{"another signature encoding", func(q *Permit2Payment) { q.Signature[0] = 1 }, true},
				{"another owner", func(q *Permit2Payment) { q.From = common.Address{9} }, false},
				{"another token", func(q *Permit2Payment) { q.Token = common.Address{9} }, false},
				{"another amount", func(q *Permit2Payment) { q.Amount = big.NewInt(10_001) }, false},
				{"another nonce", func(q *Permit2Payment) { q.Nonce = new(big.Int).Add(q.Nonce, big.NewInt(1)) }, false},
				{"another deadline", func(q *Permit2Payment) { q.Deadline = big.NewInt(1_900_000_001) }, false},
				{"another recipient", func(q *Permit2Payment) { q.To = common.Address{9} }, false},
				{"another validAfter", func(q *Permit2Payment) { q.ValidAfter = big.NewInt(6) }, false},
				{"the other proxy's call", func(q *Permit2Payment) { q.Upto = !q.Upto }, false},
			} {
				q := *p
				tc.edit(&q)
				if upto {
					q.Settle = big.NewInt(3_000) // what is settled is Outcome's to judge
				}
				if got := p.carriedBy(q.calldata(nil)); got != tc.want {
					t.Errorf("upto %v, permit %v, %s: carriedBy = %v, want %v", upto, permit, tc.name, got, tc.want)
				}
			}
			if upto {
				q := *p
				q.Facilitator = common.Address{9}
				if p.carriedBy(q.calldata(nil)) {
					t.Errorf("permit %v: another facilitator's call carries the payment", permit)
				}
			}
			for _, garbage := range [][]byte{nil, {1, 2, 3}, p.calldata(nil)[:40], append(p.calldata(nil)[:4:4], make([]byte, 64)...)} {
				if p.carriedBy(garbage) {
					t.Errorf("upto %v: garbage %x carries the payment", upto, garbage)
				}
			}
		}
	}
}

// Calldata of any shape, sent to a proxy by anyone, is read without a
// panic, and carries the payment only if it is the payment's settlement.
func FuzzPermit2CarriedBy(f *testing.F) {
	for _, upto := range []bool{false, true} {
		for _, permit := range []bool{false, true} {
			f.Add(upto, carriedPayment(upto, permit).calldata(nil))
		}
	}
	f.Add(false, []byte{0x12, 0x34})
	f.Fuzz(func(t *testing.T, upto bool, data []byte) {
		p := carriedPayment(upto, false)
		carriedPayment(upto, true).carriedBy(data)
		if p.carriedBy(data) && len(data) < 4+4*32 {
			t.Fatalf("%x is too short to carry a payment", data)
		}
	})
}
