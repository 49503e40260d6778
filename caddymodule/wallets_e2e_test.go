package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/x402"
)

const walletsCaddyfile = `{
	x402 {
		network devnet
		devnet_addr 127.0.0.1:{{chain}}
	}
}

http://127.0.0.1:{{api}} {
	x402_path_guard
	handle /paid/* {
		x402 0.01 {
			pay_to 0x90F79bf6EB2c4f870365E785982E1f101E93b906
		}
		respond "paid content"
	}
}
`

// TestWalletPayersEndToEnd pays a route through Caddy on the devnet with
// the Go client from each kind of smart-wallet payer: a deployed ERC-1271
// OwnerWallet, an undeployed one (ERC-6492: the settlement deploys it),
// and an EIP-7702 EOA delegated to EOADelegate. Each is charged exactly the
// price, once: the same payment presented again is refused with a 402.
func TestWalletPayersEndToEnd(t *testing.T) {
	chainPort, apiPort := freePort(t), freePort(t)
	api := fmt.Sprintf("http://127.0.0.1:%d", apiPort)
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(chainPort), "{{api}}", fmt.Sprint(apiPort)).Replace(walletsCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	chainURL := fmt.Sprintf("http://127.0.0.1:%d", chainPort)
	eth, err := ethclient.Dial(chainURL)
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	c := wellknown.GenesisContracts()
	e := &e2e{t: t, api: api, eth: eth, token: c.Token, merchant: common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")}
	const price = 10_000 // 0.01 dUSD

	wallet := func() (*ecdsa.PrivateKey, *client.Wallet) { return ownerWallet(t, eth, c.WalletFactory) }
	tests := []struct {
		name  string
		payer func() (*client.Transport, common.Address)
	}{
		{"erc1271 deployed", func() (*client.Transport, common.Address) {
			owner, w := wallet()
			e.send(3, w.Factory, w.FactoryData)
			return &client.Transport{Key: owner, Wallet: &client.Wallet{Address: w.Address}}, w.Address
		}},
		{"erc6492 counterfactual", func() (*client.Transport, common.Address) {
			owner, w := wallet()
			return &client.Transport{Key: owner, Wallet: w, RPC: chainURL}, w.Address
		}},
		{"eip7702", func() (*client.Transport, common.Address) {
			key, _ := crypto.GenerateKey()
			delegate7702(t, eth, key, c.EOADelegate)
			return &client.Transport{Key: key}, crypto.PubkeyToAddress(key.PublicKey)
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e.t = t
			tr, payer := tc.payer()
			e.fund([]common.Address{payer}, price)
			tr.MaxAmount = big.NewInt(price)
			merchantBefore := e.balance(e.merchant)

			var header string
			record := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				if h := r.Header.Get(x402.HeaderPaymentSignature); h != "" {
					header = h
				}
				return http.DefaultTransport.RoundTrip(r)
			})
			tr.Base = record
			resp, err := (&http.Client{Timeout: time.Minute, Transport: tr}).Get(api + "/paid/report")
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			receipt, ok, _ := client.Receipt(resp)
			if resp.StatusCode != http.StatusOK || string(body) != "paid content" || !ok || !receipt.Success || receipt.Payer != payer.Hex() {
				t.Fatalf("paying: %d %s %+v", resp.StatusCode, body, receipt)
			}
			r, err := waitReceipt(eth, receipt.TransactionHash)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("settlement gas through Caddy, %s: %d", tc.name, r.GasUsed)
			if code, _ := eth.CodeAt(context.Background(), payer, nil); len(code) == 0 {
				t.Fatal("the payer has no code after paying")
			}

			// The same payment again buys nothing.
			again, _ := e.get("/paid/report", header)
			if again.StatusCode != http.StatusPaymentRequired {
				t.Fatalf("the payment presented again: %d", again.StatusCode)
			}
			if got := e.balance(payer); got.Sign() != 0 {
				t.Fatalf("payer holds %s, want 0 (charged exactly the price)", got)
			}
			if got, want := e.balance(e.merchant), new(big.Int).Add(merchantBefore, big.NewInt(price)); got.Cmp(want) != 0 {
				t.Fatalf("merchant holds %s, want %s", got, want)
			}
		})
	}
}

