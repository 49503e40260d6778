package paywall

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/caddy-x402/caddy-x402/x402"
)

// cutOffers are offers of the three shapes a 402 carries: a v1 client can
// pay the first, not the second (no v1 name) nor the third's network twice.
var cutOffers = []x402.PaymentRequirements{
	{Scheme: x402.SchemeExact, Network: "eip155:84532", Amount: "10000", Asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
		PayTo: "0x90F79bf6EB2c4f870365E785982E1f101E93b906", MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "USDC", Version: "2"}},
	{Scheme: x402.SchemeExact, Network: "eip155:31337", Amount: "10000", Asset: "0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9",
		PayTo: "0x90F79bf6EB2c4f870365E785982E1f101E93b906", MaxTimeoutSeconds: 60, Extra: &x402.Extra{Name: "Devnet USD", Version: "1"}},
}

// cutPaywalls are paywalls whose 402 is fixed: with offers v1 clients can
// pay and without, with a description that JSON escapes, a fixed
// resource, and the payment-identifier extension.
func cutPaywalls(t testing.TB) map[string]*Paywall {
	t.Helper()
	out := map[string]*Paywall{}
	for name, cfg := range map[string]Config{
		"v1 and v2":      {Accepts: cutOffers, Description: `weather <"&"> ☂`, MimeType: "application/json"},
		"v2 only":        {Accepts: cutOffers[1:]},
		"fixed resource": {Accepts: cutOffers, Resource: "mcp://tool/weather?x=<1>"},
		"payment ids":    {Accepts: cutOffers[:1], PaymentIDs: noIDs{}},
	} {
		cfg.Facilitator = noFacilitator{}
		p, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if p.challengeBytes == nil {
			t.Fatalf("%s: the 402 is not cut", name)
		}
		out[name] = p
	}
	return out
}

// render answers r's challenge with the cut bytes and by rendering it in
// full, for comparison.
func render(p *Paywall, r *http.Request, status int, msg string) (cut, full *httptest.ResponseRecorder) {
	cut, full = httptest.NewRecorder(), httptest.NewRecorder()
	p.challenge(cut, r, status, msg)
	saved := p.challengeBytes
	p.challengeBytes = nil
	p.challenge(full, r, status, msg)
	p.challengeBytes = saved
	return cut, full
}

// sameAnswer fails t unless the two answers are byte for byte the same.
func sameAnswer(t *testing.T, what string, cut, full *httptest.ResponseRecorder) {
	t.Helper()
	if cut.Code != full.Code || cut.Body.String() != full.Body.String() {
		t.Fatalf("%s: cut %d %q\nfull %d %q", what, cut.Code, cut.Body, full.Code, full.Body)
	}
	if !reflect.DeepEqual(cut.Header(), full.Header()) {
		t.Fatalf("%s: headers cut %q\nfull %q", what, cut.Header(), full.Header())
	}
}

// TestChallengeBytes: the 402 written from cut bytes is the 402 rendered
// in full, byte for byte, for URLs and messages that JSON escapes, v1 and
// v2 payments, and each status a challenge has.
func TestChallengeBytes(t *testing.T) {
	t.Parallel()
	// Paths and messages of each length modulo 3, and longer than the
	// 48 bytes base64Writer encodes at a time, so that every part of
	// the header starts at each place in a base64 group.
	targets := []string{"/report", "/report?city=paris&x=<script>", "/r%C3%A9sum%C3%A9?q=%E2%80%A8", "/a\"b",
		"/", "/a", "/ab", "/abc", "/" + strings.Repeat("long/", 30) + "end?q=" + strings.Repeat("x", 50)}
	msgs := []string{"", "payment_identifier_required", `bad "quote" <b>&</b>`, "line\nbreak\u2028\x7f", "\xff\xfe invalid utf-8",
		"a", "ab", "abc", strings.Repeat("long message ", 20)}
	for name, p := range cutPaywalls(t) {
		for _, target := range targets {
			for _, msg := range msgs {
				for _, v1 := range []bool{false, true} {
					for _, status := range []int{http.StatusPaymentRequired, http.StatusBadRequest} {
						r := httptest.NewRequest(http.MethodGet, "http://shop.example"+target, nil)
						r = r.WithContext(context.WithValue(r.Context(), v1Payment{}, v1))
						cut, full := render(p, r, status, msg)
						sameAnswer(t, name+" "+target+" "+msg, cut, full)
					}
				}
			}
		}
	}
}

