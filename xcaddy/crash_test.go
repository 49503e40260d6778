package main

import (
	"context"
	"crypto/ecdsa"
	"fmt"
	"math/big"
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

// buildFaultyCaddy builds the caddy binary with the x402faults tag, once:
// with X402_FAULT=after-flush its process kills itself (SIGKILL) right
// after it flushed a paid response and before it recorded it.
var buildFaultyCaddy = sync.OnceValues(func() (string, error) {
	bin := filepath.Join(binDir, "caddy-faults")
	out, err := exec.Command("go", "build", "-tags", "x402faults", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building caddy with x402faults: %w\n%s", err, out)
	}
	return bin, nil
})

func faultyCaddy(t *testing.T) string {
	t.Helper()
	bin, err := buildFaultyCaddy()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// dieAfterFlush is the environment of a replica that dies between a paid
// response and its record.
const dieAfterFlush = "X402_FAULT=after-flush"

// A replica killed between flushing a paid 200 and recording it (a real
// process, stopped at that point by the x402faults build) leaves its
// payment re-servable, but bounded: the same PAYMENT-SIGNATURE gets at most
// one more 200 (from another replica, or the restarted one), then 402
// replay on every replica, even when the replica that served the retry
// died at the same point; and once the payment's validity window
// (maxTimeoutSeconds, here a route's 3 s) is over, 402 replay at once.
// Run on a fleet of two replicas on PostgreSQL, and on one process on a
// bbolt file, restarted.
func TestCrashAfterResponse(t *testing.T) {
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
			crashAfterResponse(t, tc.fleet)
		})
	}
}

// crashAfterResponse is TestCrashAfterResponse on a fleet (PostgreSQL) or
// one process (bbolt).
func crashAfterResponse(t *testing.T, onFleet bool) {
	f := newMerchant(t, onFleet)
	bin := faultyCaddy(t)
	payers := f.fundPayers(2, 1)

	var others []*replica // the replicas that stay up
	if onFleet {
		others = append(others, f.startWith("b", bin)) // the tagged binary, without the fault
	}
	// died waits for r, a replica started with dieAfterFlush, to have
	// killed itself.
	died := func(r *replica) {
		t.Helper()
		select {
		case <-r.done:
		case <-time.After(time.Minute):
			t.Fatalf("replica %s did not die after its flush", r.name)
		}
		if ws, ok := r.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
			t.Fatalf("replica %s ended with %v, want SIGKILL", r.name, r.cmd.ProcessState)
		}
	}
	// dying starts a replica that dies after its flush. On bbolt the live
	// process is stopped first (it holds the file).
	dying := func(name string) *replica {
		t.Helper()
		if !onFleet {
			for _, r := range others {
				r.cmd.Process.Signal(syscall.SIGTERM)
				<-r.done
			}
			others = nil
		}
		return f.startWith(name, bin, dieAfterFlush)
	}
	// restarted starts the bbolt process again after a crash, on the same
	// file.
	restarted := func(name string) {
		if !onFleet {
			others = []*replica{f.startWith(name+"-restarted", bin)}
		}
	}
	// crash starts a replica that dies after its flush, signs a payment of
	// its offer at path with payer (whose clock is now), and presents it:
	// the replica must answer 200 with the content, and die. It returns
	// the payment and when its answer arrived.
	crash := func(name, path, content string, payer *ecdsa.PrivateKey, now func() time.Time) (string, time.Time) {
		t.Helper()
		r := dying(name)
		payment := f.paymentAt(r, payer, path, now)
		o := presentAt(r, path, payment)
		answered := time.Now()
		if o.status != http.StatusOK || !strings.Contains(o.body, content+" "+name) {
			t.Fatalf("the paid request to the replica that dies after its flush: %+v", o)
		}
		died(r)
		restarted(name)
		return payment, answered
	}
	replay := func(what string, o outcome) {
		t.Helper()
		if o.err != nil || o.status != http.StatusPaymentRequired || !strings.Contains(o.body, string(x402.ReasonReplay)) || strings.Contains(o.body, "content") {
			t.Fatalf("%s: %+v; want 402 replay", what, o)
		}
	}

	// Within the validity window (60 s): one more 200, then replay.
	payment, _ := crash("a", "/paid", "paid content", payers[0], nil)
	// The retry goes to a replica that dies after its flush as well: it
	// is served (the one more 200), and its record is lost too.
	again := dying("a2")
	if n, err := payUntilServedAt([]*replica{again}, "/paid", payment, time.Now().Add(time.Minute)); n != 1 || err != nil {
		t.Fatalf("the payer's retry after the crash: %d %v; want one more 200", n, err)
	}
	died(again)
	restarted("a2")
	for _, r := range others {
		replay("a retry after the second crash to "+r.name, presentAt(r, "/paid", payment))
	}
	if onFleet {
		fresh := f.start("a-restarted")
		replay("a retry to the restarted replica", presentAt(fresh, "/paid", payment))
		others = append(others, fresh)
	}

	// Past the window (the /brief route's max_timeout 3s; the payer's
	// authorization stays valid for a minute longer): replay at once.
	brief, answered := crash("c", "/brief", "brief content", payers[1], func() time.Time { return time.Now().Add(time.Minute) })
	// The window began at the claim, before the answer: it is over 3 s
	// after the answer.
	for end := answered.Add(3 * time.Second); !time.Now().After(end); {
		time.Sleep(time.Until(end) + 10*time.Millisecond) // the payment's window ends
	}
	for _, r := range others {
		replay("a retry past the validity window to "+r.name, presentAt(r, "/brief", brief))
	}
	if n := f.transfers(); n != 2 {
		t.Fatalf("%d transfers on chain for 2 payments", n)
	}
}

