package caddymodule

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// fakeService is a pooled service with a limit that a reload changes,
// unless it refuses the new one.
type fakeService struct {
	limit  int
	refuse bool
	closed int
}

// fakeTunables are a fakeService's tunables.
type fakeTunables struct {
	Limit int `json:"limit"`
}

func (t fakeTunables) apply(s *fakeService, _ fakeTunables) error {
	if s.refuse {
		return errors.New("refused")
	}
	s.limit = t.Limit
	return nil
}

// fakeFixed are a fakeService's fixed options.
type fakeFixed struct {
	Addr string `json:"addr"`
}

// TestPooled: a pooled service opens once, for the first config that
// starts; a later config's tunables are put in force in it, and other
// fixed options are refused; requests that come before the start wait for
// it, and fail if it fails; the last Destruct closes it.
func TestPooled(t *testing.T) {
	t.Parallel()
	opener := func(svc *fakeService, opens *int) func(fakeTunables) (*fakeService, func() error, error) {
		return func(tu fakeTunables) (*fakeService, func() error, error) {
			*opens++
			svc.limit = tu.Limit
			return svc, func() error { svc.closed++; return nil }, nil
		}
	}
	tests := []struct {
		name      string
		refuse    bool // whether the service refuses new tunables
		second    fakeTunables
		fixed     fakeFixed
		wantErr   string // of the second config's check and start
		wantLimit int
	}{
		{"same tunables", true, fakeTunables{Limit: 1}, fakeFixed{"a"}, "", 1},
		{"new tunables", false, fakeTunables{Limit: 2}, fakeFixed{"a"}, "", 2},
		{"new tunables refused", true, fakeTunables{Limit: 2}, fakeFixed{"a"}, "the fake: putting the new limit in force: refused", 1},
		{"new fixed option", false, fakeTunables{Limit: 1}, fakeFixed{"b"}, "the fake runs with a different addr, which a reload cannot change: restart Caddy", 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := newPooled[*fakeService, fakeTunables]("the fake", fakeFixed{"a"})
			svc, opens := &fakeService{refuse: tc.refuse}, 0
			if err := p.check(fakeFixed{"a"}); err != nil {
				t.Fatal(err)
			}
			// A request before the start waits for it.
			got := make(chan *fakeService, 1)
			go func() {
				s, _ := p.wait(context.Background())
				got <- s
			}()
			if err := p.start(fakeTunables{Limit: 1}, opener(svc, &opens)); err != nil {
				t.Fatal(err)
			}
			if s := <-got; s != svc {
				t.Fatalf("the waiting request got %v", s)
			}

			// The second config.
			err := p.check(tc.fixed)
			if err == nil {
				err = p.start(tc.second, opener(svc, &opens))
			}
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("second config: %v, want %q", err, tc.wantErr)
			}
			if opens != 1 || svc.limit != tc.wantLimit {
				t.Fatalf("opened %d times, limit %d; want once, %d", opens, svc.limit, tc.wantLimit)
			}
			if err := p.Destruct(); err != nil || svc.closed != 1 {
				t.Fatalf("destruct: %v, closed %d times", err, svc.closed)
			}
			if err := p.Destruct(); err != nil || svc.closed != 1 {
				t.Fatalf("a second destruct: %v, closed %d times", err, svc.closed)
			}
			if _, err := p.running(); !errors.Is(err, errNotStarted) {
				t.Fatalf("after destruct: %v", err)
			}
		})
	}
	t.Run("a failed start", func(t *testing.T) {
		t.Parallel()
		p := newPooled[*fakeService, fakeTunables]("the fake", fakeFixed{})
		failed := make(chan error, 1)
		go func() {
			_, err := p.wait(context.Background())
			failed <- err
		}()
		boom := errors.New("boom")
		fail := func(fakeTunables) (*fakeService, func() error, error) { return nil, nil, boom }
		if err := p.start(fakeTunables{}, fail); !errors.Is(err, boom) {
			t.Fatalf("start: %v", err)
		}
		if err := <-failed; !errors.Is(err, boom) {
			t.Fatalf("the waiting request: %v", err)
		}
		// A later config starts it.
		svc, opens := &fakeService{}, 0
		if err := p.start(fakeTunables{}, opener(svc, &opens)); err != nil || opens != 1 {
			t.Fatalf("the second start: %v, %d opens", err, opens)
		}
		if s, err := p.wait(context.Background()); s != svc || err != nil {
			t.Fatalf("wait: %v %v", s, err)
		}
	})
	t.Run("a request gives up", func(t *testing.T) {
		t.Parallel()
		p := newPooled[*fakeService, fakeTunables]("the fake", fakeFixed{})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := p.wait(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("wait: %v", err)
		}
		if err := p.Destruct(); err != nil {
			t.Fatalf("destructing what never opened: %v", err)
		}
	})
}

func TestChangedOptions(t *testing.T) {
	t.Parallel()
	type opts struct {
		A string            `json:"a,omitempty"`
		B []int             `json:"b"`
		C map[string]string `json:"c,omitempty"`
	}
	tests := []struct {
		name string
		x, y opts
		want string
	}{
		{"equal", opts{A: "x", B: []int{1}}, opts{A: "x", B: []int{1}}, ""},
		{"one", opts{A: "x"}, opts{A: "y"}, "a"},
		{"left out by one", opts{A: "x"}, opts{}, "a"},
		{"several, in order", opts{C: map[string]string{"k": "v"}, B: []int{1}}, opts{B: []int{2}}, "b,c"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := strings.Join(changedOptions(tc.x, tc.y), ","); got != tc.want {
				t.Fatalf("changed %q, want %q", got, tc.want)
			}
		})
	}
}
