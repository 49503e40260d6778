package facilitator

import (
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"math/big"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// deployFreeRider deploys a FreeRiderAccount owned by owner.
func (e *env) deployFreeRider(owner common.Address) common.Address {
	e.t.Helper()
	return e.deploy(contracts.FreeRiderAccountMetaData.Bin, contracts.NewFreeRiderAccount().PackConstructor(e.chain.Contracts.EntryPoint, owner))
}

// deploy deploys a contract from a funded devnet account and returns its
// address.
func (e *env) deploy(bin string, args []byte) common.Address {
	e.t.Helper()
	ctx := context.Background()
	deployer := e.chain.Accounts[7]
	nonce, err := e.eth.PendingNonceAt(ctx, deployer.Address)
	if err != nil {
		e.t.Fatal(err)
	}
	tx, err := types.SignNewTx(deployer.Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, Data: append(common.FromHex(bin), args...), Gas: 3_000_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e9 + 1e11),
	})
	if err != nil {
		e.t.Fatal(err)
	}
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	receipt, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil || receipt.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("deploying a contract: %+v %v", receipt, err)
	}
	return receipt.ContractAddress
}

// openPaymaster deploys an OpenPaymaster with an EntryPoint deposit.
func (e *env) openPaymaster() common.Address {
	e.t.Helper()
	pm := e.deploy(contracts.OpenPaymasterMetaData.Bin, nil)
	deposit := e.transfer(e.chain.Accounts[7].Key, e.chain.Contracts.EntryPoint, new(big.Int).Mul(big.NewInt(10), big.NewInt(1e18)),
		contracts.NewEntryPoint().PackDepositTo(pm), 1e9)
	if r, err := e.chain.Wait(context.Background(), deposit.Hash()); err != nil || r.Status != types.ReceiptStatusSuccessful {
		e.t.Fatalf("depositing for the paymaster: %+v %v", r, err)
	}
	return pm
}

// directPayment builds an aa-native payment of req from the deployed
// account sender (owned by key), with the operation's nonce under
// nonceKey, sponsored by paymaster (an OpenPaymaster, which needs no
// signature), and signed by key.
func (e *env) directPayment(key *ecdsa.PrivateKey, sender, paymaster common.Address, nonceKey int64, req x402.PaymentRequirements) (*x402.VerifyRequest, common.Hash) {
	e.t.Helper()
	settlement, token := e.chain.Contracts.Settlement, e.chain.Token.Address
	payTo := common.HexToAddress(req.PayTo)
	amount, _ := x402.ParseAmount(req.Amount)
	var requestHash common.Hash
	rand.Read(requestHash[:])
	op := contracts.UserOperation{
		Sender: sender, Nonce: new(big.Int).Lsh(big.NewInt(nonceKey), 64), InitCode: []byte{},
		CallData: contracts.NewSimpleAccount().PackExecuteBatch(
			[]common.Address{token, settlement},
			[][]byte{contracts.NewDevUSD().PackApprove(settlement, amount), contracts.NewX402Settlement().PackSettle(payTo, token, amount, requestHash)},
		),
		CallGasLimit: big.NewInt(300_000), VerificationGasLimit: big.NewInt(200_000), PreVerificationGas: big.NewInt(60_000),
		MaxFeePerGas: big.NewInt(1e11), MaxPriorityFeePerGas: big.NewInt(1e9),
		PaymasterAndData: paymaster.Bytes(),
	}
	sig, err := contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), key)
	if err != nil {
		e.t.Fatal(err)
	}
	op.Signature = sig
	payload, _ := json.Marshal(x402.AANativePayload{UserOp: x402.UserOperation(op.Hex()), SettlementCallSpec: x402.SettlementCallSpec{
		Merchant: payTo.Hex(), Token: token.Hex(), Amount: amount.String(), RequestHash: requestHash.Hex(),
	}})
	return &x402.VerifyRequest{X402Version: 2, PaymentPayload: x402.PaymentPayload{X402Version: 2, Accepted: req, Payload: payload}, PaymentRequirements: req}, requestHash
}

