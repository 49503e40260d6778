// Command merchant sells an API over plain net/http, without Caddy: the
// paywall package guards a handler, and an in-process facilitator verifies
// and settles payments.
//
//	go run ./examples/merchant
//
// With no flags it starts its own embedded dev chain on a free port and
// charges 0.01 dUSD for GET /paid/hello on :8081, paid to devnet test
// account #2. Pay it with:
//
//	go run ./examples/payer -url http://localhost:8081/paid/hello
//
// For a real chain pass -rpc, -network, -asset, -asset-name, -asset-version
// and the settler key in X402_SETTLER_KEY.
package main

import (
	"context"
	"crypto/ecdsa"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

func main() {
	addr := flag.String("addr", ":8081", "listen address")
	rpcURL := flag.String("rpc", "", "chain JSON-RPC URL (default: start an embedded devnet)")
	network := flag.String("network", "", "CAIP-2 network of -rpc, such as eip155:8453")
	asset := flag.String("asset", "", "token address (default: the devnet's dUSD)")
	assetName := flag.String("asset-name", "", "the token's EIP-712 name")
	assetVersion := flag.String("asset-version", "", "the token's EIP-712 version")
	payTo := flag.String("pay-to", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "address that receives payments")
	price := flag.String("price", "0.01", "price in whole tokens")
	decimals := flag.Uint("decimals", 6, "the token's decimals")
	storePath := flag.String("store", filepath.Join(os.TempDir(), "x402-merchant.db"), "settlement store file")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()

	var key *ecdsa.PrivateKey
	if *rpcURL == "" {
		chain, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
		if err != nil {
			log.Fatal(err)
		}
		defer chain.Close()
		*rpcURL, *network = chain.URL, x402.FormatNetwork(chain.ChainID.Uint64())
		*asset, *assetName, *assetVersion = chain.Token.Address.Hex(), chain.Token.Name, chain.Token.Version
		key = chain.Accounts[0].Key
		*storePath = filepath.Join(os.TempDir(), fmt.Sprintf("x402-merchant-devnet-%d.db", os.Getpid()))
		defer os.Remove(*storePath)
		log.Printf("devnet at %s", chain.URL)
	} else {
		var err error
		if key, err = crypto.HexToECDSA(strings.TrimPrefix(os.Getenv("X402_SETTLER_KEY"), "0x")); err != nil {
			log.Fatal("X402_SETTLER_KEY must hold the settler's hex private key")
		}
	}

	records, err := store.Open(store.Config{Path: *storePath})
	if err != nil {
		log.Fatal(err)
	}
	defer records.Close()
	client, err := rpc.DialContext(ctx, *rpcURL)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	fac, err := facilitator.New(ctx, facilitator.Config{
		Network: *network, Chain: client, Records: records, SettlerKey: key,
		Assets: []facilitator.Asset{{Address: common.HexToAddress(*asset), Name: *assetName, Version: *assetVersion}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer fac.Close()

	amount, err := paywall.ParsePrice(*price, uint8(*decimals))
	if err != nil {
		log.Fatal(err)
	}
	pw, err := paywall.New(paywall.Config{
		Facilitator: fac,
		Description: "Hello, for a price",
		Accepts: []x402.PaymentRequirements{{
			Scheme: x402.SchemeExact, Network: *network, Amount: amount, Asset: *asset, PayTo: *payTo,
			Extra: &x402.Extra{Name: *assetName, Version: *assetVersion},
		}},
		AssetDecimals: map[string]uint8{strings.ToLower(*asset): uint8(*decimals)},
	})
	if err != nil {
		log.Fatal(err)
	}

	mux := http.NewServeMux()
	mux.Handle("GET /paid/hello", pw.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintln(w, "hello, paying customer")
	})))
	mux.Handle("/facilitator/", &facilitator.Handler{Facilitator: fac, Network: *network})
	srv := &http.Server{Addr: *addr, Handler: mux}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	log.Printf("selling GET /paid/hello for %s on %s", *price, *addr)
	if err := srv.ListenAndServe(); err != http.ErrServerClosed {
		log.Fatal(err)
	}
}
