package batchsettle_test

import (
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/common/math"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// typed is an EIP-712 message of the settlement contract's domain, hashed
// by go-ethereum's apitypes, as a wallet does.
func typed(t *testing.T, chainID *big.Int, contract common.Address, primary string, types apitypes.Types, msg apitypes.TypedDataMessage) common.Hash {
	t.Helper()
	types["EIP712Domain"] = []apitypes.Type{
		{Name: "name", Type: "string"}, {Name: "version", Type: "string"},
		{Name: "chainId", Type: "uint256"}, {Name: "verifyingContract", Type: "address"},
	}
	h, _, err := apitypes.TypedDataAndHash(apitypes.TypedData{
		Types: types, PrimaryType: primary, Message: msg,
		Domain: apitypes.TypedDataDomain{
			Name: batchsettle.DomainName, Version: batchsettle.DomainVersion,
			ChainId: (*math.HexOrDecimal256)(chainID), VerifyingContract: contract.Hex(),
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return common.BytesToHash(h)
}

// TestDigestsMatchTypedData: the hand-written hashes are EIP-712's, as
// go-ethereum's apitypes (and so a wallet) computes them.
func TestDigestsMatchTypedData(t *testing.T) {
	t.Parallel()
	chainID, contract := big.NewInt(8453), common.HexToAddress("0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003")
	d := batchsettle.NewDomain(chainID, contract)
	cfg := batchsettle.ChannelConfig{
		Payer: common.Address{1}, PayerAuthorizer: common.Address{2}, Receiver: common.Address{3},
		ReceiverAuthorizer: common.Address{4}, Token: common.Address{5}, WithdrawDelay: big.NewInt(900), Salt: [32]byte{6, 31: 7},
	}
	id := d.ChannelID(cfg)
	max := new(big.Int).Lsh(big.NewInt(1), 127)
	for _, tc := range []struct {
		name      string
		got, want common.Hash
	}{
		{"ChannelConfig", id, typed(t, chainID, contract, "ChannelConfig", apitypes.Types{"ChannelConfig": {
			{Name: "payer", Type: "address"}, {Name: "payerAuthorizer", Type: "address"}, {Name: "receiver", Type: "address"},
			{Name: "receiverAuthorizer", Type: "address"}, {Name: "token", Type: "address"}, {Name: "withdrawDelay", Type: "uint40"},
			{Name: "salt", Type: "bytes32"},
		}}, apitypes.TypedDataMessage{
			"payer": cfg.Payer.Hex(), "payerAuthorizer": cfg.PayerAuthorizer.Hex(), "receiver": cfg.Receiver.Hex(),
			"receiverAuthorizer": cfg.ReceiverAuthorizer.Hex(), "token": cfg.Token.Hex(), "withdrawDelay": "900",
			"salt": hexutil.Encode(cfg.Salt[:]),
		})},
		{"Voucher", d.VoucherDigest(id, max), typed(t, chainID, contract, "Voucher", apitypes.Types{"Voucher": {
			{Name: "channelId", Type: "bytes32"}, {Name: "maxClaimableAmount", Type: "uint128"},
		}}, apitypes.TypedDataMessage{"channelId": id.Hex(), "maxClaimableAmount": max.String()})},
		{"Refund", d.RefundDigest(id, big.NewInt(3), big.NewInt(1500)), typed(t, chainID, contract, "Refund", apitypes.Types{"Refund": {
			{Name: "channelId", Type: "bytes32"}, {Name: "nonce", Type: "uint256"}, {Name: "amount", Type: "uint128"},
		}}, apitypes.TypedDataMessage{"channelId": id.Hex(), "nonce": "3", "amount": "1500"})},
		{"ClaimBatch", d.ClaimBatchDigest([]batchsettle.ClaimEntry{
			{ChannelID: id, MaxClaimableAmount: big.NewInt(5000), TotalClaimed: big.NewInt(4000)},
			{ChannelID: common.Hash{9}, MaxClaimableAmount: big.NewInt(7), TotalClaimed: big.NewInt(7)},
		}), typed(t, chainID, contract, "ClaimBatch", apitypes.Types{
			"ClaimBatch": {{Name: "claims", Type: "ClaimEntry[]"}},
			"ClaimEntry": {{Name: "channelId", Type: "bytes32"}, {Name: "maxClaimableAmount", Type: "uint128"}, {Name: "totalClaimed", Type: "uint128"}},
		}, apitypes.TypedDataMessage{"claims": []any{
			map[string]any{"channelId": id.Hex(), "maxClaimableAmount": "5000", "totalClaimed": "4000"},
			map[string]any{"channelId": common.Hash{9}.Hex(), "maxClaimableAmount": "7", "totalClaimed": "7"},
		}})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if tc.got != tc.want {
				t.Errorf("hand-written %s, apitypes %s", tc.got, tc.want)
			}
		})
	}
}

// TestDigestsMatchContract: the devnet's contract computes the same ids
// and digests as the Go code, at its canonical address.
func TestDigestsMatchContract(t *testing.T) {
	t.Parallel()
	h := newHarness(t)
	at := h.d.Contracts.BatchSettlement
	cfg := h.config(newKey(t), newKey(t), common.Address{3}, 9)
	id := h.dom.ChannelID(cfg)
	claims := []batchsettle.VoucherClaim{h.voucher(newKey(t), cfg, 77), h.voucher(newKey(t), withDelay(cfg, 3600), 5)}
	for _, tc := range []struct {
		name string
		call []byte
		want common.Hash
	}{
		{"getChannelId", h.bs.PackGetChannelId(cfg), id},
		{"getVoucherDigest", h.bs.PackGetVoucherDigest(id, big.NewInt(77)), h.dom.VoucherDigest(id, big.NewInt(77))},
		{"getRefundDigest", h.bs.PackGetRefundDigest(id, big.NewInt(2), big.NewInt(10)), h.dom.RefundDigest(id, big.NewInt(2), big.NewInt(10))},
		{"getClaimBatchDigest", h.bs.PackGetClaimBatchDigest(claims), h.dom.ClaimBatchDigest(h.dom.Entries(claims))},
		{"getClaimBatchDigest of none", h.bs.PackGetClaimBatchDigest(nil), h.dom.ClaimBatchDigest(nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := *h
			h.t = t
			if got := common.BytesToHash(h.call(at, tc.call)); got != tc.want {
				t.Errorf("contract %s, Go %s", got, tc.want)
			}
		})
	}
}
