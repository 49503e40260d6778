package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
)

var secret = []byte("0123456789abcdef0123456789abcdef")

func space(t *testing.T) store.KV {
	t.Helper()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kv, err := st.Bucket(Space)
	if err != nil {
		t.Fatal(err)
	}
	return kv
}

// receiver is a merchant's server: it verifies every delivery's signature
// and answers with the statuses it is given, then 200.
type receiver struct {
	mu       sync.Mutex
	statuses []int
	got      []Event
	bad      []error
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if err := Verify(secret, r.Header.Get(SignatureHeader), body, time.Now(), DefaultTolerance); err != nil {
		rc.bad = append(rc.bad, err)
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil || r.Header.Get("X402-Webhook-Id") != ev.ID {
		rc.bad = append(rc.bad, errors.New("bad body or id header"))
	}
	status := http.StatusOK
	if len(rc.statuses) > 0 {
		status, rc.statuses = rc.statuses[0], rc.statuses[1:]
	}
	if status == http.StatusOK {
		rc.got = append(rc.got, ev)
	}
	w.WriteHeader(status)
}

func (rc *receiver) events() []Event {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]Event(nil), rc.got...)
}

// drain runs the senders until every delivery kept in kv is final.
func drain(t *testing.T, kv store.KV, senders ...*Sender) []Delivery {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for _, s := range senders {
		wg.Go(func() { s.Run(ctx, time.Millisecond) })
	}
	defer func() { cancel(); wg.Wait() }()
	for deadline := time.Now().Add(30 * time.Second); ; {
		list, err := List(kv, 1000)
		if err != nil {
			t.Fatal(err)
		}
		pending := false
		for _, d := range list {
			pending = pending || d.State == StatePending
		}
		if !pending {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("deliveries still pending: %+v", list)
		}
		time.Sleep(5 * time.Millisecond) // polling for the senders
	}
}

// event is the settled event of transaction n, as every replica makes it
// of the settlement's record: the same id and time.
func event(n string) Event {
	return Event{ID: EventID(EventSettled, "eip155:31337", n), Type: EventSettled, Time: t0, Network: "eip155:31337", Transaction: n, Amount: "10000"}
}

func TestDeliveries(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		statuses []int // the receiver's answers before 200
		attempts int
		want     string
	}{
		{"delivered at once", nil, 1, StateDelivered},
		{"retried after failures, then delivered", []int{500, 503}, 3, StateDelivered},
		{"given up after the attempts", []int{500, 500, 500, 500}, 3, StateFailed},
		{"a 3xx without a location is a failure", []int{304, 304, 304}, 3, StateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := &receiver{statuses: tc.statuses}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			kv := space(t)
			var mu sync.Mutex
			var final []Delivery
			s, err := New(Config{URL: srv.URL + "/hook?token=s3cret", Secret: secret, Store: kv, MaxAttempts: 3, Backoff: time.Millisecond,
				OnFinal: func(d Delivery) { mu.Lock(); final = append(final, d); mu.Unlock() }})
			if err != nil {
				t.Fatal(err)
			}
			ev := event("0xabc")
			for range 2 { // enqueued twice, kept once
				if err := s.Enqueue(ev); err != nil {
					t.Fatal(err)
				}
			}
			list := drain(t, kv, s)
			if len(list) != 1 || list[0].State != tc.want || list[0].Attempts != tc.attempts || list[0].Event.ID != ev.ID {
				t.Fatalf("deliveries: %+v", list)
			}
			if strings.Contains(list[0].Webhook, "s3cret") || strings.Contains(list[0].Error, "s3cret") {
				t.Errorf("the webhook's query is kept: %+v", list[0])
			}
			mu.Lock()
			defer mu.Unlock()
			if len(final) != 1 || final[0].State != tc.want {
				t.Errorf("OnFinal got %+v", final)
			}
			got := rc.events()
			if tc.want == StateDelivered && (len(got) != 1 || got[0].ID != ev.ID || got[0].Transaction != "0xabc") {
				t.Errorf("the receiver got %+v", got)
			}
			if len(rc.bad) > 0 {
				t.Errorf("the receiver refused: %v", rc.bad)
			}
		})
	}
}