// TestWalletPayersInterop pays through Caddy with upstream's @x402/fetch
// and @x402/evm 2.27.0 from an OwnerWallet, deployed and counterfactual
// (interop/smart-wallet.mjs: a signer of the wallet's address that signs
// with its owner's key, wrapped in ERC-6492 by viem until the wallet has
// code). The wallet is charged exactly the price, once.
func TestWalletPayersInterop(t *testing.T) {
	dir := interopModules(t)
	chainPort, apiPort := freePort(t), freePort(t)
	api := fmt.Sprintf("http://127.0.0.1:%d", apiPort)
	cf := strings.NewReplacer("{{chain}}", fmt.Sprint(chainPort), "{{api}}", fmt.Sprint(apiPort)).Replace(walletsCaddyfile)
	if _, err := runCaddyfile(t, cf); err != nil {
		t.Fatal(err)
	}
	eth, err := ethclient.Dial(fmt.Sprintf("http://127.0.0.1:%d", chainPort))
	if err != nil {
		t.Fatal(err)
	}
	defer eth.Close()
	c := wellknown.GenesisContracts()
	e := &e2e{t: t, api: api, eth: eth, token: c.Token, merchant: common.HexToAddress("0x90F79bf6EB2c4f870365E785982E1f101E93b906")}
	for _, deployed := range []bool{true, false} {
		t.Run(fmt.Sprintf("deployed %v", deployed), func(t *testing.T) {
			e.t = t
			owner, w := ownerWallet(t, eth, c.WalletFactory)
			env := []string{"URL=" + api + "/paid/report", "WALLET=" + w.Address.Hex(), fmt.Sprintf("OWNER_KEY=0x%x", crypto.FromECDSA(owner))}
			if deployed {
				e.send(3, w.Factory, w.FactoryData)
			} else {
				env = append(env, "FACTORY="+w.Factory.Hex(), fmt.Sprintf("FACTORY_DATA=0x%x", w.FactoryData))
			}
			e.fund([]common.Address{w.Address}, 10_000)
			merchantBefore := e.balance(e.merchant)
			cmd := exec.Command("node", "smart-wallet.mjs")
			cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
			out, err := cmd.Output()
			var res struct {
				Status  int                 `json:"status"`
				Receipt x402.SettleResponse `json:"receipt"`
			}
			if err != nil || json.Unmarshal(out, &res) != nil || res.Status != 200 || !res.Receipt.Success || res.Receipt.Payer != w.Address.Hex() {
				t.Fatalf("node: %v\n%s", err, out)
			}
			if e.balance(w.Address).Sign() != 0 || e.balance(e.merchant).Cmp(new(big.Int).Add(merchantBefore, big.NewInt(10_000))) != 0 {
				t.Fatal("the wallet was not charged exactly the price")
			}
		})
	}
}

// ownerWallet is a fresh owner key's OwnerWallet of factory: its address
// and the call that deploys it.
func ownerWallet(t *testing.T, eth *ethclient.Client, factory common.Address) (*ecdsa.PrivateKey, *client.Wallet) {
	t.Helper()
	owner, _ := crypto.GenerateKey()
	var salt [32]byte
	rand.Read(salt[:])
	f := contracts.NewOwnerWalletFactory()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	out, err := eth.CallContract(context.Background(), ethereum.CallMsg{To: &factory, Data: f.PackGetAddress(ownerAddr, salt)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr, _ := f.UnpackGetAddress(out)
	return owner, &client.Wallet{Address: addr, Factory: factory, FactoryData: f.PackCreateWallet(ownerAddr, salt)}
}

// roundTripFunc is a function as an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// delegate7702 makes key's EOA run delegate (EIP-7702), with a SetCodeTx
// that devnet account 7 sends and pays for.
func delegate7702(t *testing.T, eth *ethclient.Client, key *ecdsa.PrivateKey, delegate common.Address) {
	t.Helper()
	ctx := context.Background()
	chainID := uint256.NewInt(wellknown.ChainID)
	auth, err := types.SignSetCode(key, types.SetCodeAuthorization{ChainID: *chainID, Address: delegate})
	if err != nil {
		t.Fatal(err)
	}
	sponsor := mustKey(t, 7)
	from := crypto.PubkeyToAddress(sponsor.PublicKey)
	nonce, _ := eth.PendingNonceAt(ctx, from)
	tx, err := types.SignNewTx(sponsor, types.LatestSignerForChainID(chainID.ToBig()), &types.SetCodeTx{
		ChainID: chainID, Nonce: nonce, To: from, Gas: 100_000, GasTipCap: uint256.NewInt(1e9), GasFeeCap: uint256.NewInt(1e11),
		AuthList: []types.SetCodeAuthorization{auth},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := eth.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if r, err := waitReceipt(eth, tx.Hash().Hex()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("delegating: %+v %v", r, err)
	}
}
