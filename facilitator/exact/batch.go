package exact

import (
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/store"
)

// Batching: an EOA's EIP-3009 authorization can join an X402Batch
// transaction, which calls the token's transferWithAuthorization for each
// of its items and lets one fail without the others (the facilitator's
// batcher gathers them). Its expiry, validBefore, is read back from the
// transaction that carried it, alone or in a batch. Exact is a
// [scheme.Batcher] and a [scheme.Expiring].

// The logs a batched exact settlement is read from.
var (
	authorizationUsedTopic = contracts.NewDevUSD().GetABI().Events["AuthorizationUsed"].ID
	transferFailedTopic    = contracts.NewX402Batch().GetABI().Events["TransferFailed"].ID
)

// tokenABI reads the EIP-3009 calls of a lone exact settlement.
var tokenABI = contracts.NewDevUSD().GetABI()

// BatchItem is pay's X402Batch item, if it can be batched: an EIP-3009
// payment, settled by a call to its asset (st), whose value and window fit
// the packed item.
func (s *Scheme) BatchItem(pay *scheme.Payment, st scheme.Settlement) (contracts.BatchItem, bool) {
	a, ok := pay.Mechanism.(*Authorization)
	if !ok || st.To != pay.Asset || !contracts.BatchFits(a.Value, a.ValidAfter, a.ValidBefore) {
		return contracts.BatchItem{}, false
	}
	if v := a.Signature[64]; v != 27 && v != 28 {
		return contracts.BatchItem{}, false
	}
	it := contracts.BatchItem{
		Token: pay.Asset, To: a.To, From: a.From, Value: a.Value,
		ValidAfter: a.ValidAfter.Uint64(), ValidBefore: a.ValidBefore.Uint64(),
		Nonce: a.Nonce, V: a.Signature[64],
	}
	copy(it.R[:], a.Signature[:32])
	copy(it.S[:], a.Signature[32:64])
	return it, true
}

// BatchLogs narrows a successful receipt to the logs of rec's payment:
// the token's AuthorizationUsed(payer, nonce) whose key is rec's and the
// logs beside it (its Transfer). failed is true if the batch contract
// logged the payment's transfer as failed. A receipt with no
// AuthorizationUsed log and no log of the batch contract (a lone
// settlement of another mechanism) is returned as it is; one that has
// some but none of rec's payment has no logs left.
func (s *Scheme) BatchLogs(rec *store.Record, receipt *types.Receipt, batch common.Address) (own *types.Receipt, failed bool) {
	if receipt.Status != types.ReceiptStatusSuccessful {
		return receipt, false
	}
	chainID := s.cfg.ChainID
	multi := false
	for i, l := range receipt.Logs {
		switch {
		case len(l.Topics) == 3 && l.Topics[0] == authorizationUsedTopic:
			multi = true
			if l.Address == rec.Asset && common.BytesToAddress(l.Topics[1][:]) == rec.Payer &&
				AuthorizationKey(chainID, rec.Asset, rec.Payer, l.Topics[2]) == rec.Key {
				// The payment was settled (the token marks an
				// authorization used only with its transfer): its
				// Transfer is beside it, after it in EIP-3009's
				// reference and USDC, before it in some tokens.
				c := *receipt
				c.Logs = receipt.Logs[max(i-1, 0):min(i+2, len(receipt.Logs))]
				return &c, false
			}
		case batch != (common.Address{}) && l.Address == batch:
			multi = true
			if len(l.Topics) == 4 && l.Topics[0] == transferFailedTopic &&
				common.BytesToAddress(l.Topics[1][:]) == rec.Asset && common.BytesToAddress(l.Topics[2][:]) == rec.Payer &&
				AuthorizationKey(chainID, rec.Asset, rec.Payer, l.Topics[3]) == rec.Key {
				failed = true
			}
		}
	}
	if !multi {
		return receipt, false
	}
	c := *receipt
	c.Logs = nil
	return &c, failed
}

// ValidBeforeIn is the validBefore of rec's authorization in tx: an
// X402Batch transaction's (to batch) item of rec's payer and nonce, or a
// lone transferWithAuthorization of rec's payer to rec's asset.
func (s *Scheme) ValidBeforeIn(rec *store.Record, tx *types.Transaction, batch common.Address) (uint64, bool) {
	chainID := s.cfg.ChainID
	to, data := tx.To(), tx.Data()
	switch {
	case to == nil:
		return 0, false
	case batch != (common.Address{}) && *to == batch:
		items, err := contracts.UnpackBatch(data)
		if err != nil {
			return 0, false
		}
		for _, it := range items {
			if it.Token == rec.Asset && it.From == rec.Payer && AuthorizationKey(chainID, it.Token, it.From, it.Nonce) == rec.Key {
				return it.ValidBefore, true
			}
		}
		return 0, false
	case *to != rec.Asset || len(data) < 4:
		return 0, false
	}
	m, err := tokenABI.MethodById(data[:4])
	if err != nil || m.RawName != "transferWithAuthorization" {
		return 0, false
	}
	args, err := m.Inputs.Unpack(data[4:])
	if err != nil {
		return 0, false
	}
	var (
		from        common.Address
		nonce       [32]byte
		validBefore *big.Int
	)
	for i, in := range m.Inputs {
		switch v := args[i].(type) {
		case common.Address:
			if in.Name == "from" {
				from = v
			}
		case [32]byte:
			if in.Name == "nonce" {
				nonce = v
			}
		case *big.Int:
			if in.Name == "validBefore" {
				validBefore = v
			}
		}
	}
	if from != rec.Payer || validBefore == nil || !validBefore.IsUint64() ||
		AuthorizationKey(chainID, rec.Asset, from, nonce) != rec.Key {
		return 0, false
	}
	return validBefore.Uint64(), true
}

var (
	_ scheme.Batcher  = (*Scheme)(nil)
	_ scheme.Expiring = (*Scheme)(nil)
)
