package webhook

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// TestManager runs two hooks over the outboxes of two networks' stores:
// each outcome finished on either store reaches each hook once, woken or
// found by the poll, every delivery is audited as it ends, and the test
// event reaches every hook.
func TestManager(t *testing.T) {
	t.Parallel()
	open := func(name string) store.Backend {
		st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), name)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	primary, second := open("a.db"), open("b.db")

	var mu sync.Mutex
	got := map[string][]string{} // receiver → event ids
	receiver := func(name string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var ev Event
			body, _ := io.ReadAll(r.Body)
			if err := json.Unmarshal(body, &ev); err != nil {
				t.Errorf("%s: body %q: %v", name, body, err)
			}
			mu.Lock()
			got[name] = append(got[name], ev.Type+" "+ev.ID)
			mu.Unlock()
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	m := NewManager([]Hook{
		{URL: receiver("one"), Secret: []byte("0123456789abcdef")},
		{URL: receiver("two"), Secret: []byte("fedcba9876543210"), Events: []string{EventFailed}},
	}, nil)
	m.OutboxPoll, m.SenderPoll = 50*time.Millisecond, 50*time.Millisecond
	var audited sync.Map
	m.OnFinal(func(d Delivery) { audited.Store(d.Webhook+" "+d.Event.ID, d.State) })

	deliveries, err := OpenDeliveries(primary)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Run(ctx, deliveries, func() []Outbox {
			return []Outbox{{Network: "a", Store: primary}, {Network: "b", Store: second}}
		})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("Run did not return within 10 s of its context's end")
		}
	})

	settled, failed := final(1, 9, ""), final(2, 8, "settle_failed")
	finishNotified(t, primary, settled)
	m.Wake()
	finishNotified(t, second, failed) // found by the poll, or the same wake
	if _, err := m.Test(deliveries, "a"); err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"one": 3, "two": 2} // two takes failed (and test) only
	deadline := time.Now().Add(15 * time.Second)
	for {
		mu.Lock()
		n1, n2 := len(got["one"]), len(got["two"])
		mu.Unlock()
		if n1 >= want["one"] && n2 >= want["two"] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after 15 s the receivers had %v, want 3 and 2 deliveries", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // a duplicate would come within a few polls
	mu.Lock()
	defer mu.Unlock()
	if len(got["one"]) != 3 || len(got["two"]) != 2 {
		t.Errorf("deliveries %v, want each event once per hook", got)
	}
	n := 0
	audited.Range(func(k, v any) bool {
		if v != "delivered" {
			t.Errorf("%v audited %v", k, v)
		}
		n++
		return true
	})
	if n != 5 {
		t.Errorf("%d deliveries audited, want 5", n)
	}
}

// TestManagerSendBeforeRun: a channel's event sent before Run made the
// senders is not kept, and says so (its sender tells it again); once Run
// runs, it is kept. A nil Manager or one without hooks keeps nothing and
// reports true.
func TestManagerSendBeforeRun(t *testing.T) {
	t.Parallel()
	ev := Event{ID: EventID(EventChannelClaimed, "eip155:1", "0x01"), Type: EventChannelClaimed}
	if !(*Manager)(nil).Send(ev) || !NewManager(nil, nil).Send(ev) {
		t.Fatal("a manager without hooks refused an event")
	}
	received := make(chan string, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		received <- r.Header.Get(IDHeader)
	}))
	t.Cleanup(srv.Close)
	m := NewManager([]Hook{{URL: srv.URL, Secret: []byte("0123456789abcdef")}}, nil)
	if m.Send(ev) {
		t.Fatal("an event sent before Run was reported kept")
	}
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "a.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	deliveries, err := OpenDeliveries(st)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		m.Run(ctx, deliveries, func() []Outbox { return nil })
	}()
	t.Cleanup(func() { cancel(); <-done })
	deadline := time.Now().Add(10 * time.Second)
	for !m.Send(ev) {
		if time.Now().After(deadline) {
			t.Fatal("the event was not kept within 10 s of Run's start")
		}
		time.Sleep(10 * time.Millisecond)
	}
	select {
	case id := <-received:
		if id != ev.ID {
			t.Errorf("delivered %q, want %q", id, ev.ID)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the kept event was not delivered within 15 s")
	}
}
