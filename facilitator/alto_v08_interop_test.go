package facilitator

import (
	"context"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/x402"
)

// TestExternalBundlerV08 settles v0.8 aa-native payments through alto, a
// real ERC-7769 bundler of EntryPoint v0.8, given as that EntryPoint's own
// bundler_url: a SimpleAccount's, and an EOA's that delegates to
// Simple7702Account in its first operation (alto carries the
// authorization in a set-code transaction). Each bundle is sent by alto's
// executor, not the settler; the merchant is paid once per payment.
func TestExternalBundlerV08(t *testing.T) {
	t.Parallel()
	// A block a second and a long receipt timeout, as for alto's v0.7
	// tests (newAltoEnv).
	e := newEnvB(t, envOptions{aaNative: true, v08: true, chainID: 1337, settler: 8, receiptTimeout: 3 * time.Minute, blockPeriod: time.Second})
	url := e.startAlto([]common.Address{e.chain.Contracts.EntryPointV08})
	e.stop()
	for i := range e.cfg.AANative.EntryPoints {
		if e.cfg.AANative.EntryPoints[i].EntryPoint.Address() == e.chain.Contracts.EntryPointV08 {
			e.cfg.AANative.EntryPoints[i].BundlerURL = url
		}
	}
	e.start()

	merchant := e.chain.Accounts[4].Address
	for _, v := range []struct {
		name    string
		payer   int
		account common.Address
		eoa     bool
	}{
		{"SimpleAccount", 1, e.chain.Contracts.SmartAccountsV08[1], false},
		{"EIP-7702 EOA", 2, e.chain.Accounts[2].Address, true},
	} {
		before, paid := e.balance(merchant), e.balance(v.account)
		req := e.aaPayV08(e.chain.Accounts[v.payer].Key, e.aaRequirementsV08(merchant, 6_000), v.eoa)
		ctx := x402.WithIdempotencyKey(context.Background(), "alto-v08-"+v.name)
		res, err := e.client.Settle(ctx, req)
		if err != nil || !res.Success || res.UserOpHash == "" || res.Payer != v.account.Hex() {
			t.Fatalf("%s: settle via alto: %+v %v", v.name, res, err)
		}
		receipt, err := e.eth.TransactionReceipt(context.Background(), common.HexToHash(res.TransactionHash))
		if err != nil || receipt.Status != 1 {
			t.Fatalf("%s: receipt %v %v", v.name, receipt, err)
		}
		tx, _, _ := e.eth.TransactionByHash(context.Background(), receipt.TxHash)
		from, _ := types.Sender(types.LatestSignerForChainID(e.chain.ChainID), tx)
		if from != e.chain.Accounts[5].Address {
			t.Fatalf("%s: the bundle was sent by %s; want alto's executor %s", v.name, from, e.chain.Accounts[5].Address)
		}
		if v.eoa && (tx.Type() != types.SetCodeTxType || len(tx.SetCodeAuthorizations()) != 1) {
			t.Fatalf("%s: alto sent a type %d transaction with %d authorizations, want a set-code transaction with the EOA's", v.name, tx.Type(), len(tx.SetCodeAuthorizations()))
		}
		if got := new(big.Int).Sub(e.balance(merchant), before); got.Int64() != 6_000 {
			t.Fatalf("%s: the merchant got %s, want 6000", v.name, got)
		}
		if got := new(big.Int).Sub(paid, e.balance(v.account)); got.Int64() != 6_000 {
			t.Fatalf("%s: the payer paid %s, want 6000", v.name, got)
		}
		again, _ := e.client.Settle(ctx, req)
		if again == nil || again.TransactionHash != res.TransactionHash || !again.Success {
			t.Fatalf("%s: the retry answered %+v, want %s", v.name, again, res.TransactionHash)
		}
		t.Logf("alto bundled the v0.8 %s settlement in %s (type %d): %d gas", v.name, res.TransactionHash, tx.Type(), receipt.GasUsed)
	}
}
