// Command mcp-agent is an agent that pays for an MCP tool with x402: the
// official Go MCP SDK's client calls the tool, reads the payment-required
// result (x402's MCP transport), pays it with the caddy-x402 Go client,
// calls again with the payment in _meta["x402/payment"], and prints the
// result and its settlement (_meta["x402/payment-response"]).
//
//	go run ./examples/mcp-agent -url http://localhost:8080/mcp -tool search
//
// By default it pays with test account #1 of the devnet's public test
// mnemonic, at most 0.05 tokens of 6 decimals, in the exact scheme. Give
// another key in the X402_KEY environment variable.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/crypto"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/paywall"
	pmcp "github.com/caddy-x402/caddy-x402/paywall/mcp"
	"github.com/caddy-x402/caddy-x402/x402"
)

// devnetAccount1 is test account #1 of the public test mnemonic; it holds
// dUSD on the devnet. Never use it on a real chain.
const devnetAccount1 = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"

func main() {
	url := flag.String("url", "http://localhost:8080/mcp", "the MCP endpoint (streamable HTTP)")
	tool := flag.String("tool", "search", "the tool to call")
	args := flag.String("args", `{"q":"reports"}`, "the tool's arguments, a JSON object")
	maxPrice := flag.String("max", "0.05", "the most to pay, in whole tokens")
	flag.Parse()
	keyHex := os.Getenv("X402_KEY")
	if keyHex == "" {
		keyHex = devnetAccount1
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(keyHex, "0x"))
	if err != nil {
		fail("X402_KEY is not a hex secp256k1 private key")
	}
	units, err := paywall.ParsePrice(*maxPrice, 6)
	if err != nil {
		fail("-max: %v", err)
	}
	limit, _ := new(big.Int).SetString(units, 10)
	var arguments map[string]any
	if err := json.Unmarshal([]byte(*args), &arguments); err != nil {
		fail("-args: %v", err)
	}
	fmt.Println("payer", crypto.PubkeyToAddress(key.PublicKey).Hex())

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	session, err := mcp.NewClient(&mcp.Implementation{Name: "caddy-x402-agent", Version: "1.0.0"}, nil).
		Connect(ctx, &mcp.StreamableClientTransport{Endpoint: *url, DisableStandaloneSSE: true}, nil)
	if err != nil {
		fail("connecting to %s: %v", *url, err)
	}
	defer session.Close()

	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: *tool, Arguments: arguments})
	if err != nil {
		fail("calling %s: %v", *tool, err)
	}
	challenge := paymentRequired(res)
	if challenge == nil {
		fmt.Println("free:", text(res))
		return
	}
	offer := cheapestExact(challenge, limit)
	if offer == nil {
		fail("%s: no exact offer within -max", *tool)
	}
	fmt.Printf("%s costs %s of %s on %s (%s)\n", *tool, offer.Amount, offer.Asset, offer.Network, challenge.Resource.URL)
	payment, err := (&client.Transport{Key: key, MaxAmount: limit}).Pay(challenge, offer)
	if err != nil {
		fail("paying: %v", err)
	}
	res, err = session.CallTool(ctx, &mcp.CallToolParams{Name: *tool, Arguments: arguments, Meta: mcp.Meta{pmcp.MetaPayment: payment}})
	if err != nil {
		fail("calling %s paid: %v", *tool, err)
	}
	if pr := paymentRequired(res); pr != nil {
		fail("refused: %s", pr.Error)
	}
	fmt.Println(text(res))
	var settled x402.SettleResponse
	raw, _ := json.Marshal(res.Meta[pmcp.MetaPaymentResponse])
	if err := json.Unmarshal(raw, &settled); err != nil || !settled.Success {
		fail("no settlement in the result")
	}
	fmt.Printf("paid %s of %s on %s (%s)\n", offer.Amount, offer.Asset, settled.Network, offer.Scheme)
	fmt.Println("transaction", settled.TransactionHash)
}

// paymentRequired is the PaymentRequired of a payment-required result
// (structuredContent, else content[0].text), or nil.
func paymentRequired(res *mcp.CallToolResult) *x402.PaymentRequired {
	if !res.IsError {
		return nil
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var pr x402.PaymentRequired
	if json.Unmarshal(raw, &pr) != nil || len(pr.Accepts) == 0 {
		if json.Unmarshal([]byte(text(res)), &pr) != nil || len(pr.Accepts) == 0 {
			return nil
		}
	}
	return &pr
}

// cheapestExact is the cheapest exact offer within limit.
func cheapestExact(pr *x402.PaymentRequired, limit *big.Int) *x402.PaymentRequirements {
	var best *x402.PaymentRequirements
	var bestAmount *big.Int
	for i := range pr.Accepts {
		o := &pr.Accepts[i]
		a, err := x402.ParseAmount(o.Amount)
		if o.Scheme != x402.SchemeExact || err != nil || a.Cmp(limit) > 0 || o.Extra == nil || o.Extra.Name == "" {
			continue
		}
		if best == nil || a.Cmp(bestAmount) < 0 {
			best, bestAmount = o, a
		}
	}
	return best
}

func text(res *mcp.CallToolResult) string {
	if len(res.Content) > 0 {
		if t, ok := res.Content[0].(*mcp.TextContent); ok {
			return t.Text
		}
	}
	return ""
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "mcp-agent: "+format+"\n", args...)
	os.Exit(1)
}
