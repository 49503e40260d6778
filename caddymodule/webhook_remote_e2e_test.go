package caddymodule

import (
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/webhook"
)

// remoteHookCaddyfile has a route whose facilitator is remote (here the
// same Caddy's x402_facilitator, over HTTP), and a webhook.
const remoteHookCaddyfile = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
		webhook {{hook}}/events {
			secret {env.X402_MERCHANT_WEBHOOK_SECRET}
		}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /facilitator/* {
		x402_facilitator
	}
	handle /remote/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
			facilitator_url http://127.0.0.1:{{api}}/facilitator
		}
		respond "remote content"
	}
}
`

// TestWebhookRemoteFacilitator: a route settled by a remote facilitator
// (facilitator_url) still tells the webhooks of its payments, once each:
// its outcome is written to its network's outbox when the remote
// facilitator answers (the embedded facilitator does not tell of a settle
// through its endpoints, so nothing is told twice). The outbox made every
// event come from the embedded facilitator's commits, which left such
// routes untold.
func TestWebhookRemoteFacilitator(t *testing.T) {
	const secret = "merchant-webhook-secret-0123456789"
	t.Setenv("X402_MERCHANT_WEBHOOK_SECRET", secret)
	rc, srv := newHookReceiver(t, secret)
	api := fmt.Sprintf("http://127.0.0.1:%d", freePort(t))
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(freePort(t)), "{{api}}", strings.TrimPrefix(api, "http://127.0.0.1:"), "{{hook}}", srv.URL).Replace(remoteHookCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	payer, _ := devnet.DeriveKey(devnet.TestMnemonic, 5)
	c := &http.Client{Timeout: time.Minute, Transport: &client.Transport{Key: payer, MaxAmount: big.NewInt(50_000), Schemes: []string{"exact"}}}
	var txs []string
	for i := range 2 {
		resp, err := c.Get(fmt.Sprintf("%s/remote/item-%d", api, i))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		receipt, ok, _ := client.Receipt(resp)
		if resp.StatusCode != 200 || !ok || !receipt.Success {
			t.Fatalf("paying through the remote facilitator: %d %+v", resp.StatusCode, receipt)
		}
		txs = append(txs, receipt.TransactionHash)
	}
	for _, tx := range txs {
		rc.waitFor("the remote settlement's event", func() bool { return rc.delivered(tx) })
	}
	time.Sleep(2 * outboxPoll) // a second event of either payment would come within a poll
	rc.mu.Lock()
	defer rc.mu.Unlock()
	seen := map[string]int{}
	for _, ev := range rc.got {
		seen[ev.ID]++
		if ev.Type != webhook.EventSettled || !strings.HasPrefix(ev.Resource, api+"/remote/item-") || ev.Amount != "10000" {
			t.Errorf("event %+v", ev)
		}
	}
	if len(rc.got) != 2 || len(seen) != 2 {
		t.Fatalf("%d events (%d ids) for 2 payments, want one each: %+v", len(rc.got), len(seen), rc.got)
	}
}
