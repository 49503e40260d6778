package caddymodule

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	coltracepb "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// otlpReceiver is an in-process OTLP/HTTP trace receiver (protobuf at
// /v1/traces). It keeps every span it is sent, and every raw request body.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []*tracepb.Span
	bodies  [][]byte
	changed chan struct{} // signalled after each export
}

func (o *otlpReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/traces" {
		http.Error(w, "not an OTLP trace export", http.StatusNotFound)
		return
	}
	var body io.Reader = r.Body
	if r.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		body = zr
	}
	raw, err := io.ReadAll(body)
	var req coltracepb.ExportTraceServiceRequest
	if err == nil {
		err = proto.Unmarshal(raw, &req)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	o.mu.Lock()
	o.bodies = append(o.bodies, raw)
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			o.spans = append(o.spans, ss.Spans...)
		}
	}
	o.mu.Unlock()
	select {
	case o.changed <- struct{}{}:
	default:
	}
	out, _ := proto.Marshal(&coltracepb.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(out)
}

// snapshot returns the spans received so far.
func (o *otlpReceiver) snapshot() *spanSet {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := &spanSet{byID: map[string]*tracepb.Span{}}
	for _, sp := range o.spans {
		s.all = append(s.all, sp)
		s.byID[hex.EncodeToString(sp.SpanId)] = sp
	}
	return s
}

// spanSet is a set of received spans, indexed by span ID.
type spanSet struct {
	all  []*tracepb.Span
	byID map[string]*tracepb.Span
}

func attr(sp *tracepb.Span, key string) string {
	for _, kv := range sp.Attributes {
		if kv.Key == key {
			return anyString(kv.Value)
		}
	}
	return ""
}

func anyString(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return fmt.Sprint(x.IntValue)
	case *commonpb.AnyValue_BoolValue:
		return fmt.Sprint(x.BoolValue)
	}
	return v.String()
}

func (s *spanSet) parent(sp *tracepb.Span) *tracepb.Span {
	if len(sp.ParentSpanId) == 0 {
		return nil
	}
	return s.byID[hex.EncodeToString(sp.ParentSpanId)]
}

// named returns the spans called name that match every key=value of want.
func (s *spanSet) named(name string, want map[string]string) []*tracepb.Span {
	var out []*tracepb.Span
next:
	for _, sp := range s.all {
		if sp.Name != name {
			continue
		}
		for k, v := range want {
			if attr(sp, k) != v {
				continue next
			}
		}
		out = append(out, sp)
	}
	return out
}

// one is the single span called name that matches want, or an error.
func (s *spanSet) one(name string, want map[string]string) (*tracepb.Span, error) {
	found := s.named(name, want)
	if len(found) != 1 {
		return nil, fmt.Errorf("%d spans %s with %v", len(found), name, want)
	}
	return found[0], nil
}

// child is the span called name whose parent is parent.
func (s *spanSet) child(parent *tracepb.Span, name string) (*tracepb.Span, error) {
	for _, sp := range s.all {
		if sp.Name == name && bytes.Equal(sp.ParentSpanId, parent.SpanId) {
			return sp, nil
		}
	}
	return nil, fmt.Errorf("no span %s under %s", name, parent.Name)
}

// server is the nearest server span above sp, checking that every span
// between them was received and is in sp's trace: sp descends from it.
func (s *spanSet) server(sp *tracepb.Span) (*tracepb.Span, error) {
	for p := s.parent(sp); ; p = s.parent(p) {
		switch {
		case p == nil:
			return nil, fmt.Errorf("%s has no server span above it (the chain of parents breaks)", sp.Name)
		case !bytes.Equal(p.TraceId, sp.TraceId):
			return nil, fmt.Errorf("%s and its ancestor %s are in different traces", sp.Name, p.Name)
		case p.Kind == tracepb.Span_SPAN_KIND_SERVER:
			return p, nil
		}
	}
}

