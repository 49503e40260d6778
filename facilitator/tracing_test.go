package facilitator

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/x402"
)

// spanLog records ended spans and signals each, so that a test can wait
// for a span that ends in the background (a bundle's) without sleeping.
type spanLog struct {
	mu      sync.Mutex
	spans   []sdktrace.ReadOnlySpan
	changed chan struct{}
}

func newSpanLog() (*spanLog, trace.Tracer) {
	l := &spanLog{changed: make(chan struct{}, 1)}
	return l, sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(l)).Tracer("test")
}

func (l *spanLog) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (l *spanLog) Shutdown(context.Context) error                  { return nil }
func (l *spanLog) ForceFlush(context.Context) error                { return nil }

func (l *spanLog) OnEnd(s sdktrace.ReadOnlySpan) {
	l.mu.Lock()
	l.spans = append(l.spans, s)
	l.mu.Unlock()
	select {
	case l.changed <- struct{}{}:
	default:
	}
}

// trace waits until the trace of root holds every span named in names,
// and returns the trace's spans by name.
func (l *spanLog) trace(t *testing.T, root trace.Span, names ...string) map[string][]sdktrace.ReadOnlySpan {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		byName := map[string][]sdktrace.ReadOnlySpan{}
		l.mu.Lock()
		for _, s := range l.spans {
			if s.SpanContext().TraceID() == root.SpanContext().TraceID() {
				byName[s.Name()] = append(byName[s.Name()], s)
			}
		}
		l.mu.Unlock()
		missing := ""
		for _, n := range names {
			if len(byName[n]) == 0 {
				missing = n
			}
		}
		if missing == "" {
			return byName
		}
		select {
		case <-l.changed:
		case <-deadline:
			t.Fatalf("no span %s in the trace; have %v", missing, byName)
		}
	}
}

func spanAttrs(s sdktrace.ReadOnlySpan) map[attribute.Key]string {
	m := map[attribute.Key]string{}
	for _, kv := range s.Attributes() {
		m[kv.Key] = kv.Value.Emit()
	}
	return m
}

// checkSpan checks a span's parent, attributes and status (an empty
// reason is a span that succeeded).
func checkSpan(t *testing.T, s sdktrace.ReadOnlySpan, parent trace.SpanContext, want map[attribute.Key]string, reason string) {
	t.Helper()
	if s.Parent().SpanID() != parent.SpanID() {
		t.Errorf("%s: parent %s, want %s", s.Name(), s.Parent().SpanID(), parent.SpanID())
	}
	got := spanAttrs(s)
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %s = %q, want %q", s.Name(), k, got[k], v)
		}
	}
	code := codes.Unset
	if reason != "" {
		code = codes.Error
	}
	if s.Status().Code != code || s.Status().Description != reason {
		t.Errorf("%s: status %v %q, want %v %q", s.Name(), s.Status().Code, s.Status().Description, code, reason)
	}
}

// noSecrets fails if any attribute or event of spans holds one of secrets.
func noSecrets(t *testing.T, spans map[string][]sdktrace.ReadOnlySpan, secrets ...string) {
	t.Helper()
	check := func(name string, kvs []attribute.KeyValue) {
		for _, kv := range kvs {
			v := strings.ToLower(kv.Value.Emit())
			for _, s := range secrets {
				if s = strings.ToLower(strings.TrimPrefix(s, "0x")); s != "" && strings.Contains(v, s) {
					t.Errorf("%s: %s holds a secret", name, kv.Key)
				}
			}
		}
	}
	for name, ss := range spans {
		for _, s := range ss {
			check(name, s.Attributes())
			for _, ev := range s.Events() {
				check(name+" event "+ev.Name, ev.Attributes)
			}
		}
	}
}

// lastHex is the last n bytes of a 0x hex string, in hex: the signature at
// the end of a paymasterAndData.
func lastHex(s string, n int) string {
	s = strings.TrimPrefix(s, "0x")
	return s[max(0, len(s)-2*n):]
}

