package facilitator

import (
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// ours counts the goroutines running code of the facilitator's packages
// (the service, the sender, the bundler), leaving out the tests' own.
func ours() (int, string) {
	buf := make([]byte, 1<<22)
	buf = buf[:runtime.Stack(buf, true)]
	n, seen := 0, []string{}
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "caddy-x402/facilitator") && !strings.Contains(g, "_test.go") {
			n++
			seen = append(seen, g)
		}
	}
	return n, strings.Join(seen, "\n\n")
}

// Background work has an owner: once a service that settled both schemes
// is closed, none of its goroutines (the sender's repair loop, the
// bundler's timers and sends) is left. Not parallel: it counts goroutines.
func TestCloseLeavesNoGoroutine(t *testing.T) {
	e := newEnv(t, envOptions{aaNative: true})
	merchant := e.chain.Accounts[3].Address
	var res struct{ Success bool }
	e.post("settle", e.pay(e.chain.Accounts[1], merchant, 1_000), &res)
	if !res.Success {
		t.Fatal("exact settle failed")
	}
	aa, _ := e.aaPay(e.chain.Accounts[2].Key, e.aaRequirements(merchant, 1_000))
	e.post("settle", aa, &res)
	if !res.Success {
		t.Fatal("aa-native settle failed")
	}
	if n, _ := ours(); n == 0 {
		t.Fatal("no goroutine of the service runs before Close: the check would prove nothing")
	}
	e.stop()
	deadline := time.Now().Add(10 * time.Second)
	for {
		n, stacks := ours()
		if n == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines of the service outlive Close:\n%s", n, stacks)
		}
		time.Sleep(10 * time.Millisecond) // polling for the goroutines to end
	}
}

// The owner of the store and of the chain connection injects them and
// keeps them: the service settles into the store, and closing the service
// leaves both open.
func TestInjectedRecords(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	req := e.pay(e.chain.Accounts[1], e.chain.Accounts[2].Address, 1_000)
	var res x402.SettleResponse
	if e.post("settle", req, &res); !res.Success {
		t.Fatalf("settle: %+v", res)
	}
	p, _ := e.svc.decode(req)
	e.srv.Close()
	e.srv = nil
	e.svc.Close()
	e.svc = nil
	rec, err := e.st.Get(p.key)
	if err != nil || rec == nil || rec.State != store.StateSettled {
		t.Fatalf("the injected store after the service closed: %+v %v", rec, err)
	}
	var n hexutil.Uint64
	if err := e.rpc.Call(&n, "eth_blockNumber"); err != nil {
		t.Fatalf("the injected chain connection after the service closed: %v", err)
	}
}
