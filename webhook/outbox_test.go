package webhook

import (
	"context"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

var t0 = time.Unix(1_800_000_000, 0).UTC()

// final is a final settlement record of key, settled in transaction tx
// or failed with code.
func final(key, tx byte, code x402.ErrorCode) store.Record {
	r := store.Record{
		Key: common.Hash{key}, PayloadHash: common.Hash{0xee, key}, State: store.StateSettled,
		Scheme: x402.SchemeExact, Network: "eip155:31337", Notify: true,
		Payer: common.Address{1}, PayTo: common.Address{2}, Asset: common.Address{3}, Amount: big.NewInt(10_000),
		Resource: "https://shop.example/paid/report?x=<b>#frag", TxHash: common.Hash{tx},
		Created: t0, Updated: t0.Add(time.Duration(key) * time.Second),
		Response: &x402.SettleResponse{X402Version: 2, Success: true},
	}
	if code != "" {
		r.State, r.Response = store.StateFailed, &x402.SettleResponse{X402Version: 2, ErrorCode: code}
	}
	return r
}

// TestEventOf: an event is made of the record's checked fields; its id is
// stable, differs by type and payment (two payments of one batch
// transaction are two events), and the payer's query is not in it.
func TestEventOf(t *testing.T) {
	t.Parallel()
	settledA, settledB := final(1, 9, ""), final(2, 9, "") // one batch transaction
	failedA := final(1, 9, x402.ErrorVerifyFailed)
	other := final(3, 8, "")
	other.Resource = "javascript:alert(1)"
	for _, tc := range []struct {
		name string
		rec  store.Record
		want Event
	}{
		{"settled", settledA, Event{Type: EventSettled, Resource: "https://shop.example/paid/report", Transaction: common.Hash{9}.Hex()}},
		{"failed, with its reason", failedA, Event{Type: EventFailed, Resource: "https://shop.example/paid/report", Transaction: common.Hash{9}.Hex(), Error: string(x402.ErrorVerifyFailed)}},
		{"a resource that is not http is left out", other, Event{Type: EventSettled, Transaction: common.Hash{8}.Hex()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ev := EventOf(&tc.rec)
			if ev.Type != tc.want.Type || ev.Resource != tc.want.Resource || ev.Transaction != tc.want.Transaction || ev.Error != tc.want.Error ||
				ev.Amount != "10000" || ev.Payer != (common.Address{1}).Hex() || ev.PayTo != (common.Address{2}).Hex() ||
				ev.Network != "eip155:31337" || !ev.Time.Equal(tc.rec.Updated) {
				t.Errorf("EventOf = %+v, want %+v", ev, tc.want)
			}
			if again := EventOf(&tc.rec); again.ID != ev.ID {
				t.Errorf("the id changed: %s, %s", ev.ID, again.ID)
			}
		})
	}
	ids := map[string]bool{}
	for _, r := range []store.Record{settledA, settledB, failedA, other} {
		ids[EventOf(&r).ID] = true
	}
	if len(ids) != 4 {
		t.Errorf("%d ids for 4 events", len(ids))
	}
}

// finishNotified takes rec through the state machine on s, as the
// facilitator does: claimed, submitted, then finished (which writes the
// outbox entry).
func finishNotified(t *testing.T, s store.Backend, rec store.Record) {
	t.Helper()
	claim := rec
	claim.State, claim.Response = store.StateClaimed, nil
	if _, ok, err := s.Claim(claim); err != nil || !ok {
		t.Fatalf("claiming: %v %v", ok, err)
	}
	sub := claim
	sub.State, sub.RawTx = store.StateSubmitted, []byte{1}
	if err := s.Submit(&sub); err != nil {
		t.Fatal(err)
	}
	if err := s.Finish(&rec); err != nil {
		t.Fatal(err)
	}
}

// dispatchAll dispatches the outbox of s to the senders until it is
// empty.
func dispatchAll(t *testing.T, s store.Backend, senders ...*Sender) {
	t.Helper()
	outbox, err := s.Bucket(store.OutboxBucket)
	if err != nil {
		t.Fatal(err)
	}
	for {
		n, err := Dispatch(outbox, senders, nil)
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			return
		}
	}
}

