package facilitator

import (
	"runtime"
	"strings"
	"testing"
	"time"
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
