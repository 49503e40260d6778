package paywall_test

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// variant re-encodes a payment header: JSON re-indented, and (with
// rewriteV) the signature's v moved from 27/28 to 0/1. Both are the same
// payment to the token.
func variant(t *testing.T, header string, rewriteV bool) string {
	t.Helper()
	p, err := x402.DecodePaymentPayload(header)
	if err != nil {
		t.Fatal(err)
	}
	var ex x402.ExactPayload
	if err := json.Unmarshal(p.Payload, &ex); err != nil {
		t.Fatal(err)
	}
	if rewriteV {
		sig := hexutil.MustDecode(ex.Signature)
		if sig[64] >= 27 {
			sig[64] -= 27
		}
		ex.Signature = hexutil.Encode(sig)
	}
	p.Payload, _ = json.MarshalIndent(ex, "", "      ")
	raw, _ := json.MarshalIndent(p, " ", "\t")
	out := base64.StdEncoding.EncodeToString(raw) // as sent, indentation kept
	if out == header {
		t.Fatal("the variant is the same header")
	}
	return out
}

// slowBody is a request whose body the upstream reads (as reverse_proxy
// does) and which the test holds open: a request that has passed
// verification and is waiting on its own body.
type slowBody struct {
	pr   *io.PipeReader
	pw   *io.PipeWriter
	done chan struct{}
	resp *http.Response
	body string
}

func startSlow(t *testing.T, url, header string) *slowBody {
	t.Helper()
	pr, pw := io.Pipe()
	s := &slowBody{pr: pr, pw: pw, done: make(chan struct{})}
	req, _ := http.NewRequest(http.MethodPost, url, pr)
	req.Header.Set(x402.HeaderPaymentSignature, header)
	go func() {
		defer close(s.done)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		s.resp, s.body = resp, string(b)
	}()
	return s
}

func (s *slowBody) finish() { s.pw.Close(); <-s.done }

// readsBody is an upstream that reads its request body before answering,
// and says when a request has reached it.
func readsBody(reached chan<- struct{}) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached <- struct{}{}
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, `{"report":"paid content"}`)
	})
}

// One payment, two requests: B presents a re-serialized copy of A's
// payment and holds its body open; A then pays normally. Exactly one of
// them is served, and the token moves once. On one paywall the payment's
// identity locks it; on two paywalls sharing one facilitator (replicas),
// the facilitator hands the receipt to the settle that owns it only.
func TestOnePaymentOneResponse(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		rewriteV  bool
		twoGuards bool
	}{
		{"re-indented JSON, one paywall", false, false},
		{"v rewritten to 0/1, one paywall", true, false},
		{"re-indented JSON, two paywalls", false, true},
		{"v rewritten to 0/1, two paywalls", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			reached := make(chan struct{}, 2)
			srvB := e.serve(readsBody(reached), nil)
			srvA := srvB
			if tc.twoGuards {
				srvA = e.serve(readsBody(reached), nil)
			}
			payer := e.fund(price)
			h := e.paidHeader(payer, e.offer)
			before := e.balance(e.merchant)

			b := startSlow(t, srvB.URL, variant(t, h, tc.rewriteV))
			<-reached // B verified and is in the upstream, reading its body
			respA, bodyA := do(t, srvA.URL, h)
			if tc.twoGuards {
				<-reached
			}
			b.finish()
			if b.resp == nil {
				t.Fatal("B got no answer")
			}
			served := 0
			for _, r := range []struct {
				code int
				body string
			}{{respA.StatusCode, bodyA}, {b.resp.StatusCode, b.body}} {
				switch {
				case r.code == http.StatusOK && strings.Contains(r.body, "paid content"):
					served++
				case strings.Contains(r.body, "paid content"):
					t.Errorf("paid content in a %d answer", r.code)
				case r.code != http.StatusPaymentRequired && r.code != http.StatusServiceUnavailable:
					t.Errorf("status %d: %s", r.code, r.body)
				}
			}
			if served != 1 {
				t.Fatalf("A %d, B %d: %d responses served for one payment", respA.StatusCode, b.resp.StatusCode, served)
			}
			if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
				t.Fatalf("merchant got %s, want %d", got, price)
			}
		})
	}
}

