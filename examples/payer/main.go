// Command payer pays for an x402-protected URL with the caddy-x402 Go client
// and prints the answer and its on-chain receipt.
//
//	go run ./examples/payer -url http://localhost:8080/paid/report
//
// By default it pays with test account #1 of the devnet's public test
// mnemonic, at most 0.05 tokens of 6 decimals, in the exact scheme.
// -scheme aa-native pays from the key's ERC-4337 smart account instead (it
// deploys itself on its first payment; the devnet funds the test keys'
// smart accounts). -wallet pays exact from a contract wallet the key signs
// for (ERC-1271), and -wallet-factory with -wallet-factory-data deploy it
// with the payment (ERC-6492) while it has no code; -owner-wallet N is the
// key's OwnerWallet of salt N on the devnet, deployed or not. With
// -scheme aa-native, -gas-token <address> -gas-type 1|2 has the smart
// account pay its gas in that ERC-20 (a deployed account that has approved
// the token paymaster; a first payment, which deploys it, has free gas).
// An EIP-7702
// EOA needs no flag: it pays as itself. Give another key in the X402_KEY environment variable:
// -key works too, but a key on the command line shows in ps and in the
// shell's history, and the payer warns of it.
package main

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// devnetAccount1 is test account #1 of the public test mnemonic; it holds
// dUSD on the devnet. Never use it on a real chain.
const devnetAccount1 = "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"

