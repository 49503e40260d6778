package paymaster

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// Drain after verify: the account's owner moves the tokens out with a
// direct execute between sponsorship and the bundle, so the operation's
// execution reverts and the paymaster pays for nothing. ERC-4337 allows
// it; what it can cost is bounded: the failure is charged to the project
// (its daily cap), and neither the account nor any other account of its
// owner is sponsored again for FailurePause.
func TestFailedExecutionSuspendsSenderAndOwner(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	a := e.newAccount()
	owner := crypto.PubkeyToAddress(a.owner.PublicKey)
	f, tok := contracts.NewSimpleAccountFactory(), contracts.NewDevUSD()
	e.send(e.chain.Accounts[0].Key, e.chain.Contracts.AccountFactory, f.PackCreateAccount(owner, big.NewInt(0)), 500_000)
	e.send(e.chain.Accounts[1].Key, e.chain.Token.Address, tok.PackTransfer(a.sender, big.NewInt(5)), 100_000)
	nonce, _ := e.eth.PendingNonceAt(ctx, e.chain.Accounts[2].Address)
	fund, _ := types.SignNewTx(e.chain.Accounts[2].Key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &owner, Value: big.NewInt(1e18), Gas: 21_000,
		GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11)})
	if err := e.eth.SendTransaction(ctx, fund); err != nil {
		t.Fatal(err)
	}
	if _, err := e.chain.Wait(ctx, fund.Hash()); err != nil {
		t.Fatal(err)
	}

	res, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 0, false, e.settleCall(e.chain.Token.Address, 5)), e.chain.Contracts.EntryPoint.Hex())
	if res.Error != nil {
		t.Fatalf("sponsor: %+v", res.Error)
	}
	op := decodeOp(t, res.Result)
	op.Signature, _ = contracts.SignHash(contracts.UserOpHash(op, e.chain.Contracts.EntryPoint, e.chain.ChainID), a.owner)

	// The owner empties the account, then the operation is bundled.
	e.send(a.owner, a.sender, contracts.NewSimpleAccount().PackExecute(e.chain.Token.Address, new(big.Int), tok.PackTransfer(owner, big.NewInt(5))), 200_000)
	ep := contracts.NewEntryPoint()
	r := e.send(e.chain.Accounts[3].Key, e.chain.Contracts.EntryPoint, ep.PackHandleOps([]contracts.UserOperation{op}, e.chain.Accounts[3].Address), 3_000_000)
	var ev *contracts.EntryPointUserOperationEvent
	for _, l := range r.Logs {
		if x, err := ep.UnpackUserOperationEventEvent(l); err == nil {
			ev = x
		}
	}
	if ev == nil || ev.Success || ev.ActualGasCost.Sign() == 0 {
		t.Fatalf("the drained operation: %+v", ev)
	}
	// Its cost stays charged to the project: the daily cap counts it.
	u, _ := e.svc.Usage(ctx, "demo")
	if u.InFlight != 0 || u.SpentToday.Cmp(ev.ActualGasCost) != 0 {
		t.Fatalf("usage after the failure: %+v, the operation cost %s", u, ev.ActualGasCost)
	}
	t.Logf("the failed operation cost the paymaster %s wei (%s gas)", ev.ActualGasCost, ev.ActualGasUsed)

	// The account, and a new account of the same owner, are refused.
	again, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(a, 1, false, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
	if again.Error == nil || again.Error.Code != -32504 || !strings.Contains(again.Error.Message, "failed in execution") {
		t.Fatalf("the same account again: %+v", again.Error)
	}
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactory, f.PackGetAddress(owner, big.NewInt(1)), &out)
	siblingSender, _ := f.UnpackGetAddress(out)
	sibling := account{owner: a.owner, sender: siblingSender, initCode: append(e.chain.Contracts.AccountFactory.Bytes(), f.PackCreateAccount(owner, big.NewInt(1))...)}
	fresh := unsigned(sibling, 0, true, e.settleCall(e.chain.Token.Address, 1))
	other, _ := e.call(e.sponsor, "pm_sponsor_userop", fresh, e.chain.Contracts.EntryPoint.Hex())
	if other.Error == nil || other.Error.Code != -32504 {
		t.Fatalf("another account of the owner: %+v", other.Error)
	}
	// Someone else is still sponsored.
	ok, _ := e.call(e.sponsor, "pm_sponsor_userop", unsigned(e.newAccount(), 0, true, e.settleCall(e.chain.Token.Address, 1)), e.chain.Contracts.EntryPoint.Hex())
	if ok.Error != nil {
		t.Fatalf("an unrelated account: %+v", ok.Error)
	}
	// A restart keeps the suspension.
	e.restart(nil)
	if other, _ := e.call(e.sponsor, "pm_sponsor_userop", fresh, e.chain.Contracts.EntryPoint.Hex()); other.Error == nil || other.Error.Code != -32504 {
		t.Fatalf("another account of the owner, after a restart: %+v", other.Error)
	}
}
