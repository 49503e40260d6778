// Command verifybody prints a valid POST /verify body for bench/cgo.sh: it
// reads the 402 challenge of a paid route served on the devnet, signs the
// route's exact offer with devnet test account #1 (funded, and public), and
// writes the request as JSON. /verify spends nothing, so the same body
// verifies again and again until its authorization expires, which is the
// offer's max_timeout from now.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/big"
	"net/http"
	"os"
	"time"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/x402"
)

func main() {
	url := flag.String("url", "", "a paid route whose 402 offers the exact scheme on the devnet")
	flag.Parse()
	if err := run(*url); err != nil {
		log.Fatalf("verifybody: %v", err)
	}
}

func run(url string) error {
	if url == "" {
		return errors.New("-url is required")
	}
	resp, err := (&http.Client{Timeout: 30 * time.Second}).Get(url)
	if err != nil {
		return fmt.Errorf("reading the challenge: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusPaymentRequired {
		return fmt.Errorf("reading the challenge: %s answered %s, not 402", url, resp.Status)
	}
	var challenge x402.PaymentRequired
	if err := json.NewDecoder(resp.Body).Decode(&challenge); err != nil {
		return fmt.Errorf("decoding the challenge: %w", err)
	}
	var offer *x402.PaymentRequirements
	for i := range challenge.Accepts {
		if challenge.Accepts[i].Scheme == x402.SchemeExact {
			offer = &challenge.Accepts[i]
			break
		}
	}
	if offer == nil {
		return fmt.Errorf("%s offers no exact payment", url)
	}
	key, err := devnet.DeriveKey(devnet.TestMnemonic, 1)
	if err != nil {
		return err
	}
	payer := &client.Transport{Key: key, MaxAmount: big.NewInt(1_000_000)}
	payload, err := payer.Pay(&challenge, offer)
	if err != nil {
		return fmt.Errorf("signing the payment: %w", err)
	}
	return json.NewEncoder(os.Stdout).Encode(x402.VerifyRequest{
		X402Version: x402.Version, PaymentPayload: *payload, PaymentRequirements: *offer,
	})
}