// An aa-native settlement counts by its own operation's evidence. A
// dishonest account (FreeRiderAccount: it answers owner() and signs like a
// SimpleAccount, but runs only its first execution in a block) has two
// operations, each paying the price, bundled together: the EntryPoint
// reports both as successful, and the bundle holds one transfer from the
// account to the merchant. That transfer used to count for both, so one
// payment bought two responses. Now only the settlement contract's Settled
// event for the operation's own request hash counts: the free rider's
// operation is not served and its sender is refused for a while, and the
// operation that paid is served once.
//
// v0.6's VerifyingPaymaster signs over a per-sender nonce, so of two
// operations of one sender it sponsored at once, the bundle's simulation
// drops the second (AA34) and settles them apart; the operations here are
// sponsored by an OpenPaymaster, as paymasters without that nonce (v0.7's
// VerifyingPaymaster) would sponsor them.
func TestFreeRiderIsNotServed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{aaNative: true})
	paymaster := e.openPaymaster()
	// Both operations in one bundle: it goes out when the second arrives.
	e.stop()
	e.cfg.AANative.EntryPoints[0].Paymaster = paymaster
	e.cfg.AANative.MaxBundle, e.cfg.AANative.BundleWait = 2, 10*time.Minute
	e.cfg.ReceiptTimeout = 2 * time.Minute
	e.start()

	ownerKey, _ := crypto.GenerateKey()
	account := e.deployFreeRider(crypto.PubkeyToAddress(ownerKey.PublicKey))
	const price = 5_000
	fund := e.transfer(e.chain.Accounts[5].Key, e.chain.Token.Address, nil, contracts.NewDevUSD().PackTransfer(account, big.NewInt(2*price)), 1e9)
	if _, err := e.chain.Wait(context.Background(), fund.Hash()); err != nil {
		t.Fatal(err)
	}
	merchant := common.Address{0x77, 0x01}
	req := e.aaRequirements(merchant, price)
	payments := make([]*x402.VerifyRequest, 2)
	hashes := make([]common.Hash, 2)
	for i := range payments {
		payments[i], hashes[i] = e.directPayment(ownerKey, account, paymaster, int64(i), req)
	}

	results := make([]x402.SettleResponse, 2)
	var wg sync.WaitGroup
	for i := range payments {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.post("settle", payments[i], &results[i])
		}()
	}
	wg.Wait()

	settlement := contracts.NewX402Settlement()
	paid := -1
	for i, h := range hashes {
		var out hexutil.Bytes
		e.rpcCall(&out, e.chain.Contracts.Settlement, settlement.PackIsSettled(h))
		if done, _ := settlement.UnpackIsSettled(out); done {
			if paid >= 0 {
				t.Fatal("both request hashes are settled on chain")
			}
			paid = i
		}
	}
	if paid < 0 {
		t.Fatalf("neither request hash is settled on chain: %+v", results)
	}
	rider := 1 - paid
	if results[0].TransactionHash == "" || results[0].TransactionHash != results[1].TransactionHash {
		t.Fatalf("the operations were not bundled together: %+v", results)
	}
	if got := results[paid]; !got.Success || got.RequestHash != hashes[paid].Hex() {
		t.Fatalf("the operation that paid: %+v", got)
	}
	if got := results[rider]; got.Success || got.ErrorCode != x402.ErrorUserOpFailed || got.RequestHash != hashes[rider].Hex() {
		t.Fatalf("the free rider's operation was answered %+v; want user_op_failed", got)
	}
	if got := e.balance(merchant); got.Cmp(big.NewInt(price)) != 0 {
		t.Fatalf("the merchant holds %s, want %d", got, price)
	}
	if got := e.balance(account); got.Cmp(big.NewInt(price)) != 0 {
		t.Fatalf("the account holds %s, want %d", got, price)
	}

	// Once each: the free rider's retry gets its failure again, and the
	// paid payment, presented again by another request, is replay.
	var again x402.SettleResponse
	if e.post("settle", payments[rider], &again); again.Success || again.ErrorCode != x402.ErrorUserOpFailed {
		t.Fatalf("the free rider's retry: %+v", again)
	}
	if e.post("settle", payments[paid], &again); again.Success || again.ErrorCode != x402.ErrorVerifyFailed || !strings.HasPrefix(again.Message, string(x402.ReasonReplay)) {
		t.Fatalf("the paid payment presented again: %+v", again)
	}
	// The sender is in the penalty box.
	next, _ := e.directPayment(ownerKey, account, paymaster, 2, req)
	var v x402.VerifyResponse
	if e.post("verify", next, &v); v.IsValid || v.InvalidReason != x402.ReasonInvalidInnerPayload || !strings.Contains(v.InvalidMessage, "refused until") {
		t.Fatalf("the free rider's next payment: %+v", v)
	}
}
