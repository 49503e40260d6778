package storetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/store"
)

// consumedSettled lays out a settled record of key whose validity window
// ends at serveBy, consumed by owner in s's process.
func consumedSettled(t *testing.T, s store.Backend, key byte, serveBy time.Time, owner string) store.Record {
	t.Helper()
	r := record(key)
	r.ServeBy = serveBy
	mustClaim(t, s, r)
	sub := submitted(r, key)
	must(t, s.Submit(&sub))
	fin := settled(sub)
	must(t, s.Finish(&fin))
	if _, ok, err := s.Consume(r.Key, owner); err != nil || !ok {
		t.Fatalf("the first consumer of %s: %v %v", r.Key, ok, err)
	}
	return r
}

// runHandover checks the bound on a response lost to a crash: a consumer
// whose process died with its response unwritten gives way to one other
// consumer, once, within the payment's validity window; across handles,
// one of many takes it. It needs Reopen (a process that dies).
func runHandover(t *testing.T, b Backend) {
	t.Run("a dead consumer gives way once, within the validity window", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		open := consumedSettled(t, s, 50, time.Now().Add(time.Hour), "a")
		closed := consumedSettled(t, s, 51, time.Now().Add(-time.Second), "a")
		legacy := record(52) // no ServeBy: created long ago, so its window is over
		legacy.Created, legacy.Updated = time.Now().Add(-time.Hour).UTC(), time.Now().Add(-time.Hour).UTC()
		mustClaim(t, s, legacy)
		ls := submitted(legacy, 52)
		must(t, s.Submit(&ls))
		lf := settled(ls)
		must(t, s.Finish(&lf))
		if _, ok, err := s.Consume(legacy.Key, "a"); err != nil || !ok {
			t.Fatalf("the first consumer of a record without ServeBy: %v %v", ok, err)
		}

		s = b.Reopen(t, s) // a's process died, its responses unrecorded
		if got, ok, err := s.Consume(open.Key, "b"); err != nil || !ok || got.Consumer != "b" {
			t.Fatalf("the retry within the window after its consumer died: %+v %v %v", got, ok, err)
		}
		if got := get(t, s, open.Key); got.Consumer != "b" || got.Handovers != 1 || got.Served {
			t.Fatalf("after the handover: consumer %q, handovers %d, served %v; want b, 1, false", got.Consumer, got.Handovers, got.Served)
		}
		for _, r := range []store.Record{closed, legacy} {
			if got, ok, err := s.Consume(r.Key, "b"); err != nil || ok || got.Consumer != "a" || got.Handovers != 0 {
				t.Fatalf("a retry after the validity window of %s: %+v %v %v; want refused", r.Key, got, ok, err)
			}
		}

		s = b.Reopen(t, s) // b's process died too, its response unrecorded
		if got, ok, err := s.Consume(open.Key, "c"); err != nil || ok || got.Consumer != "b" || got.Handovers != 1 {
			t.Fatalf("a second handover: %+v %v %v; want refused", got, ok, err)
		}
		if _, ok, err := s.Consume(open.Key, "b"); err != nil || !ok {
			t.Fatalf("the consumer's own retry: %v %v", ok, err)
		}
		must(t, s.Serve(open.Key, "b"))
		if got := get(t, s, open.Key); !got.Served || got.Handovers != 1 {
			t.Fatalf("served: %+v", got)
		}
	})

	t.Run("one of many retries takes a dead consumer's handover", func(t *testing.T) {
		t.Parallel()
		s := b.Open(t)
		r := consumedSettled(t, s, 53, time.Now().Add(time.Hour), "a")
		s = b.Reopen(t, s)
		handles := []store.Backend{s}
		if b.Second != nil {
			handles = append(handles, b.Second(t, s))
		}
		var (
			wg    sync.WaitGroup
			mu    sync.Mutex
			takes []string
		)
		for i := range 20 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				owner := fmt.Sprint("retry-", i)
				_, ok, err := handles[i%len(handles)].Consume(r.Key, owner)
				if err != nil {
					t.Error(err)
				}
				if ok {
					mu.Lock()
					takes = append(takes, owner)
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		got := get(t, s, r.Key)
		if len(takes) != 1 || got.Consumer != takes[0] || got.Handovers != 1 {
			t.Fatalf("%d retries took the handover (%v); the record says consumer %q after %d handovers; want 1", len(takes), takes, got.Consumer, got.Handovers)
		}
	})
}
