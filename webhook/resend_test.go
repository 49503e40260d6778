package webhook

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestTestEvent: a test event is its own type, with an id of its own,
// no payment in it, and reaches a webhook that subscribes to settled
// events only, signed like any event.
func TestTestEvent(t *testing.T) {
	t.Parallel()
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	kv := space(t)
	s, err := New(Config{URL: srv.URL + "/hook", Secret: secret, Store: kv, Events: []string{EventSettled}, Backoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	d1, err := s.Test("eip155:8453")
	if err != nil {
		t.Fatal(err)
	}
	d2, err := s.Test("eip155:8453")
	if err != nil {
		t.Fatal(err)
	}
	if d1.Event.Type != EventTest || !strings.HasPrefix(d1.Event.ID, "test_") || d1.Event.ID == d2.Event.ID || d1.ID == "" || d1.State != StatePending {
		t.Fatalf("test deliveries: %+v %+v", d1, d2)
	}
	if d1.Event.Amount != "" || d1.Event.Payer != "" || d1.Event.Transaction != "" {
		t.Errorf("a test event carries a payment: %+v", d1.Event)
	}
	list := drain(t, kv, s)
	if len(list) != 2 || list[0].State != StateDelivered || list[1].State != StateDelivered {
		t.Fatalf("deliveries: %+v", list)
	}
	got := rc.events()
	if len(got) != 2 || got[0].Type != EventTest || got[1].Type != EventTest || len(rc.bad) > 0 {
		t.Errorf("the receiver got %+v (refused %v)", got, rc.bad)
	}
}

// TestResend: a delivery, delivered or given up, is sent again with the
// same event id, its attempts counted afresh; an id that names nothing,
// or is not an id, is ErrNoDelivery; one being attempted is ErrSending.
func TestResend(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		statuses []int
		first    string
	}{
		{"a delivered one", nil, StateDelivered},
		{"a failed one", []int{500, 500}, StateFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rc := &receiver{statuses: tc.statuses}
			srv := httptest.NewServer(rc)
			defer srv.Close()
			kv := space(t)
			s, err := New(Config{URL: srv.URL + "/hook", Secret: secret, Store: kv, MaxAttempts: 2, Backoff: time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			ev := event("0xabc")
			if err := s.Enqueue(ev); err != nil {
				t.Fatal(err)
			}
			list := drain(t, kv, s)
			if len(list) != 1 || list[0].State != tc.first {
				t.Fatalf("first round: %+v", list)
			}
			d, err := Resend(kv, list[0].ID, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if d.State != StatePending || d.Attempts != 0 || d.Resent != 1 || d.Event.ID != ev.ID || d.ID != list[0].ID {
				t.Fatalf("resent: %+v", d)
			}
			list = drain(t, kv, s)
			if len(list) != 1 || list[0].State != StateDelivered || list[0].Attempts != 1 || list[0].Resent != 1 {
				t.Fatalf("after the resend: %+v", list)
			}
			got := rc.events()
			if len(got) == 0 || got[len(got)-1].ID != ev.ID {
				t.Errorf("the receiver got %+v, want the event %s again", got, ev.ID)
			}
		})
	}
	t.Run("ids that name nothing", func(t *testing.T) {
		t.Parallel()
		kv := space(t)
		for _, id := range []string{"", "nothing.here", "a/b", strings.Repeat("x", 300), "..\\x"} {
			if _, err := Resend(kv, id, time.Now()); !errors.Is(err, ErrNoDelivery) {
				t.Errorf("Resend(%q): %v, want ErrNoDelivery", id, err)
			}
		}
	})
	t.Run("one being attempted", func(t *testing.T) {
		t.Parallel()
		kv := space(t)
		s, err := New(Config{URL: "http://127.0.0.1:1/hook", Secret: secret, Store: kv})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Enqueue(event("0xdef")); err != nil {
			t.Fatal(err)
		}
		list, err := List(kv, 10)
		if err != nil || len(list) != 1 {
			t.Fatal(list, err)
		}
		if _, ok := s.claim([]byte(strings.ReplaceAll(list[0].ID, ".", "/"))); !ok {
			t.Fatal("the delivery was not claimed")
		}
		if _, err := Resend(kv, list[0].ID, time.Now()); !errors.Is(err, ErrSending) {
			t.Errorf("Resend of a claimed delivery: %v, want ErrSending", err)
		}
	})
}
