package caddymodule

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func TestServeDevnet(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	var out syncBuffer
	done := make(chan error, 1)
	go func() { done <- serveDevnet(ctx, devnet.Config{Addr: "127.0.0.1:0"}, &out) }()

	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "Press Ctrl-C") {
		if time.Now().After(deadline) {
			t.Fatalf("no banner; output so far:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	banner := out.String()
	for _, want := range []string{
		"eip155:31337", "Devnet USD (dUSD), 6 decimals",
		"#0  0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  key 0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
		"#9  0xa0Ee7A142d267C1f36714E4a8F75612F20a79720",
		// The paymaster signer, which a separate x402_paymaster needs.
		"#10  0xBcd4042DE499D14e55001CcbB24a551F3b954096  key 0xf214f2b2cd398c806f84e317254e0f0b801d0643303237d97a22a48e01628897  (the VerifyingPaymaster's signer: signer_key of a separate x402_paymaster)",
		"never use them on a real chain",
	} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}
	// The printed RPC answers.
	var url string
	for _, line := range strings.Split(banner, "\n") {
		if strings.HasPrefix(line, "RPC") {
			url = strings.TrimSpace(strings.TrimPrefix(line, "RPC"))
		}
	}
	client, err := ethclient.Dial(url)
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	if id, err := client.ChainID(context.Background()); err != nil || id.Uint64() != 31337 {
		t.Fatalf("chain id from %s = %v, %v", url, id, err)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("devnet did not stop")
	}
	if _, err := client.ChainID(context.Background()); err == nil {
		t.Fatal("RPC still answers after stop")
	}
}