// FuzzChallengeBytes: whatever the request's path and the message, the
// cut 402 is the rendered one.
func FuzzChallengeBytes(f *testing.F) {
	f.Add("/report?x=1", "")
	f.Add("/%E2%80%A9", "a <b> \"c\" \\d")
	f.Add("/x", "\x00\x1f\xc3\x28")
	ps := cutPaywalls(f)
	f.Fuzz(func(t *testing.T, path, msg string) {
		r, err := http.NewRequest(http.MethodGet, "http://shop.example/", nil)
		if err != nil {
			t.Skip()
		}
		r.URL.Path, r.URL.RawQuery = "/"+path, ""
		for name, p := range ps {
			cut, full := render(p, r, http.StatusPaymentRequired, msg)
			sameAnswer(t, name, cut, full)
		}
	})
}

// TestEncodedCut: a header encoded from its parts' base64 made ahead is
// the base64 of the joined JSON, whatever the lengths of the parts and of
// what goes into the holes (each length modulo 3, empty, and over the 48
// bytes encoded at a time).
func TestEncodedCut(t *testing.T) {
	t.Parallel()
	lengths := []int{0, 1, 2, 3, 4, 5, 47, 48, 49, 50, 100}
	tests := []struct {
		name  string
		holes []hole
	}{
		{"no hole", nil},
		{"url", []hole{holeURL}},
		{"error then url", []hole{holeError, holeURL}},
		{"url twice", []hole{holeURL, holeError, holeURL}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, partLen := range lengths {
				for _, urlLen := range lengths {
					for _, msgLen := range lengths[:5] {
						c := cutJSON{holes: tt.holes}
						for i := range len(tt.holes) + 1 {
							part := []byte(strings.Repeat(string(rune('a'+i)), partLen+i))
							c.parts, c.size = append(c.parts, part), c.size+len(part)
						}
						url, msg := strings.Repeat("u", urlLen), strings.Repeat("m", msgLen)
						checkEncoded(t, c, url, msg)
					}
				}
			}
		})
	}
}

// FuzzEncodedCut: for any parts and hole values, the header encoded from
// its parts' base64 made ahead is the base64 of the joined bytes.
func FuzzEncodedCut(f *testing.F) {
	f.Add([]byte("{\"url\":\""), []byte("\"}"), "http://x/y", "")
	f.Add([]byte("a"), []byte(""), "", "msg")
	f.Add([]byte(""), []byte("bc"), strings.Repeat("u", 49), "\x00\xff")
	f.Fuzz(func(t *testing.T, first, last []byte, url, msg string) {
		checkEncoded(t, cutJSON{parts: [][]byte{first, []byte(","), last}, holes: []hole{holeError, holeURL},
			size: len(first) + 1 + len(last)}, url, msg)
		checkEncoded(t, cutJSON{parts: [][]byte{first, last}, holes: []hole{holeURL}, size: len(first) + len(last)}, url, msg)
	})
}

// checkEncoded fails t unless c encoded ahead, with url and msg, is the
// standard base64 of c joined.
func checkEncoded(t *testing.T, c cutJSON, url, msg string) {
	t.Helper()
	want := base64.StdEncoding.EncodeToString(c.join(url, msg, 0))
	e := encodeCut(c)
	got, ok := e.encode(url, msg)
	if !ok || got != want {
		t.Fatalf("parts %q, url %q, msg %q: got %q (%v), want %q", c.parts, url, msg, got, ok, want)
	}
}

// noFacilitator refuses everything: the 402 tests call none.
type noFacilitator struct{}

func (noFacilitator) Verify(context.Context, *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return nil, errors.New("not called")
}

func (noFacilitator) Settle(context.Context, *x402.SettleRequest) (*x402.SettleResponse, error) {
	return nil, errors.New("not called")
}

// noIDs is an empty payment-identifier index: the 402 tests call none.
type noIDs struct{}

func (noIDs) Lookup(context.Context, string, string) (*PaymentIDEntry, error) { return nil, nil }
func (noIDs) Bind(context.Context, string, string, [32]byte) (PaymentIDEntry, error) {
	return PaymentIDEntry{}, errors.New("not called")
}
func (noIDs) Serve(context.Context, string, string, [32]byte, json.RawMessage) error { return nil }
func (noIDs) Release(context.Context, string, string, [32]byte) error                { return nil }

// BenchmarkChallengeBytes writes a route's 402 to a JSON client from the
// cut bytes and, for comparison in the same run, by rendering it in full.
func BenchmarkChallengeBytes(b *testing.B) {
	p := cutPaywalls(b)["v1 and v2"]
	r := httptest.NewRequest(http.MethodGet, "http://shop.example/report?city=paris", nil)
	w := &discardWriter{h: http.Header{}}
	for _, mode := range []string{"cut", "full"} {
		b.Run(mode, func(b *testing.B) {
			saved := p.challengeBytes
			if mode == "full" {
				p.challengeBytes = nil
			}
			defer func() { p.challengeBytes = saved }()
			b.ReportAllocs()
			for b.Loop() {
				clear(w.h)
				p.challenge(w, r, http.StatusPaymentRequired, "")
			}
		})
	}
}