func TestSpans(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	settlerKey := hexutil.Encode(crypto.FromECDSA(e.cfg.SettlerKey))

	t.Run("exact", func(t *testing.T) {
		log, tracer := newSpanLog()
		ctx, root := tracer.Start(context.Background(), "request")
		req := e.pay(e.chain.Accounts[1], merchant, 1_000)
		if res, err := e.svc.Verify(ctx, req); err != nil || !res.IsValid {
			t.Fatalf("verify: %+v %v", res, err)
		}
		res, _ := e.svc.Settle(ctx, req)
		if !res.Success {
			t.Fatalf("settle: %+v", res)
		}
		// Settled already: replay, with its codes.
		if again, _ := e.svc.Settle(ctx, req); again.Success {
			t.Fatalf("settled twice: %+v", again)
		}
		root.End()

		// On a store this process alone uses, an exact settle claims the
		// payment with its signed transaction: a store span inside submit,
		// not a claim span before it.
		spans := log.trace(t, root, spanVerify, spanSettle, spanSubmit, spanEstimate, spanSign, spanStore, spanSend, spanReceipt)
		offer := map[attribute.Key]string{
			"x402.scheme": "exact", "x402.network": e.network, "x402.asset": e.chain.Token.Address.Hex(),
			"x402.amount": "1000", "x402.pay_to": merchant.Hex(), "x402.payer": e.chain.Accounts[1].Address.Hex(),
		}
		with := func(extra map[attribute.Key]string) map[attribute.Key]string {
			m := map[attribute.Key]string{}
			for k, v := range offer {
				m[k] = v
			}
			for k, v := range extra {
				m[k] = v
			}
			return m
		}
		checkSpan(t, spans[spanVerify][0], root.SpanContext(), with(map[attribute.Key]string{"x402.result": "valid"}), "")
		if n := len(spans[spanSettle]); n != 2 {
			t.Fatalf("%d settle spans", n)
		}
		settle, replay := spans[spanSettle][0], spans[spanSettle][1]
		checkSpan(t, settle, root.SpanContext(), with(map[attribute.Key]string{"x402.result": "settled", "x402.transaction": res.TransactionHash}), "")
		checkSpan(t, replay, root.SpanContext(), with(map[attribute.Key]string{"x402.result": "failed", "x402.reason": "verify_failed", "x402.invalid_reason": "replay"}), "verify_failed")
		for _, name := range []string{spanSubmit, spanEstimate, spanSign, spanSend, spanReceipt} {
			if n := len(spans[name]); n != 1 {
				t.Fatalf("%d %s spans, want the first settle's", n, name)
			}
		}
		if n := len(spans[spanClaim]); n != 0 {
			t.Fatalf("%d claim spans; the claim is the submit's store write", n)
		}
		submit := spans[spanSubmit][0]
		checkSpan(t, submit, settle.SpanContext(), map[attribute.Key]string{"x402.transaction": res.TransactionHash}, "")
		for _, name := range []string{spanEstimate, spanSign, spanSend} {
			checkSpan(t, spans[name][0], submit.SpanContext(), nil, "")
		}
		if n := len(spans[spanStore]); n != 2 {
			t.Fatalf("%d store spans, want the claim with the transaction and the outcome", n)
		}
		checkSpan(t, spans[spanStore][0], submit.SpanContext(), map[attribute.Key]string{"x402.state": "claimed+submitted"}, "")
		checkSpan(t, spans[spanStore][1], spans[spanReceipt][0].SpanContext(), map[attribute.Key]string{"x402.state": "settled"}, "")
		checkSpan(t, spans[spanReceipt][0], settle.SpanContext(), map[attribute.Key]string{"x402.transaction": res.TransactionHash}, "")

		var payload x402.ExactPayload
		json.Unmarshal(req.PaymentPayload.Payload, &payload)
		noSecrets(t, spans, payload.Signature, settlerKey)
	})

	t.Run("aa-native", func(t *testing.T) {
		log, tracer := newSpanLog()
		ctx, root := tracer.Start(context.Background(), "request")
		req, aa := e.aaPay(e.chain.Accounts[1].Key, e.aaRequirements(merchant, 5_000))
		res, _ := e.svc.Settle(ctx, req)
		if !res.Success {
			t.Fatalf("settle: %+v", res)
		}
		root.End()

		spans := log.trace(t, root, spanSettle, spanClaim, spanSubmit, "x402.bundle", spanReceipt)
		settle, submit := spans[spanSettle][0], spans[spanSubmit][0]
		checkSpan(t, settle, root.SpanContext(), map[attribute.Key]string{
			"x402.scheme": "aa-native", "x402.result": "settled", "x402.transaction": res.TransactionHash, "x402.user_op_hash": res.UserOpHash,
		}, "")
		checkSpan(t, submit, settle.SpanContext(), map[attribute.Key]string{"x402.transaction": res.TransactionHash, "x402.user_op_hash": res.UserOpHash}, "")
		// The bundle is the bundler's, parented to the operation that
		// opened it.
		checkSpan(t, spans["x402.bundle"][0], submit.SpanContext(), map[attribute.Key]string{
			"x402.bundle.operations": "1", "x402.bundle.dropped": "0", "x402.transaction": res.TransactionHash, "x402.result": "sent",
		}, "")
		checkSpan(t, spans[spanReceipt][0], settle.SpanContext(), map[attribute.Key]string{"x402.transaction": res.TransactionHash}, "")
		noSecrets(t, spans, aa.UserOp.Signature, lastHex(aa.UserOp.PaymasterAndData, 65), settlerKey)
	})

	t.Run("sponsor", func(t *testing.T) {
		log, tracer := newSpanLog()
		ctx, root := tracer.Start(context.Background(), "request")
		sender := e.chain.Contracts.SmartAccounts[2]
		settleTo := func(to common.Address) string {
			var rh [32]byte
			rh[0] = 2
			return hexutil.Encode(contracts.NewSimpleAccount().PackExecuteBatch(
				[]common.Address{e.chain.Token.Address, e.chain.Contracts.Settlement},
				[][]byte{contracts.NewDevUSD().PackApprove(e.chain.Contracts.Settlement, big.NewInt(10)), contracts.NewX402Settlement().PackSettle(to, e.chain.Token.Address, big.NewInt(10), rh)},
			))
		}
		e.aaRequirements(merchant, 10)
		f := contracts.NewSimpleAccountFactory()
		op := x402.UserOperation{Sender: sender.Hex(), Nonce: "0x0", Signature: "0x", CallData: settleTo(merchant),
			InitCode: hexutil.Encode(append(e.chain.Contracts.AccountFactory.Bytes(), f.PackCreateAccount(e.chain.Accounts[2].Address, new(big.Int))...))}
		out, err := e.svc.SponsorOperation(ctx, op, x402.SponsorContext{}, "192.0.2.1")
		if err != nil {
			t.Fatal(err)
		}
		op.CallData = settleTo(e.chain.Accounts[9].Address) // pays no offer
		if _, err := e.svc.SponsorOperation(ctx, op, x402.SponsorContext{}, "192.0.2.1"); err == nil {
			t.Fatal("sponsored a payment to no merchant of the server")
		}
		root.End()

		spans := log.trace(t, root, spanSponsor)
		if n := len(spans[spanSponsor]); n != 2 {
			t.Fatalf("%d sponsor spans", n)
		}
		decoded, _ := contracts.UserOperationHex(out).Decode(false)
		hash := contracts.UserOpHash(decoded, e.chain.Contracts.EntryPoint, e.chain.ChainID)
		checkSpan(t, spans[spanSponsor][0], root.SpanContext(), map[attribute.Key]string{"x402.sender": sender.Hex(), "x402.result": "sponsored", "x402.user_op_hash": hash.Hex()}, "")
		checkSpan(t, spans[spanSponsor][1], root.SpanContext(), map[attribute.Key]string{"x402.result": "refused", "x402.reason": "-32602"}, "-32602")
		noSecrets(t, spans, lastHex(out.PaymasterAndData, 65), e.cfg.AANative.Sponsor.(*paymaster.Client).APIKey, "192.0.2.1")
	})
}

// The client passes the caller's trace on to a remote facilitator
// (W3C traceparent), and nothing without one.
func TestClientPropagatesTrace(t *testing.T) {
	t.Parallel()
	got := make(chan string, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got <- r.Header.Get("Traceparent")
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"isValid":true}`)
	}))
	defer srv.Close()
	c := &Client{BaseURL: srv.URL}
	_, tracer := newSpanLog()
	ctx, span := tracer.Start(context.Background(), "x402.verify")
	defer span.End()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want string
	}{
		{"with a span", ctx, fmt.Sprintf("00-%s-%s-01", span.SpanContext().TraceID(), span.SpanContext().SpanID())},
		{"without", context.Background(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := c.Verify(tc.ctx, &x402.VerifyRequest{}); err != nil {
				t.Fatal(err)
			}
			if h := <-got; h != tc.want {
				t.Fatalf("traceparent %q, want %q", h, tc.want)
			}
		})
	}
}