// TestOutboxSurvivesACrash: an outcome finished on a store whose process
// then stops without running a sender (a crash between the settlement
// and its delivery) is in the store, and the next process over the same
// file delivers it to each webhook once, however many times it is
// dispatched.
func TestOutboxSurvivesACrash(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x402.db")
	st, err := store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	finishNotified(t, st, final(1, 1, ""))
	finishNotified(t, st, final(2, 2, x402.ErrorVerifyFailed))
	quiet := final(3, 3, "")
	quiet.Notify = false // not the merchant's own: no event
	finishNotified(t, st, quiet)
	st.Close() // no sender ran

	st, err = store.Open(store.Config{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kv, err := st.Bucket(Space)
	if err != nil {
		t.Fatal(err)
	}
	a, b := &receiver{}, &receiver{statuses: []int{503}} // b is down at first
	srvA, srvB := httptest.NewServer(a), httptest.NewServer(b)
	defer srvA.Close()
	defer srvB.Close()
	var senders []*Sender
	for _, cfg := range []Config{{URL: srvA.URL}, {URL: srvB.URL, Events: []string{EventSettled}}} {
		cfg.Secret, cfg.Store, cfg.Backoff = secret, kv, time.Millisecond
		s, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		senders = append(senders, s)
	}
	dispatchAll(t, st, senders...)
	finishNotified(t, st, final(4, 4, ""))
	dispatchAll(t, st, senders...)
	dispatchAll(t, st, senders...) // nothing left
	drain(t, kv, senders...)
	got := a.events()
	if len(got) != 3 || got[0].Type != EventSettled || got[1].Type != EventFailed || got[2].Transaction != (common.Hash{4}).Hex() {
		t.Errorf("webhook a got %+v, want the 3 events in order", got)
	}
	if got := b.events(); len(got) != 2 || got[0].Type != EventSettled || got[1].Type != EventSettled {
		t.Errorf("webhook b got %+v, want the 2 settled events, after its outage", got)
	}
	if len(a.bad)+len(b.bad) > 0 {
		t.Errorf("refused: %v %v", a.bad, b.bad)
	}
}

// TestOutboxAcrossReplicasOnPostgres: two replicas of a fleet share a
// PostgreSQL store; one finishes settlements and dies before it dispatches
// them; both then dispatch and send at once: every event reaches the
// receiver once.
func TestOutboxAcrossReplicasOnPostgres(t *testing.T) {
	t.Parallel()
	url := pgtest.URL(t, "the outbox of a fleet")
	schema := pgtest.Schema(t, url, "outbox")
	open := func() store.Backend {
		st, err := postgres.Open(context.Background(), postgres.Config{URL: url, Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	}
	dead := open()
	const n = 12
	for i := range n {
		finishNotified(t, dead, final(byte(i+1), byte(i+1), ""))
	}
	dead.Close()

	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	var (
		wg      sync.WaitGroup
		senders []*Sender
		kvs     []store.KV
	)
	for range 2 {
		st := open()
		kv, err := st.Bucket(Space)
		if err != nil {
			t.Fatal(err)
		}
		s, err := New(Config{URL: srv.URL, Secret: secret, Store: kv})
		if err != nil {
			t.Fatal(err)
		}
		senders, kvs = append(senders, s), append(kvs, kv)
		wg.Go(func() { dispatchAll(t, st, s) })
	}
	wg.Wait()
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

// TestDispatchDropsWhatDoesNotDecode: an outbox entry that is not a final
// record is removed and logged, and does not hold back the next ones.
func TestDispatchDropsWhatDoesNotDecode(t *testing.T) {
	t.Parallel()
	st, err := store.Open(store.Config{Path: filepath.Join(t.TempDir(), "x402.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	outbox, err := st.Bucket(store.OutboxBucket)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{"\x00garbage": "{not json", "\x01claimed": `{"state":"claimed"}`} {
		if err := outbox.Put([]byte(k), []byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	finishNotified(t, st, final(1, 1, ""))
	kv, err := st.Bucket(Space)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{URL: "http://127.0.0.1:9/", Secret: secret, Store: kv})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := Dispatch(outbox, []*Sender{s}, nil); n != 3 || err != nil {
		t.Fatalf("Dispatch = %d, %v; want the 3 entries removed", n, err)
	}
	if list, _ := List(kv, 10); len(list) != 1 || list[0].Event.Transaction != (common.Hash{1}).Hex() {
		t.Errorf("deliveries %+v; want the settled event's", list)
	}
}

// TestStopLetsGoOfTheLease: an attempt cut off because its sender stops
// (a reload) is not counted, and its lease is let go of, so the next
// sender tries it at once rather than after the lease.
func TestStopLetsGoOfTheLease(t *testing.T) {
	t.Parallel()
	arrived, release := make(chan struct{}, 1), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case arrived <- struct{}{}:
		default:
		}
		<-release // answers nothing until the test ends
	}))
	defer srv.Close()
	defer close(release)
	kv := space(t)
	s, err := New(Config{URL: srv.URL, Secret: secret, Store: kv})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Enqueue(event("0xstop")); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx, time.Hour); close(done) }()
	select {
	case <-arrived:
	case <-time.After(30 * time.Second):
		t.Fatal("waited 30 s for the attempt to reach the receiver")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("waited 30 s for the sender to stop")
	}
	list, err := List(kv, 10)
	if err != nil || len(list) != 1 || list[0].State != StatePending || list[0].Attempts != 0 || !list[0].LeaseUntil.IsZero() {
		t.Fatalf("after the stop: %+v %v; want pending, no attempt counted, no lease", list, err)
	}
}