const tracingCaddyfile = `{
	admin 127.0.0.1:{{admin}}
	log {
		output file {{logfile}}
		level INFO
	}
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		settler_key {env.X402_TRACE_SETTLER_KEY}
		paymaster_url http://127.0.0.1:{{paymaster}}
		paymaster_key {env.X402_TRACE_PAYMASTER_KEY}
		sponsor_url http://127.0.0.1:{{facilitator}}/sponsor
	}
}

http://:{{upstream}} {
	bind 127.0.0.1
	respond "paid content"
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	bind 127.0.0.1
	tracing {
		span api
	}
	handle /remote/* {
		x402 0.01 {
			pay_to {{merchant}}
			facilitator_url http://127.0.0.1:{{facilitator}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	handle /aa/* {
		x402 0.01 {
			pay_to {{merchant}}
			schemes aa-native
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
	handle /paid/* {
		x402 0.01 {
			pay_to {{merchant}}
		}
		reverse_proxy 127.0.0.1:{{upstream}}
	}
}

http://:{{facilitator}} {
	bind 127.0.0.1
	tracing {
		span facilitator
	}
	x402_facilitator
}

http://:{{paymaster}} {
	bind 127.0.0.1
	tracing {
		span paymaster
	}
	x402_paymaster {
		dev_key {{pmkey}}
		project demo {
			balance 100
		}
	}
}
`

// headerLog is a RoundTripper that keeps the PAYMENT-SIGNATURE of every
// request it sends.
type headerLog struct {
	mu      sync.Mutex
	headers []string
}

func (h *headerLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if v := r.Header.Get(x402.HeaderPaymentSignature); v != "" {
		h.mu.Lock()
		h.headers = append(h.headers, v)
		h.mu.Unlock()
	}
	return http.DefaultTransport.RoundTrip(r)
}

// secrets are the payment headers sent, the signatures in them, the
// paymaster API key and the settler key: nothing a span may hold.
func (h *headerLog) secrets(t *testing.T, keys ...string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	out := append([]string(nil), keys...)
	for _, v := range h.headers {
		out = append(out, v)
		p, err := x402.DecodePaymentPayload(v)
		if err != nil {
			t.Fatal(err)
		}
		var inner struct {
			Signature string `json:"signature"`
			UserOp    struct {
				Signature        string `json:"signature"`
				PaymasterAndData string `json:"paymasterAndData"`
			} `json:"userOp"`
		}
		json.Unmarshal(p.Payload, &inner)
		pad := strings.TrimPrefix(inner.UserOp.PaymasterAndData, "0x")
		out = append(out, inner.Signature, inner.UserOp.Signature, pad[max(0, len(pad)-130):])
	}
	return out
}

