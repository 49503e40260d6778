package facilitator

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// testScheme is a payment scheme the facilitator's core has never heard
// of: its payload names a payer and a nonce, its Verify refuses every
// payment with refuse (a payer that took its funds back, say), and it
// touches no chain.
type testScheme struct {
	name   string
	refuse error
}

// Name is the scheme's name, which nothing in the core spells.
func (f *testScheme) Name() string { return f.name }

// Decode reads {"payer", "nonce"}.
func (f *testScheme) Decode(req *x402.VerifyRequest) (*scheme.Payment, error) {
	var p struct {
		Payer string `json:"payer"`
		Nonce string `json:"nonce"`
	}
	if err := json.Unmarshal(req.PaymentPayload.Payload, &p); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "%v", err)
	}
	r := &req.PaymentRequirements
	payer := common.HexToAddress(p.Payer)
	asset, _ := x402.ParseAddress(r.Asset)
	payTo, _ := x402.ParseAddress(r.PayTo)
	amount, _ := x402.ParseAmount(r.Amount)
	key := crypto.Keccak256Hash([]byte(f.name), payer[:], []byte(p.Nonce))
	return &scheme.Payment{
		Key: key, Hash: crypto.Keccak256Hash(key[:], scheme.RequirementsHash(r).Bytes()),
		Payer: payer, PayTo: common.Address(payTo), Asset: common.Address(asset), Amount: amount,
	}, nil
}

// Verify refuses with refuse.
func (f *testScheme) Verify(context.Context, *scheme.Payment, *x402.VerifyRequest) error {
	return f.refuse
}

// Settlement would be a plain call to payTo; no test sends it.
func (f *testScheme) Settlement(pay *scheme.Payment) scheme.Settlement {
	return scheme.Settlement{To: pay.PayTo}
}

// Outcome counts any mined settlement as paid.
func (f *testScheme) Outcome(*store.Record, *types.Receipt) scheme.Outcome {
	return scheme.Outcome{Verdict: scheme.Paid}
}

// deferredScheme is testScheme declaring that it settles after serving
// and that only a caller with a credential may settle it.
type deferredScheme struct{ testScheme }

// Withdrawn counts every refusal at settle as the payer's withdrawal.
func (d *deferredScheme) Withdrawn(err error) bool { return err != nil }

// CredentialReason is why an anonymous settle is refused.
func (d *deferredScheme) CredentialReason() string {
	return "only the test's merchant knows what is owed"
}

var (
	_ scheme.Scheme       = (*testScheme)(nil)
	_ scheme.Deferred     = (*deferredScheme)(nil)
	_ scheme.Credentialed = (*deferredScheme)(nil)
)

// register puts sch in the service's scheme table in force, as a
// configuration that named it would have.
func (e *env) register(sch scheme.Scheme) {
	e.svc.tabMu.Lock()
	defer e.svc.tabMu.Unlock()
	old := e.svc.table()
	t := &schemeTable{assets: old.assets, byName: maps.Clone(old.byName), order: slices.Clone(old.order), sponsor: old.sponsor, tokens: old.tokens}
	t.register(sch)
	e.svc.tab.Store(t)
}

// A scheme registered in a test, whose name the core has never seen, gets
// the core's handling of what it declares it can do, and a scheme that
// declares nothing gets none of it: the handler refuses an anonymous
// settle of a Credentialed scheme although the server offers it (and
// takes the other scheme's, which its offers allow), and a Deferred
// scheme's payment refused at settle (its payer took back what it had
// promised after being served) puts its payer in the penalty box, while
// the other scheme's refused payment does not.
func TestSchemeCapabilities(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	refusal := x402.Invalid(x402.ReasonInvalidInnerPayload, "the test payer spent what it promised")
	for _, tc := range []struct {
		name     string
		sch      scheme.Scheme
		deferred bool // and credentialed
	}{
		{"metered-test", &deferredScheme{testScheme{name: "metered-test", refuse: refusal}}, true},
		{"flat-test", &testScheme{name: "flat-test", refuse: refusal}, false},
	} {
		e.register(tc.sch)
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var b [20]byte
			rand.Read(b[:])
			payer := common.Address(b)
			offer := e.requirements(e.chain.Accounts[2].Address, 1000)
			offer.Scheme, offer.Extra = tc.name, nil
			e.offers.Add(offer) // a paid route of the server offers it
			payload, _ := json.Marshal(map[string]string{"payer": payer.Hex(), "nonce": "1"})
			req := &x402.SettleRequest{
				X402Version:         x402.Version,
				PaymentPayload:      x402.PaymentPayload{X402Version: x402.Version, Accepted: offer, Payload: payload},
				PaymentRequirements: offer,
			}

			var sr x402.SettleResponse
			resp := e.postAs("", "", "settle", req, &sr)
			if tc.deferred {
				if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" ||
					!strings.Contains(sr.Message, tc.name) || !strings.Contains(sr.Message, "only the test's merchant knows") {
					t.Fatalf("an anonymous settle of a credentialed scheme: %d %+v", resp.StatusCode, sr)
				}
			} else if resp.StatusCode != http.StatusOK || sr.ErrorCode != x402.ErrorVerifyFailed {
				t.Fatalf("an anonymous settle of an offered scheme: %d %+v", resp.StatusCode, sr)
			}
			if _, boxed := e.svc.payers.refusedUntil(payer, time.Now()); boxed {
				t.Fatal("the payer is in the penalty box before any settle reached the service")
			}

			sr = x402.SettleResponse{}
			if resp := e.post("settle", req, &sr); resp.StatusCode != http.StatusOK || sr.Success || sr.ErrorCode != x402.ErrorVerifyFailed || sr.Scheme != tc.name {
				t.Fatalf("the merchant's settle of a refused payment: %d %+v", resp.StatusCode, sr)
			}
			if _, boxed := e.svc.payers.refusedUntil(payer, time.Now()); boxed != tc.deferred {
				t.Fatalf("after a refused settle the payer is in the penalty box: %v, want %v (deferred: %v)", boxed, tc.deferred, tc.deferred)
			}
		})
	}
}