// Two merchant processes (separate paywalls, separate guards) share one
// remote facilitator over HTTP; 20 concurrent uses of one payment give
// exactly one 200 and one transfer.
func TestReplicasShareRemoteFacilitator(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	offers := new(facilitator.OfferSet)
	offers.Add(e.offer)
	facSrv := httptest.NewServer(&facilitator.Handler{Facilitator: e.fac, Network: e.offer.Network, Offers: offers})
	t.Cleanup(facSrv.Close)
	release := make(chan struct{})
	upstream := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-release
		io.WriteString(w, `{"report":"paid content"}`)
	})
	var replicas []*httptest.Server
	for range 2 {
		replicas = append(replicas, e.serve(upstream, func(c *paywall.Config) {
			c.Facilitator = &facilitator.Client{BaseURL: facSrv.URL}
		}))
	}
	h := e.paidHeader(e.fund(price), e.offer)
	before := e.balance(e.merchant)
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		codes  = map[int]int{}
		bodies []string
	)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hv := h
			if i%4 == 1 {
				hv = variant(t, h, i%8 == 1)
			}
			resp, body := do(t, replicas[i%2].URL, hv)
			mu.Lock()
			codes[resp.StatusCode]++
			if resp.StatusCode == 200 {
				bodies = append(bodies, body)
			}
			mu.Unlock()
		}()
	}
	close(release)
	wg.Wait()
	if codes[200] != 1 || codes[200]+codes[402]+codes[503] != 20 {
		t.Fatalf("statuses %v: want exactly one 200, the rest 402 or 503", codes)
	}
	if got := new(big.Int).Sub(e.balance(e.merchant), before); got.Int64() != price {
		t.Fatalf("merchant got %s, want %d", got, price)
	}
}

// A CORS preflight of a paid route is answered by the paywall, and never
// reaches the upstream, which would serve the paid body to it.
func TestPreflightIsAnsweredNotForwarded(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	calls := 0
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		report.ServeHTTP(w, r)
	}), nil)
	req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/paid/report", nil)
	req.Header.Set("Origin", "https://app.example")
	req.Header.Set("Access-Control-Request-Method", "GET")
	req.Header.Set("Access-Control-Request-Headers", "payment-signature")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || len(body) != 0 || calls != 0 {
		t.Fatalf("preflight: %d %q, upstream called %d times", resp.StatusCode, body, calls)
	}
	h := resp.Header
	if h.Get("Access-Control-Allow-Origin") != "*" || !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") ||
		!strings.Contains(strings.ToLower(h.Get("Access-Control-Allow-Headers")), "payment-signature") ||
		!strings.Contains(h.Get("Access-Control-Expose-Headers"), x402.HeaderPaymentResponse) {
		t.Fatalf("CORS headers: %v", h)
	}
	// A plain OPTIONS (not a preflight) is an ordinary request: unpaid, 402.
	req, _ = http.NewRequest(http.MethodOptions, srv.URL+"/paid/report", nil)
	resp, _ = http.DefaultClient.Do(req)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired || calls != 0 {
		t.Fatalf("plain OPTIONS: %d, upstream called %d times", resp.StatusCode, calls)
	}
}

// An upgrade (WebSocket) on a paid route is settled before the upstream
// takes the connection: a payer cannot move its tokens away mid-session
// and pay nothing.
func TestUpgradeSettlesFirst(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	var atUpgrade *big.Int
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		atUpgrade = e.balance(e.merchant)
		w.Header().Set("Upgrade", "websocket")
		w.Header().Set("Connection", "Upgrade")
		w.WriteHeader(http.StatusSwitchingProtocols)
		conn, brw, err := http.NewResponseController(w).Hijack()
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		brw.WriteString("session data")
		brw.Flush()
	}), nil)
	before := e.balance(e.merchant)
	h := e.paidHeader(e.fund(price), e.offer)

	u, _ := url.Parse(srv.URL)
	conn, err := net.Dial("tcp", u.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "GET /ws HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n%s: %s\r\n\r\n", u.Host, x402.HeaderPaymentSignature, h)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if atUpgrade == nil || new(big.Int).Sub(atUpgrade, before).Int64() != price {
		t.Fatalf("the upstream took the connection with the merchant's balance at %v (before %s): not settled first", atUpgrade, before)
	}
	if res, err := x402.DecodePaymentResponse(resp.Header.Get(x402.HeaderPaymentResponse)); err != nil || !res.Success {
		t.Fatalf("PAYMENT-RESPONSE on the 101: %+v %v", res, err)
	}
}

// The upstream never sees PAYMENT-SIGNATURE: it has no use for it, and an
// unsettled authorization must not reach the upstream's logs.
func TestUpstreamNeverSeesThePayment(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	seen := "unset"
	srv := e.serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Get(x402.HeaderPaymentSignature)
		report.ServeHTTP(w, r)
	}), nil)
	resp, _ := do(t, srv.URL, e.paidHeader(e.fund(price), e.offer))
	if resp.StatusCode != http.StatusOK || seen != "" {
		t.Fatalf("status %d; the upstream saw PAYMENT-SIGNATURE %q", resp.StatusCode, seen)
	}
}