func main() {
	url := flag.String("url", "http://localhost:8080/paid/report", "the paid URL")
	keyHex := flag.String("key", os.Getenv("X402_KEY"), "hex private key of the payer (default: X402_KEY, else devnet test account #1); prefer X402_KEY, since a key on the command line shows in ps")
	maxPrice := flag.String("max", "0.05", "the most to pay, in whole tokens")
	decimals := flag.Uint("decimals", 6, "the token's decimals, for -max")
	scheme := flag.String("scheme", "exact", "exact (EIP-3009 from the key's address or a contract wallet, or Permit2 for a token offered with assetTransferMethod permit2), upto (Permit2, at most -max; charged what the response used) or aa-native (ERC-4337 from the key's smart account)")
	rpcURL := flag.String("rpc", "http://127.0.0.1:8545", "the chain's JSON-RPC (aa-native reads the smart account from it, a wallet its code, Permit2 payments the allowance of Permit2)")
	walletAddr := flag.String("wallet", "", "pay exact from this contract wallet, which the key signs for (ERC-1271)")
	factory := flag.String("wallet-factory", "", "the factory that deploys -wallet (ERC-6492), while it has no code")
	factoryData := flag.String("wallet-factory-data", "", "the hex calldata of -wallet-factory's call that deploys -wallet")
	ownerWallet := flag.Int64("owner-wallet", -1, "pay from the key's OwnerWallet of this salt on the devnet (deployed with the payment if need be)")
	gasToken := flag.String("gas-token", "", "aa-native: pay the gas in this ERC-20 (a gas token of the paymaster) instead of free gas; the smart account must be deployed and have approved the token paymaster")
	gasType := flag.Int("gas-type", 1, "aa-native with -gas-token: 1 (the maximum gas cost taken before the call, the rest refunded) or 2 (the actual cost taken after it)")
	flag.Parse()
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "key" {
			fmt.Fprintln(os.Stderr, "warning: -key puts the private key where ps and the shell's history show it; pass it in X402_KEY instead")
		}
	})

	if *keyHex == "" {
		*keyHex = devnetAccount1
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(*keyHex, "0x"))
	if err != nil {
		fail("the key is not a hex secp256k1 private key")
	}
	limit, err := paywall.ParsePrice(*maxPrice, uint8(*decimals))
	if err != nil {
		fail(err.Error())
	}
	max, _ := new(big.Int).SetString(limit, 10)

	tr := &client.Transport{Key: key, MaxAmount: max, Schemes: []string{*scheme}, RPC: *rpcURL}
	if *gasToken != "" {
		if !common.IsHexAddress(*gasToken) || (*gasType != 1 && *gasType != 2) {
			fail("-gas-token takes a 0x address and -gas-type 1 or 2")
		}
		tr.Gas = x402.SponsorContext{Type: *gasType, Token: common.HexToAddress(*gasToken).Hex()}
	}
	payer := crypto.PubkeyToAddress(key.PublicKey)
	switch {
	case *ownerWallet >= 0:
		w, err := devnetWallet(*rpcURL, payer, *ownerWallet)
		if err != nil {
			fail(err.Error())
		}
		tr.Wallet = w
	case *walletAddr != "":
		if !common.IsHexAddress(*walletAddr) || (*factory != "" && !common.IsHexAddress(*factory)) {
			fail("-wallet and -wallet-factory take 0x addresses")
		}
		data, err := hexutil.Decode(cmp.Or(*factoryData, "0x"))
		if err != nil {
			fail("-wallet-factory-data is not 0x hex")
		}
		tr.Wallet = &client.Wallet{Address: common.HexToAddress(*walletAddr), FactoryData: data}
		if *factory != "" {
			tr.Wallet.Factory = common.HexToAddress(*factory)
		}
	}
	if tr.Wallet != nil {
		fmt.Printf("wallet %s, signed for by\n", tr.Wallet.Address)
	}
	c := &http.Client{Timeout: 2 * time.Minute, Transport: tr}
	fmt.Printf("payer %s\nGET %s\n", payer, *url)
	resp, err := c.Get(*url)
	if err != nil {
		fail(err.Error())
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fmt.Printf("%s\n%s\n", resp.Status, body)
	receipt, ok, err := client.Receipt(resp)
	switch {
	case err != nil:
		fail("PAYMENT-RESPONSE does not decode: " + err.Error())
	case !ok && resp.StatusCode == http.StatusServiceUnavailable:
		// Nothing was paid: the same request may be sent again, and the
		// client signs a new payment (or the server finishes the old one).
		fmt.Printf("the server is busy (503): retry after %s s\n", cmp.Or(resp.Header.Get("Retry-After"), "a few"))
		os.Exit(1)
	case !ok && resp.StatusCode == http.StatusPaymentRequired:
		fail("the payment was refused (402): " + string(body))
	case !ok:
		fmt.Println("(no payment was needed)")
	case receipt.Success:
		// An upstream server's receipt names no asset or scheme.
		line := "paid " + receipt.Amount
		if receipt.Asset != "" {
			line += " of " + receipt.Asset
		}
		line += " on " + receipt.Network
		if receipt.Scheme != "" {
			line += " (" + receipt.Scheme + ")"
		}
		fmt.Printf("%s\ntransaction %s\n", line, receipt.TransactionHash)
		if receipt.UserOpHash != "" {
			fmt.Printf("userOpHash %s\nrequestHash %s\n", receipt.UserOpHash, receipt.RequestHash)
		}
	default:
		fail(fmt.Sprintf("payment failed: %s %s", receipt.ErrorCode, receipt.Message))
	}
	if resp.StatusCode/100 != 2 {
		os.Exit(1)
	}
}

// devnetWallet is owner's OwnerWallet of salt on the devnet's
// OwnerWalletFactory, read from rpc.
func devnetWallet(rpc string, owner common.Address, salt int64) (*client.Wallet, error) {
	eth, err := ethclient.Dial(rpc)
	if err != nil {
		return nil, err
	}
	defer eth.Close()
	factory := wellknown.GenesisContracts().WalletFactory
	f := contracts.NewOwnerWalletFactory()
	var s [32]byte
	big.NewInt(salt).FillBytes(s[:])
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: f.PackGetAddress(owner, s)}, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the OwnerWallet's address from %s: %w", rpc, err)
	}
	addr, err := f.UnpackGetAddress(out)
	if err != nil {
		return nil, fmt.Errorf("no OwnerWalletFactory answers on %s: %w", rpc, err)
	}
	return &client.Wallet{Address: addr, Factory: factory, FactoryData: f.PackCreateWallet(owner, s)}, nil
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "payer:", msg)
	os.Exit(1)
}
