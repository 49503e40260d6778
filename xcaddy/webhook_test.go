package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/webhook"
)

// downReceiver is a merchant's webhook receiver that refuses every
// delivery (503) until it is up, and then keeps the events it
// acknowledges, each delivery's signature checked.
type downReceiver struct {
	mu      sync.Mutex
	up      bool
	got     []webhook.Event
	bad     int
	changed chan struct{} // closed and replaced on every delivery
}

func (rc *downReceiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	defer func() { close(rc.changed); rc.changed = make(chan struct{}) }()
	var ev webhook.Event
	if webhook.Verify([]byte(fleetWebhookSecret), r.Header.Get(webhook.SignatureHeader), body, time.Now(), webhook.DefaultTolerance) != nil ||
		json.Unmarshal(body, &ev) != nil || r.Header.Get(webhook.IDHeader) != ev.ID {
		rc.bad++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	if !rc.up {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	rc.got = append(rc.got, ev)
}

// TestWebhookAfterKill: a replica killed with SIGKILL right after it
// settled and served a paid request (the x402faults build, X402_FAULT
// after-flush), while the merchant's webhook receiver refuses every
// delivery, loses no event: once the receiver is up, the settled event is
// delivered by the replica that stayed up (a fleet on PostgreSQL) or by
// the process restarted on the same bbolt file; the store wrote it in the
// commit that settled the payment.
func TestWebhookAfterKill(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		fleet bool
	}{
		{"fleet on PostgreSQL", true},
		{"one process on bbolt", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			webhookAfterKill(t, tc.fleet)
		})
	}
}

func webhookAfterKill(t *testing.T, onFleet bool) {
	rc := &downReceiver{changed: make(chan struct{})}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	f := newMerchant(t, onFleet)
	f.webhook = srv.URL + "/events"
	bin := faultyCaddy(t)
	payer := f.fundPayers(1, 1)[0]
	if onFleet {
		f.startWith("b", bin) // stays up
	}
	a := f.startWith("a", bin, dieAfterFlush)
	if o := presentAt(a, "/paid", f.paymentAt(a, payer, "/paid", nil)); o.status != http.StatusOK {
		t.Fatalf("the paid request to the replica that dies after its flush: %+v", o)
	}
	select {
	case <-a.done:
	case <-time.After(time.Minute):
		t.Fatal("waited a minute for the replica to die after its flush")
	}
	if ws, ok := a.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the replica ended with %v, want SIGKILL", a.cmd.ProcessState)
	}
	if !onFleet {
		f.startWith("a-restarted", bin)
	}
	rc.mu.Lock()
	rc.up = true
	rc.mu.Unlock()

	// The lease the dead replica may hold on the delivery ends 25 s after
	// it took it, and the retries after the refusals are seconds apart.
	deadline := time.After(2 * time.Minute)
	for {
		rc.mu.Lock()
		got, changed := append([]webhook.Event(nil), rc.got...), rc.changed
		rc.mu.Unlock()
		if len(got) > 0 {
			want := crypto.PubkeyToAddress(payer.PublicKey).Hex()
			for _, ev := range got {
				if ev.Type != webhook.EventSettled || ev.Payer != want || ev.Transaction == "" || ev.ID != got[0].ID {
					t.Errorf("delivered %+v; want the settled event of %s", ev, want)
				}
			}
			break
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatal("waited two minutes for the settled event after the kill")
		}
	}
	if n := f.transfers(); n != 1 {
		t.Errorf("%d transfers on chain for 1 payment", n)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if rc.bad > 0 {
		t.Errorf("%d deliveries with a bad signature or id", rc.bad)
	}
}