// newMerchant is a fleet on PostgreSQL (newFleet) if onFleet, else a
// merchant of one process on a bbolt file, on a devnet of its own.
func newMerchant(t *testing.T, onFleet bool) *fleet {
	t.Helper()
	if onFleet {
		return newFleet(t)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0", BlockPeriod: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	eth, err := ethclient.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(eth.Close)
	key, _ := crypto.GenerateKey()
	return &fleet{t: t, chain: d, eth: eth, merchant: crypto.PubkeyToAddress(key.PublicKey),
		storePath: filepath.Join(t.TempDir(), "x402.db")}
}

// paymentAt signs a payment of r's offer at path with payer's key, with
// the payer's clock now (nil: time.Now): the value of a PAYMENT-SIGNATURE
// header. Its exact authorization is valid until now + the offer's
// maxTimeoutSeconds.
func (f *fleet) paymentAt(r *replica, payer *ecdsa.PrivateKey, path string, now func() time.Time) string {
	f.t.Helper()
	resp, err := http.Get(r.url + path)
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	var challenge x402.PaymentRequired
	if err := x402.DecodeHeader(resp.Header.Get(x402.HeaderPaymentRequired), &challenge); err != nil || resp.StatusCode != http.StatusPaymentRequired {
		f.t.Fatalf("unpaid request: %d %v", resp.StatusCode, err)
	}
	payload, err := (&client.Transport{Key: payer, MaxAmount: big.NewInt(1000), Now: now}).Pay(&challenge, &challenge.Accepts[0])
	if err != nil {
		f.t.Fatal(err)
	}
	header, err := x402.EncodeHeader(payload)
	if err != nil {
		f.t.Fatal(err)
	}
	return header
}

// presentAt sends the payment to path of r once.
func presentAt(r *replica, path, payment string) outcome {
	req, _ := http.NewRequest(http.MethodGet, r.url+path, nil)
	req.Header.Set(x402.HeaderPaymentSignature, payment)
	resp, err := (&http.Client{Timeout: 60 * time.Second}).Do(req)
	if err != nil {
		return outcome{err: err}
	}
	defer resp.Body.Close()
	var body strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		body.Write(buf[:n])
		if err != nil {
			break // EOF, or the connection of a process that died
		}
	}
	return outcome{status: resp.StatusCode, retryAfter: resp.Header.Get("Retry-After"), body: body.String()}
}

// payUntilServedAt presents the payment to path of the replicas in turn
// until one serves it, retrying after a 503 (the replica that died may
// still look alive to the database for a moment): 1 and nil on a 200, or
// an error on a 402 or at the deadline.
func payUntilServedAt(replicas []*replica, path, payment string, deadline time.Time) (int, error) {
	var last outcome
	for i := 0; time.Now().Before(deadline); i++ {
		r := replicas[i%len(replicas)]
		last = presentAt(r, path, payment)
		switch {
		case last.err == nil && last.status == http.StatusOK:
			return 1, nil
		case last.err == nil && last.status != http.StatusServiceUnavailable:
			return 0, fmt.Errorf("status %d from %s: %s", last.status, r.name, last.body)
		}
		time.Sleep(200 * time.Millisecond) // the payer's back-off before a retry
	}
	return 0, fmt.Errorf("not served before the deadline; last answer %+v", last)
}