// TestTracing runs Caddy with the tracing directive on the paid API, the
// facilitator and the paymaster, exporting to an in-process OTLP receiver,
// and checks that payments are traced under Caddy's server spans: verify
// and settle on the paid route and in the facilitator (embedded, and
// remote through traceparent), sponsorship through the facilitator and the
// paymaster, and the aa-native bundle; and that no span holds a payment
// header, a signature or a key.
//
// Caddy's exporter is configured by OTEL_* environment variables, so this
// test sets them and cannot run in parallel.
func TestTracing(t *testing.T) {
	recv := &otlpReceiver{changed: make(chan struct{}, 1)}
	collector := httptest.NewServer(recv)
	defer collector.Close()
	t.Setenv("OTEL_TRACES_EXPORTER", "otlp")
	t.Setenv("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	t.Setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", collector.URL+"/v1/traces")
	t.Setenv("OTEL_BSP_SCHEDULE_DELAY", "20")
	t.Setenv("OTEL_PROPAGATORS", "tracecontext")

	settlerKey := mustKey(t, 8)
	settlerHex := fmt.Sprintf("%x", crypto.FromECDSA(settlerKey))
	t.Setenv("X402_TRACE_SETTLER_KEY", settlerHex)
	var raw [16]byte
	rand.Read(raw[:])
	pmKey := "pmk_trace_" + hex.EncodeToString(raw[:])
	t.Setenv("X402_TRACE_PAYMASTER_KEY", pmKey)

	// Six distinct ports: each listener is held until all are chosen.
	ports := map[string]int{}
	var held []net.Listener
	for _, name := range []string{"admin", "chain", "upstream", "api", "facilitator", "paymaster"} {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
		ports[name] = l.Addr().(*net.TCPAddr).Port
	}
	for _, l := range held {
		l.Close()
	}
	merchant := common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906") // test account #3
	cf := tracingCaddyfile
	for name, port := range ports {
		cf = strings.ReplaceAll(cf, "{{"+name+"}}", fmt.Sprint(port))
	}
	logFile := filepath.Join(t.TempDir(), "caddy.log")
	cf = strings.NewReplacer("{{merchant}}", merchant.Hex(), "{{logfile}}", logFile, "{{pmkey}}", pmKey).Replace(cf)
	cfgJSON, _, err := caddyconfig.GetAdapter("caddyfile").Adapt([]byte(cf), map[string]any{"filename": "tracing.Caddyfile"})
	if err != nil {
		t.Fatalf("adapting: %v", err)
	}
	if err := caddy.Load(cfgJSON, true); err != nil {
		t.Fatalf("loading: %v", err)
	}
	defer caddy.Stop()
	defer func() {
		if !t.Failed() {
			return
		}
		logs, _ := os.ReadFile(logFile)
		for _, line := range strings.Split(string(logs), "\n") {
			if strings.Contains(line, `"level":"warn"`) || strings.Contains(line, `"level":"error"`) {
				t.Log(line)
			}
		}
	}()

	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	e := &e2e{
		t: t, chainURL: fmt.Sprintf("http://127.0.0.1:%d", ports["chain"]), api: fmt.Sprintf("http://127.0.0.1:%d", ports["api"]),
		fac: fmt.Sprintf("http://127.0.0.1:%d", ports["facilitator"]), eth: eth,
		token: common.HexToAddress("0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9"), merchant: merchant,
	}
	sent := new(headerLog)
	pay := func(tr *client.Transport, path string) *x402.SettleResponse {
		t.Helper()
		tr.Base = sent
		resp, err := (&http.Client{Transport: tr}).Get(e.api + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		res, ok, err := client.Receipt(resp)
		if resp.StatusCode != http.StatusOK || !ok || err != nil || !res.Success || string(body) != "paid content" {
			t.Fatalf("%s: %d %q %+v %v", path, resp.StatusCode, body, res, err)
		}
		return res
	}

	// An unpaid request, a paid one (exact, embedded facilitator), one
	// through the remote facilitator, and an aa-native one sponsored
	// through the facilitator and the paymaster.
	if resp, _ := e.get("/paid/unpaid", ""); resp.StatusCode != http.StatusPaymentRequired {
		t.Fatalf("unpaid: %d", resp.StatusCode)
	}
	exact := pay(&client.Transport{Key: mustKey(t, 1), MaxAmount: big.NewInt(10_000)}, "/paid/report")
	remote := pay(&client.Transport{Key: mustKey(t, 2), MaxAmount: big.NewInt(10_000)}, "/remote/report")
	aaKey, _ := crypto.GenerateKey()
	e.send(1, e.token, contracts.NewDevUSD().PackTransfer(e.smartAccount(aaKey), big.NewInt(100_000)))
	aa := pay(e.aaTransport(aaKey), "/aa/report")

	payment := func(res *x402.SettleResponse) map[string]string {
		return map[string]string{
			"x402.scheme": res.Scheme, "x402.network": "eip155:31337", "x402.asset": e.token.Hex(),
			"x402.amount": "10000", "x402.pay_to": merchant.Hex(), "x402.payer": res.Payer,
		}
	}
	with := func(m map[string]string, kv ...string) map[string]string {
		out := map[string]string{}
		for k, v := range m {
			out[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			out[kv[i]] = kv[i+1]
		}
		return out
	}
	// check is everything this test expects of the spans; it returns what
	// is missing, so the test can wait for the exports to bring it.
	check := func(s *spanSet) error {
		// Every x402 span descends from a Caddy server span of its trace.
		for _, sp := range s.all {
			if strings.HasPrefix(sp.Name, "x402.") {
				if _, err := s.server(sp); err != nil {
					return err
				}
			}
		}
		// The unpaid request: its server span, and no x402 span under it.
		var unpaid *tracepb.Span
		for _, sp := range s.named("api", nil) {
			if strings.Contains(attr(sp, "url.path")+attr(sp, "http.target"), "/paid/unpaid") {
				unpaid = sp
			}
		}
		if unpaid == nil {
			return fmt.Errorf("no server span for the unpaid request")
		}
		for _, sp := range s.all {
			if strings.HasPrefix(sp.Name, "x402.") && bytes.Equal(sp.TraceId, unpaid.TraceId) {
				return fmt.Errorf("the unpaid request has a span %s", sp.Name)
			}
		}

		for _, p := range []struct {
			name string
			res  *x402.SettleResponse
		}{{"exact", exact}, {"remote", remote}, {"aa-native", aa}} {
			settle, err := s.one("x402.settle", with(payment(p.res), "x402.result", "settled", "x402.transaction", p.res.TransactionHash))
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			api, err := s.server(settle)
			if err != nil || api.Name != "api" || len(api.ParentSpanId) != 0 {
				return fmt.Errorf("%s: x402.settle is not under the API's root server span: %v", p.name, err)
			}
			verify, err := s.child(api, "x402.verify")
			if err != nil {
				return fmt.Errorf("%s: %w", p.name, err)
			}
			for k, v := range with(payment(p.res), "x402.result", "valid") {
				if got := attr(verify, k); got != v {
					return fmt.Errorf("%s: x402.verify %s = %q, want %q", p.name, k, got, v)
				}
			}
			// The facilitator's spans: under the paywall's, in process or
			// (remote) under the facilitator's server span, which is the
			// paywall's child through traceparent.
			for parent, name := range map[*tracepb.Span]string{verify: "x402.facilitator.verify", settle: "x402.facilitator.settle"} {
				if p.name == "remote" {
					if parent, err = s.child(parent, "facilitator"); err != nil {
						return fmt.Errorf("remote: %w", err)
					}
				}
				if _, err := s.child(parent, name); err != nil {
					return fmt.Errorf("%s: %w", p.name, err)
				}
			}
		}
		fs, err := s.one("x402.facilitator.settle", map[string]string{"x402.transaction": exact.TransactionHash})
		if err != nil {
			return err
		}
		// On a bbolt store the claim is the submit's store write, with the
		// signed transaction.
		for _, step := range []string{"x402.facilitator.submit", "x402.facilitator.receipt"} {
			if _, err := s.child(fs, step); err != nil {
				return fmt.Errorf("exact: %w", err)
			}
		}
		esubmit, _ := s.child(fs, "x402.facilitator.submit")
		for _, step := range []string{"x402.facilitator.estimate", "x402.facilitator.sign", "x402.facilitator.store", "x402.facilitator.send"} {
			if _, err := s.child(esubmit, step); err != nil {
				return fmt.Errorf("exact: %w", err)
			}
		}
		// aa-native: the bundle under the settlement's submit step, and
		// the sponsorship from the facilitator's /sponsor to the paymaster.
		fs, err = s.one("x402.facilitator.settle", map[string]string{"x402.transaction": aa.TransactionHash, "x402.user_op_hash": aa.UserOpHash})
		if err != nil {
			return err
		}
		submit, err := s.child(fs, "x402.facilitator.submit")
		if err != nil {
			return fmt.Errorf("aa-native: %w", err)
		}
		if _, err := s.child(submit, "x402.bundle"); err != nil {
			return fmt.Errorf("aa-native: %w", err)
		}
		pm, err := s.one("x402.paymaster.sponsor", map[string]string{"x402.result": "sponsored", "x402.paymaster.project": "demo"})
		if err != nil {
			return err
		}
		pmServer, err := s.server(pm)
		if err != nil || pmServer.Name != "paymaster" {
			return fmt.Errorf("x402.paymaster.sponsor is not under the paymaster's server span: %v", err)
		}
		sponsor := s.parent(pmServer)
		if sponsor == nil || sponsor.Name != "x402.facilitator.sponsor" || attr(sponsor, "x402.user_op_hash") != attr(pm, "x402.user_op_hash") || attr(sponsor, "x402.result") != "sponsored" {
			return fmt.Errorf("the paymaster's server span is not under the facilitator's x402.facilitator.sponsor")
		}
		if fac, err := s.server(sponsor); err != nil || fac.Name != "facilitator" {
			return fmt.Errorf("x402.facilitator.sponsor is not under the facilitator's server span: %v", err)
		}
		return nil
	}

	deadline := time.After(30 * time.Second)
	for {
		err := check(recv.snapshot())
		if err == nil {
			break
		}
		select {
		case <-recv.changed:
		case <-deadline:
			for _, sp := range recv.snapshot().all {
				var kv []string
				for _, a := range sp.Attributes {
					kv = append(kv, a.Key+"="+anyString(a.Value))
				}
				t.Logf("trace %x span %x parent %x: %s %v %s", sp.TraceId, sp.SpanId, sp.ParentSpanId, sp.Name, sp.Status, strings.Join(kv, " "))
			}
			t.Fatalf("spans: %v", err)
		}
	}

	// Nothing secret in any span, event or link, nor anywhere in the
	// exports.
	if n := len(sent.headers); n != 3 {
		t.Fatalf("%d payments sent, want 3", n)
	}
	secrets := sent.secrets(t, pmKey, settlerHex)
	recv.mu.Lock()
	defer recv.mu.Unlock()
	for _, body := range recv.bodies {
		lower := bytes.ToLower(body)
		for _, secret := range secrets {
			if secret = strings.ToLower(strings.TrimPrefix(secret, "0x")); len(secret) >= 16 && bytes.Contains(lower, []byte(secret)) {
				t.Errorf("an export holds a secret: %.24s…", secret)
			}
		}
	}
}