// discardWriter is a ResponseWriter that keeps only its header.
type discardWriter struct{ h http.Header }

func (d *discardWriter) Header() http.Header         { return d.h }
func (d *discardWriter) Write(b []byte) (int, error) { return len(b), nil }
func (d *discardWriter) WriteHeader(int)             {}

// TestResourceURL: the resource URL built in one piece is the origin with
// its trailing slashes trimmed and the request URI, for hosts empty, with
// a port, ending in "/" or "/" alone, over TLS or not, and with the
// origin configured.
func TestResourceURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		origin, host, target string
		tls                  bool
	}{
		{host: "shop.example", target: "/report?city=paris"},
		{host: "shop.example:8443", target: "/r%C3%A9sum%C3%A9", tls: true},
		{host: "", target: "/x"},
		{host: "a/", target: "/x"},
		{host: "/", target: "/x"},
		{host: "[::1]:80", target: "/"},
		{origin: "https://shop.example/", host: "other.example", target: "/report"},
	}
	for _, tt := range tests {
		t.Run(tt.host+tt.target, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodGet, tt.target, nil)
			r.Host = tt.host
			if !tt.tls {
				r.TLS = nil
			}
			origin := tt.origin
			if origin == "" {
				origin = "http://" + r.Host
				if r.TLS != nil {
					origin = "https://" + r.Host
				}
			}
			want := strings.TrimRight(origin, "/") + r.URL.RequestURI()
			p := &Paywall{cfg: Config{Origin: tt.origin}}
			if got := p.resourceURL(r); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

// TestAnswerHeadersOwnValues: an unpaid request's answer owns the slices
// of its header values, so that a handler after the paywall rewriting
// them in place (as Caddy's header replacements do) changes no other
// answer, for a 402 written from cut bytes and one rendered in full.
func TestAnswerHeadersOwnValues(t *testing.T) {
	t.Parallel()
	pricer := func(*http.Request) (Quote, error) { return Quote{Amount: "10000"}, nil }
	for name, cfg := range map[string]Config{
		"cut":      {Accepts: cutOffers},
		"rendered": {Accepts: cutOffers, Pricer: pricer},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cfg.Facilitator = noFacilitator{}
			p, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			serve := func() http.Header {
				w := httptest.NewRecorder()
				r := httptest.NewRequest(http.MethodGet, "http://shop.example/report", nil)
				if err := p.ServeNext(w, r, func(http.ResponseWriter, *http.Request) error {
					t.Fatal("served unpaid")
					return nil
				}); err != nil {
					t.Fatal(err)
				}
				if w.Code != http.StatusPaymentRequired {
					t.Fatalf("status %d", w.Code)
				}
				return w.Header()
			}
			first := serve()
			want := first.Clone()
			for _, values := range first {
				for i := range values {
					values[i] = "rewritten"
				}
			}
			if got := serve(); !reflect.DeepEqual(got, want) {
				t.Fatalf("after the first answer's values were rewritten:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestRecentAnswers: a 402 answered from the recent answers is the one
// rendered in full for its own request, for requests that differ only in
// their host, their connection's TLS or their URI, more of them than the
// table has slots (so that they share slots and replace each other), each
// asked for three times in turns; a URL longer than maxRecentURL is not
// kept.
func TestRecentAnswers(t *testing.T) {
	t.Parallel()
	for name, p := range cutPaywalls(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var requests []*http.Request
			for i := range 3 * recentSlots {
				for _, host := range []string{"shop.example", "shop.example:8443"} {
					for _, tls := range []bool{false, true} {
						r := httptest.NewRequest(http.MethodGet, fmt.Sprintf("http://%s/report/%d?q=%d", host, i, i%3), nil)
						if !tls {
							r.TLS = nil
						}
						requests = append(requests, r)
					}
				}
			}
			for range 3 {
				for _, r := range requests {
					cut, full := render(p, r, http.StatusPaymentRequired, "")
					sameAnswer(t, r.Host+r.URL.String(), cut, full)
				}
			}
			long := httptest.NewRequest(http.MethodGet, "http://shop.example/"+strings.Repeat("x", maxRecentURL), nil)
			cut, full := render(p, long, http.StatusPaymentRequired, "")
			sameAnswer(t, "long", cut, full)
			key := answerKey{host: long.Host, uri: long.URL.RequestURI(), tls: long.TLS != nil}
			if p.challengeBytes.recent.get(key) != nil {
				t.Fatal("a URL longer than maxRecentURL was kept")
			}
		})
	}
}