// TestOneDeliveryAcrossReplicas runs three senders on one store, as the
// replicas of a fleet: every event is enqueued by each of them and POSTed
// once.
func TestOneDeliveryAcrossReplicas(t *testing.T) {
	t.Parallel()
	kv := space(t)
	oneDeliveryAcross(t, []store.KV{kv, kv, kv})
}

// TestOneDeliveryAcrossReplicasOnPostgres is the same with three
// connections to one PostgreSQL schema, as three Caddy replicas have.
func TestOneDeliveryAcrossReplicasOnPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t, "webhook deliveries shared by a fleet")
	schema := pgtest.Schema(t, url, "webhook")
	var kvs []store.KV
	for range 3 {
		st, err := postgres.Open(context.Background(), postgres.Config{URL: url, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		kv, err := st.Bucket(Space)
		if err != nil {
			t.Fatal(err)
		}
		kvs = append(kvs, kv)
	}
	oneDeliveryAcross(t, kvs)
}

func oneDeliveryAcross(t *testing.T, kvs []store.KV) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	var senders []*Sender
	for _, kv := range kvs {
		s, err := New(Config{URL: srv.URL, Secret: secret, Store: kv})
		if err != nil {
			t.Fatal(err)
		}
		senders = append(senders, s)
	}
	const n = 20
	for i := range n {
		for _, s := range senders {
			if err := s.Enqueue(event(strings.Repeat("a", i+1))); err != nil {
				t.Fatal(err)
			}
		}
	}
	list := drain(t, kvs[0], senders...)
	if len(list) != n || len(rc.events()) != n {
		t.Fatalf("%d deliveries, %d POSTed; want %d each", len(list), len(rc.events()), n)
	}
	seen := map[string]bool{}
	for _, e := range rc.events() {
		if seen[e.ID] {
			t.Errorf("event %s delivered twice", e.ID)
		}
		seen[e.ID] = true
	}
}

// TestDeliveriesSurviveARestart: a delivery kept by one process whose
// receiver was down is sent by the next process over the same store file.
func TestDeliveriesSurviveARestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	rc := &receiver{statuses: []int{503}}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	open := func() (*store.Store, store.KV) {
		st, err := store.Open(store.Config{Path: path})
		if err != nil {
			t.Fatal(err)
		}
		kv, err := st.Bucket(Space)
		if err != nil {
			t.Fatal(err)
		}
		return st, kv
	}
	st, kv := open()
	first, err := New(Config{URL: srv.URL, Secret: secret, Store: kv, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Enqueue(event("0xrestart")); err != nil {
		t.Fatal(err)
	}
	first.deliverDue(context.Background()) // answered 503: pending
	if list, _ := List(kv, 10); len(list) != 1 || list[0].State != StatePending || list[0].Attempts != 1 {
		t.Fatalf("before the restart: %+v", list)
	}
	st.Close()
	st, kv = open()
	defer st.Close()
	second, err := New(Config{URL: srv.URL, Secret: secret, Store: kv})
	if err != nil {
		t.Fatal(err)
	}
	if list := drain(t, kv, second); len(list) != 1 || list[0].State != StateDelivered || list[0].Attempts != 2 {
		t.Fatalf("after the restart: %+v", list)
	}
	if got := rc.events(); len(got) != 1 || got[0].Transaction != "0xrestart" {
		t.Errorf("the receiver got %+v", got)
	}
}

// TestRedirects: a redirect on the webhook's own host is followed, one to
// another host is not (the delivery fails without a request there).
func TestRedirects(t *testing.T) {
	t.Parallel()
	other := &receiver{}
	elsewhere := httptest.NewServer(other)
	defer elsewhere.Close()
	rc := &receiver{}
	mux := http.NewServeMux()
	mux.Handle("/final", rc)
	mux.HandleFunc("/same", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
	})
	mux.HandleFunc("/away", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.URL+"/", http.StatusTemporaryRedirect)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for _, tc := range []struct {
		path string
		want string
	}{{"/same", StateDelivered}, {"/away", StateFailed}} {
		kv := space(t)
		s, err := New(Config{URL: srv.URL + tc.path, Secret: secret, Store: kv, MaxAttempts: 1})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Enqueue(event("0x1")); err != nil {
			t.Fatal(err)
		}
		if list := drain(t, kv, s); len(list) != 1 || list[0].State != tc.want {
			t.Errorf("%s: %+v", tc.path, list)
		}
	}
	if len(other.events()) != 0 || len(other.bad) != 0 {
		t.Errorf("the other host was reached")
	}
	if len(rc.events()) != 1 {
		t.Errorf("the same-host redirect delivered %d", len(rc.events()))
	}
}

