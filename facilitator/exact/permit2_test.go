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
	if err := signedBy(Permit2Digest(chainID, p), p.Signature, from, "signature"); err != nil {
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
