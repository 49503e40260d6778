package aanative

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// eventLog ABI-encodes event name of the contract described by meta,
// emitted by address, with its indexed arguments as topics.
func eventLog(t *testing.T, meta *bind.MetaData, address common.Address, name string, indexed []common.Hash, data ...any) *types.Log {
	t.Helper()
	parsed, err := meta.ParseABI()
	if err != nil {
		t.Fatal(err)
	}
	ev := parsed.Events[name]
	packed, err := ev.Inputs.NonIndexed().Pack(data...)
	if err != nil {
		t.Fatal(err)
	}
	return &types.Log{Address: address, Topics: append([]common.Hash{ev.ID}, indexed...), Data: packed}
}

// TestOutcomeCountsOwnEvidence reads synthetic bundle receipts: the
// operation counts as paid only with the EntryPoint's own success event
// for it and the settlement contract's Settled event for its own request
// hash, payer, merchant, token and amount.
func TestOutcomeCountsOwnEvidence(t *testing.T) {
	t.Parallel()
	s := newScheme(t)
	entryPoint := s.cfg.EntryPoints[0].EntryPoint.Address()
	payer := common.HexToAddress("0x00000000000000000000000000000000000000aa")
	userOpHash, requestHash := common.Hash{0x01}, common.Hash{0x02}
	rec := &store.Record{Scheme: x402.SchemeAANative, Payer: payer, PayTo: merchant, Asset: token, Amount: big.NewInt(10),
		UserOpHash: userOpHash, RequestHash: requestHash}

	opEvent := func(from common.Address, hash common.Hash, success bool) *types.Log {
		return eventLog(t, &contracts.EntryPointMetaData, from, "UserOperationEvent",
			[]common.Hash{hash, common.BytesToHash(payer[:]), {}}, big.NewInt(0), success, big.NewInt(1), big.NewInt(1))
	}
	settled := func(from common.Address, rh common.Hash, to common.Address, amount int64) *types.Log {
		return eventLog(t, &contracts.X402SettlementMetaData, from, "Settled",
			[]common.Hash{rh, common.BytesToHash(payer[:]), common.BytesToHash(to[:])}, token, big.NewInt(amount))
	}
	transfer := eventLog(t, &contracts.DevUSDMetaData, token, "Transfer",
		[]common.Hash{common.BytesToHash(payer[:]), common.BytesToHash(merchant[:])}, big.NewInt(10))
	other := common.HexToAddress("0x00000000000000000000000000000000000000bb")

	tests := []struct {
		name string
		logs []*types.Log
		want scheme.Verdict
		code x402.ErrorCode
	}{
		{"paid", []*types.Log{settled(settlement, requestHash, merchant, 10), opEvent(entryPoint, userOpHash, true)}, scheme.Paid, ""},
		{"not in the bundle", []*types.Log{opEvent(entryPoint, common.Hash{0x09}, true)}, scheme.NotIncluded, x402.ErrorUserOpFailed},
		{"reverted", []*types.Log{opEvent(entryPoint, userOpHash, false)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"success without settling, beside a transfer of the same amount", []*types.Log{transfer, opEvent(entryPoint, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"another request hash settled", []*types.Log{settled(settlement, common.Hash{0x03}, merchant, 10), opEvent(entryPoint, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"another merchant", []*types.Log{settled(settlement, requestHash, other, 10), opEvent(entryPoint, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"another amount", []*types.Log{settled(settlement, requestHash, merchant, 9), opEvent(entryPoint, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"Settled from another contract", []*types.Log{settled(other, requestHash, merchant, 10), opEvent(entryPoint, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
		{"success event from another contract", []*types.Log{settled(settlement, requestHash, merchant, 10), opEvent(other, userOpHash, true)}, scheme.NotIncluded, x402.ErrorUserOpFailed},
		{"a forged success after the EntryPoint's failure", []*types.Log{opEvent(entryPoint, userOpHash, false), settled(settlement, requestHash, merchant, 10), opEvent(other, userOpHash, true)}, scheme.Reverted, x402.ErrorUserOpFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			receipt := &types.Receipt{Status: types.ReceiptStatusSuccessful, Logs: tc.logs}
			got := s.Outcome(rec, receipt)
			if got.Verdict != tc.want || got.Code != tc.code {
				t.Fatalf("Outcome = %+v, want verdict %d, code %q", got, tc.want, tc.code)
			}
		})
	}
}

// SettledElsewhere's topic is the UserOperationEvent of both EntryPoints.
func TestUserOperationEventID(t *testing.T) {
	t.Parallel()
	a06, _ := contracts.EntryPointMetaData.ParseABI()
	a07, _ := ep07.EntryPointMetaData.ParseABI()
	if a06.Events["UserOperationEvent"].ID != userOperationEventID || a07.Events["UserOperationEvent"].ID != userOperationEventID {
		t.Fatalf("topic %s, EntryPoints' %s and %s", userOperationEventID, a06.Events["UserOperationEvent"].ID, a07.Events["UserOperationEvent"].ID)
	}
}