// TestSlowReceiver: a receiver that never answers is cut off by the
// timeout, and one that answers an endless body is read no further than
// maxResponse.
func TestSlowReceiver(t *testing.T) {
	t.Parallel()
	block := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		io.ReadAll(r.Body)
		select {
		case <-block:
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/endless", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		chunk := []byte(strings.Repeat("x", 4096))
		for range 1 << 16 { // 256 MiB, far past what is read
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(block) // before the server's Close, which waits for the handlers
	for _, tc := range []struct{ path, want string }{{"/hang", StateFailed}, {"/endless", StateDelivered}} {
		kv := space(t)
		s, err := New(Config{URL: srv.URL + tc.path, Secret: secret, Store: kv, MaxAttempts: 1, Timeout: 500 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Enqueue(event("0x2")); err != nil {
			t.Fatal(err)
		}
		if list := drain(t, kv, s); len(list) != 1 || list[0].State != tc.want {
			t.Errorf("%s: %+v", tc.path, list)
		}
	}
}

func TestVerifyRefuses(t *testing.T) {
	t.Parallel()
	body := []byte(`{"id":"settled_1"}`)
	now := time.Now()
	good := Sign(secret, now, body)
	for _, tc := range []struct {
		name   string
		header string
		body   []byte
		want   error
	}{
		{"a good signature", good, body, nil},
		{"another body", good, []byte(`{"id":"settled_2"}`), ErrBadSignature},
		{"another secret", Sign([]byte("another secret of 32 bytes......"), now, body), body, ErrBadSignature},
		{"a replay an hour later", Sign(secret, now.Add(-time.Hour), body), body, ErrStaleSignature},
		{"a timestamp in the future", Sign(secret, now.Add(time.Hour), body), body, ErrStaleSignature},
		{"no timestamp", good[strings.Index(good, ",")+1:], body, ErrMalformedSignature},
		{"no mac", good[:strings.Index(good, ",")], body, ErrMalformedSignature},
		{"a short mac", good[:len(good)-2], body, ErrMalformedSignature},
		{"empty", "", body, ErrMalformedSignature},
		{"two timestamps", "t=1," + good, body, ErrMalformedSignature},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if err := Verify(secret, tc.header, tc.body, now, DefaultTolerance); !errors.Is(err, tc.want) {
				t.Errorf("Verify: %v, want %v", err, tc.want)
			}
		})
	}
}

func TestConfigRefusals(t *testing.T) {
	t.Parallel()
	kv := space(t)
	for _, c := range []Config{
		{URL: "ftp://example.com/", Secret: secret, Store: kv},
		{URL: "https://user:pw@example.com/", Secret: secret, Store: kv},
		{URL: "https://example.com/", Secret: []byte("short"), Store: kv},
		{URL: "https://example.com/", Secret: secret, Store: kv, Events: []string{"refunded"}},
		{URL: "https://example.com/", Secret: secret},
	} {
		if _, err := New(c); err == nil {
			t.Errorf("accepted %+v", c)
		}
	}
}

func FuzzVerify(f *testing.F) {
	now := time.Unix(1_800_000_000, 0)
	f.Add(Sign(secret, now, []byte("{}")), []byte("{}"))
	f.Add("t=1,v1=00", []byte(""))
	f.Add(",,,=", []byte("x"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		err := Verify(secret, header, body, now, DefaultTolerance)
		if err != nil && !errors.Is(err, ErrMalformedSignature) && !errors.Is(err, ErrBadSignature) && !errors.Is(err, ErrStaleSignature) {
			t.Fatalf("unclassified: %v", err)
		}
		if err == nil && Verify([]byte("another secret of 32 bytes......"), header, body, now, DefaultTolerance) == nil {
			t.Fatal("a signature that two secrets verify")
		}
	})
}
