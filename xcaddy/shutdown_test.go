package main

import (
	"context"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// TestGracefulShutdownDuringBurst: SIGTERM to the built binary in the
// middle of a burst of settlements. Each settlement either completes within
// the grace period or is left in the store and resumed by the next start on
// the same store file; the payers retry what got no answer. In the end
// every payment was served exactly once, with exactly one transfer each:
// none lost, none doubled.
func TestGracefulShutdownDuringBurst(t *testing.T) {
	t.Parallel()
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
	f := &fleet{t: t, chain: d, eth: eth, merchant: crypto.PubkeyToAddress(key.PublicKey),
		storePath: filepath.Join(t.TempDir(), "x402.db")}
	first := f.start("first")

	const payments = 60
	payers := f.fundPayers(payments, 1)
	signed := make([]string, payments)
	for i, p := range payers {
		signed[i] = f.payment(p)
	}
	var (
		mu        sync.Mutex
		current   = first // where the payers send their requests
		restarted = make(chan struct{})
		servedN   atomic.Int64
		finished  atomic.Int64
		errs      = make(chan error, payments)
		wg        sync.WaitGroup
	)
	deadline := time.Now().Add(3 * time.Minute)
	sem := make(chan struct{}, 20)
	for i, payment := range signed {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			if err := payAcrossRestart(payment, deadline, func() *replica {
				mu.Lock()
				defer mu.Unlock()
				return current
			}, restarted); err != nil {
				errs <- fmt.Errorf("payment %d: %w", i, err)
			} else {
				servedN.Add(1)
			}
			if finished.Add(1) == payments/3 {
				go func() {
					first.cmd.Process.Signal(syscall.SIGTERM)
					<-first.done
					t.Logf("SIGTERM after %d payments; the process exited", payments/3)
					second := f.start("second")
					mu.Lock()
					current = second
					mu.Unlock()
					close(restarted)
				}()
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := servedN.Load(); n != payments {
		t.Errorf("%d payments served, want %d", n, payments)
	}
	if n := f.transfers(); n != payments {
		t.Errorf("%d transfers on chain for %d payments", n, payments)
	}
}

// payAcrossRestart presents a payment until it is served, as a payer does
// whose server restarts: after a refused or reset connection, or a 503, it
// retries, waiting for the restart if its server is gone. A 402 (the
// payment was taken without its response) or any other answer is an
// error.
func payAcrossRestart(payment string, deadline time.Time, server func() *replica, restarted <-chan struct{}) error {
	var last outcome
	for time.Now().Before(deadline) {
		r := server()
		last = present(r, payment)
		switch {
		case last.err == nil && last.status == http.StatusOK:
			return nil
		case last.err == nil && last.status != http.StatusServiceUnavailable:
			return fmt.Errorf("status %d from %s: %s", last.status, r.name, last.body)
		}
		select {
		case <-r.done:
			<-restarted // the server is gone: wait for the next one
		case <-time.After(200 * time.Millisecond): // the payer's back-off before a retry
		}
	}
	return fmt.Errorf("not served before the deadline; last answer %+v", last)
}
