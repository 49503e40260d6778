package client

import (
	"encoding/json"
	"errors"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/x402"
)

func offer(amount string) x402.PaymentRequirements {
	return x402.PaymentRequirements{
		Scheme: "exact", Network: "eip155:31337", Amount: amount,
		Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9", PayTo: "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
		MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "Devnet USD", Version: "1"},
	}
}

// server answers 402 until it sees a payment, then echoes the body it got
// with the payment.
func server(t *testing.T, offers ...x402.PaymentRequirements) (*httptest.Server, *[]x402.PaymentPayload) {
	var seen []x402.PaymentPayload
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := r.Header.Get(x402.HeaderPaymentSignature); h != "" {
			p, err := x402.DecodePaymentPayload(h)
			if err != nil {
				t.Errorf("payment does not decode: %v", err)
			}
			seen = append(seen, *p)
			io.Copy(w, r.Body)
			return
		}
		v, _ := x402.EncodeHeader(x402.PaymentRequired{X402Version: 2, Accepts: offers})
		w.Header().Set(x402.HeaderPaymentRequired, v)
		w.WriteHeader(http.StatusPaymentRequired)
	}))
	t.Cleanup(srv.Close)
	return srv, &seen
}

func TestPaysAndReplaysTheBody(t *testing.T) {
	t.Parallel()
	srv, seen := server(t, offer("10000"))
	key, _ := crypto.GenerateKey()
	c := &http.Client{Transport: &Transport{Key: key, MaxAmount: big.NewInt(10000)}}
	resp, err := c.Post(srv.URL, "text/plain", strings.NewReader("the order"))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "the order" || len(*seen) != 1 {
		t.Fatalf("body %q, %d payments", body, len(*seen))
	}
	var p x402.ExactPayload
	json.Unmarshal((*seen)[0].Payload, &p)
	if p.Authorization.From != crypto.PubkeyToAddress(key.PublicKey).Hex() || p.Authorization.Value != "10000" || len(p.Signature) != 132 {
		t.Fatalf("payload = %+v", p)
	}
}

func TestRefusesOffers(t *testing.T) {
	t.Parallel()
	key, _ := crypto.GenerateKey()
	noDomain := offer("1")
	noDomain.Extra = nil
	otherScheme := offer("1")
	otherScheme.Scheme = "aa-native"
	tests := []struct {
		name   string
		offers []x402.PaymentRequirements
		tr     Transport
	}{
		{"over the limit", []x402.PaymentRequirements{offer("10001")}, Transport{MaxAmount: big.NewInt(10000)}},
		{"no EIP-712 domain", []x402.PaymentRequirements{noDomain}, Transport{MaxAmount: big.NewInt(10)}},
		{"unsupported scheme", []x402.PaymentRequirements{otherScheme}, Transport{MaxAmount: big.NewInt(10)}},
		{"asset not allowed", []x402.PaymentRequirements{offer("1")}, Transport{MaxAmount: big.NewInt(10), Assets: []string{"0x0000000000000000000000000000000000000001"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, seen := server(t, tc.offers...)
			tr := tc.tr
			tr.Key = key
			_, err := (&http.Client{Transport: &tr}).Get(srv.URL)
			if !errors.Is(err, ErrNoAcceptableOffer) || len(*seen) != 0 {
				t.Fatalf("err = %v, %d payments", err, len(*seen))
			}
		})
	}
	if _, err := (&http.Client{Transport: &Transport{}}).Get("http://127.0.0.1:1"); err == nil {
		t.Fatal("a transport without a key or limit worked")
	}
}
