// Command verify writes the request bodies of bench/verify.sh: n distinct
// POST /verify bodies, each an exact payment signed by one of the devnet's
// funded test accounts (#1 to #payers, of the well-known test mnemonic),
// with a random EIP-3009 nonce of its own, one JSON body a line.
//
// It reads the token's EIP-712 domain from the chain (eip712Domain() of the
// devnet's stablecoin) and checks that every payer holds the amount, so
// that every body verifies: /verify spends nothing, so a body stays valid
// until its authorization expires (-validity from now). It prints the
// facts the facilitator's configuration needs as shell assignments
// (NETWORK, TOKEN, TOKEN_NAME, TOKEN_VERSION) and, with -settler-key, writes
// test account #0's key, the devnet's settler, to that file.
package main

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/big"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

func main() {
	var cfg config
	flag.StringVar(&cfg.rpc, "rpc", "http://127.0.0.1:18545", "the devnet's JSON-RPC URL")
	flag.IntVar(&cfg.n, "n", 20000, "how many distinct bodies to write")
	flag.IntVar(&cfg.payers, "payers", 9, "how many test accounts pay (#1 to #payers; at most 9: #0 is the settler)")
	flag.StringVar(&cfg.amount, "amount", "10000", "the price, in atomic units of the token")
	flag.StringVar(&cfg.payTo, "pay-to", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", "the merchant")
	flag.DurationVar(&cfg.validity, "validity", time.Hour, "how long the authorizations stay valid")
	flag.StringVar(&cfg.out, "out", "", "the file the bodies are written to, one a line")
	flag.StringVar(&cfg.settlerKey, "settler-key", "", "if set, the file test account #0's key (the devnet's settler) is written to")
	flag.Parse()
	if err := run(context.Background(), cfg); err != nil {
		log.Fatalf("verify: %v", err)
	}
}

type config struct {
	rpc, amount, payTo, out, settlerKey string
	n, payers                           int
	validity                            time.Duration
}

func run(ctx context.Context, cfg config) error {
	switch {
	case cfg.out == "":
		return errors.New("-out is required")
	case cfg.n <= 0:
		return errors.New("-n must be positive")
	case cfg.payers < 1 || cfg.payers >= devnet.DefaultAccounts:
		return fmt.Errorf("-payers must be 1 to %d", devnet.DefaultAccounts-1)
	case !common.IsHexAddress(cfg.payTo):
		return fmt.Errorf("-pay-to %q is not an address", cfg.payTo)
	}
	amount, err := x402.ParseAmount(cfg.amount)
	if err != nil {
		return err
	}
	eth, err := ethclient.DialContext(ctx, cfg.rpc)
	if err != nil {
		return fmt.Errorf("dialing %s: %w", cfg.rpc, err)
	}
	defer eth.Close()
	chainID, err := eth.ChainID(ctx)
	if err != nil {
		return fmt.Errorf("reading the chain id: %w", err)
	}
	settler, err := devnet.DeriveKey(devnet.TestMnemonic, 0)
	if err != nil {
		return err
	}
	// The devnet's genesis deploys the token with the deployer's (test
	// account #0's) fourth transaction.
	token := crypto.CreateAddress(crypto.PubkeyToAddress(settler.PublicKey), 3)
	dusd := contracts.NewDevUSD()
	out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: dusd.PackEip712Domain()}, nil)
	if err != nil {
		return fmt.Errorf("reading the token's EIP-712 domain: %w", err)
	}
	domain, err := dusd.UnpackEip712Domain(out)
	if err != nil {
		return fmt.Errorf("reading the token's EIP-712 domain at %s (is this the devnet?): %w", token, err)
	}
	keys := make([]*ecdsa.PrivateKey, cfg.payers)
	for i := range keys {
		if keys[i], err = devnet.DeriveKey(devnet.TestMnemonic, uint32(i+1)); err != nil {
			return err
		}
		payer := crypto.PubkeyToAddress(keys[i].PublicKey)
		out, err := eth.CallContract(ctx, ethereum.CallMsg{To: &token, Data: dusd.PackBalanceOf(payer)}, nil)
		if err != nil {
			return fmt.Errorf("reading the balance of %s: %w", payer, err)
		}
		if bal, err := dusd.UnpackBalanceOf(out); err != nil || bal.Cmp(amount) < 0 {
			return fmt.Errorf("payer %s holds %v of %s, less than the price %s (%v)", payer, bal, token, amount, err)
		}
	}
	offer := x402.PaymentRequirements{
		Scheme: x402.SchemeExact, Network: x402.FormatNetwork(chainID.Uint64()), Amount: amount.String(),
		Asset: token.Hex(), PayTo: common.HexToAddress(cfg.payTo).Hex(), MaxTimeoutSeconds: int(cfg.validity / time.Second),
		Extra: &x402.Extra{Name: domain.Name, Version: domain.Version},
	}
	challenge := &x402.PaymentRequired{X402Version: x402.Version, Accepts: []x402.PaymentRequirements{offer},
		Resource: &x402.Resource{URL: "http://127.0.0.1/paid/bench"}}
	bodies, err := sign(keys, challenge, &offer, cfg.n)
	if err != nil {
		return err
	}
	if err := writeLines(cfg.out, bodies); err != nil {
		return err
	}
	if cfg.settlerKey != "" {
		if err := os.WriteFile(cfg.settlerKey, []byte(hex.EncodeToString(crypto.FromECDSA(settler))), 0o600); err != nil {
			return err
		}
	}
	fmt.Printf("NETWORK=%s\nTOKEN=%s\nTOKEN_NAME=%s\nTOKEN_VERSION=%s\n", offer.Network, token.Hex(),
		strconv.Quote(domain.Name), strconv.Quote(domain.Version))
	return nil
}

// sign signs n payments of offer, spread over the keys, on every core.
func sign(keys []*ecdsa.PrivateKey, challenge *x402.PaymentRequired, offer *x402.PaymentRequirements, n int) ([][]byte, error) {
	bodies := make([][]byte, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	workers := runtime.GOMAXPROCS(0)
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n; i += workers {
				payer := &client.Transport{Key: keys[i%len(keys)], MaxAmount: new(big.Int).SetUint64(1 << 62)}
				payload, err := payer.Pay(challenge, offer)
				if err != nil {
					errs[i] = fmt.Errorf("signing payment %d: %w", i, err)
					continue
				}
				bodies[i], errs[i] = json.Marshal(x402.VerifyRequest{
					X402Version: x402.Version, PaymentPayload: *payload, PaymentRequirements: *offer,
				})
			}
		})
	}
	wg.Wait()
	return bodies, errors.Join(errs...)
}

func writeLines(path string, lines [][]byte) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	for _, l := range lines {
		w.Write(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
