package paywall_test

import (
	"context"
	"encoding/json"
	"math/big"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// storeIDs is the paywall's index over a real store's PaymentIDs.
type storeIDs struct{ ids *store.PaymentIDs }

func (s storeIDs) Lookup(_ context.Context, scope, id string) (*paywall.PaymentIDEntry, error) {
	e, ok, err := s.ids.Lookup(scope, id, time.Now())
	if err != nil || !ok {
		return nil, err
	}
	return &paywall.PaymentIDEntry{Payment: e.Payment, Served: e.Served, Result: e.Result}, nil
}

func (s storeIDs) Bind(_ context.Context, scope, id string, payment [32]byte) (paywall.PaymentIDEntry, error) {
	e, err := s.ids.Bind(scope, id, payment, time.Now())
	return paywall.PaymentIDEntry{Payment: e.Payment, Served: e.Served, Result: e.Result}, err
}

func (s storeIDs) Serve(_ context.Context, scope, id string, payment [32]byte, result json.RawMessage) error {
	return s.ids.Serve(scope, id, payment, result)
}

func (s storeIDs) Release(_ context.Context, scope, id string, payment [32]byte) error {
	return s.ids.Release(scope, id, payment)
}

// withIdentifier names the payment of header id.
func withIdentifier(t *testing.T, header, id string) string {
	t.Helper()
	p, err := x402.DecodePaymentPayload(header)
	if err != nil {
		t.Fatal(err)
	}
	p.Extensions = json.RawMessage(`{"payment-identifier":{"info":{"required":false,"id":"` + id + `"}}}`)
	out, err := x402.EncodeHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestPaymentIdentifierInFlight: while a payment named by an identifier is
// in the protected handler, the same payment under it gets 503 (retry for
// the result) and another payment under it gets 409; once served, the same
// payment gets the original receipt and no content. The merchant is paid
// once and the handler runs once.
func TestPaymentIdentifierInFlight(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "ids.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kv, err := st.Bucket(store.PaymentIDBucket)
	if err != nil {
		t.Fatal(err)
	}
	release, reached := make(chan struct{}), make(chan struct{}, 4)
	runs := 0
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs++
		reached <- struct{}{}
		<-release
		io := `{"report":"paid content"}`
		w.Write([]byte(io))
	}), func(c *paywall.Config) { c.PaymentIDs = storeIDs{store.NewPaymentIDs(kv, time.Hour)} })

	// The 402 declares the extension, optional.
	resp, _ := do(t, srv.URL, "")
	pr, err := x402.DecodePaymentRequired(resp.Header.Get(x402.HeaderPaymentRequired))
	var ext map[string]struct {
		Info struct{ Required *bool } `json:"info"`
	}
	if err != nil || json.Unmarshal(pr.Extensions, &ext) != nil || ext["payment-identifier"].Info.Required == nil || *ext["payment-identifier"].Info.Required {
		t.Fatalf("402 extensions %s, %v", pr.Extensions, err)
	}

	const id = "order_0123456789abcdef"
	key := e.chain.Accounts[5].Key
	first := withIdentifier(t, e.paidHeader(key, e.offer), id)
	other := withIdentifier(t, e.paidHeader(key, e.offer), id)
	before := e.balance(e.merchant)
	type answer struct {
		resp *http.Response
		body string
	}
	done := make(chan answer, 1)
	go func() {
		resp, body := do(t, srv.URL, first)
		done <- answer{resp, body}
	}()
	<-reached // the first request is in the handler, its identifier bound

	tests := []struct {
		name   string
		header string
		status int
		want   string
	}{
		{"the same payment while in use", first, http.StatusServiceUnavailable, "retry"},
		{"another payment under the identifier", other, http.StatusConflict, `"error":"payment_identifier_conflict"`},
	}
	for _, tc := range tests {
		resp, body := do(t, srv.URL, tc.header)
		if resp.StatusCode != tc.status || !strings.Contains(body, tc.want) || resp.Header.Get("Content-Type") != "application/json" {
			t.Fatalf("%s: %d %q", tc.name, resp.StatusCode, body)
		}
	}
	close(release)
	a := <-done
	receipt, err := x402.DecodePaymentResponse(a.resp.Header.Get(x402.HeaderPaymentResponse))
	if a.resp.StatusCode != 200 || a.body != `{"report":"paid content"}` || err != nil || !receipt.Success {
		t.Fatalf("the first request: %d %q %v", a.resp.StatusCode, a.body, err)
	}

	// Served: the same payment under the identifier gets the original
	// receipt and no content; another payment still gets 409.
	resp, body := do(t, srv.URL, first)
	again, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse))
	if resp.StatusCode != http.StatusConflict || strings.Contains(body, "paid content") || !strings.Contains(body, `"replayed":true`) ||
		!strings.Contains(body, `"error":"`+paywall.PaymentIDReplayed+`"`) || err != nil || !again.Success || again.TransactionHash != receipt.TransactionHash {
		t.Fatalf("the same payment after it was served: %d %q %v", resp.StatusCode, body, err)
	}
	if resp, body := do(t, srv.URL, other); resp.StatusCode != http.StatusConflict {
		t.Fatalf("another payment after: %d %q", resp.StatusCode, body)
	}
	if runs != 1 {
		t.Fatalf("the handler ran %d times", runs)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
		t.Fatalf("the merchant got %s, want %d", got, price)
	}
}
