package batchsettlement

import (
	"context"
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// CheckContracts asks the chain whether the batch-settlement contracts the
// scheme uses are there and speak the scheme: code at the settlement
// contract and both collectors, the settlement contract's EIP-712 domain
// (name, version, chain id, its own address) and type hashes, and each
// collector bound to the settlement contract. A facilitator runs it at
// start: on a chain without the contracts, or with others at their
// addresses, every deposit and claim would fail or pay the wrong contract.
// It returns every mismatch at once; an error that wraps
// ErrContractsUnreadable means the chain did not answer.
func (s *Scheme) CheckContracts(ctx context.Context) error {
	var errs []error
	for _, c := range []struct {
		name string
		at   common.Address
	}{{"the settlement contract", s.cfg.Settlement}, {"the ERC-3009 collector", s.cfg.ERC3009Collector}, {"the Permit2 collector", s.cfg.Permit2Collector}} {
		code, err := s.cfg.Chain.CodeAt(ctx, c.at, nil)
		if err != nil {
			return fmt.Errorf("%w: reading %s's code: %v", ErrContractsUnreadable, c.name, err)
		}
		if len(code) == 0 {
			errs = append(errs, fmt.Errorf("batch-settlement: no code at %s (%s)", c.at, c.name))
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	out, err := s.call(ctx, s.cfg.Settlement, s.bs.PackEip712Domain())
	if err != nil && !reverted(err) {
		return fmt.Errorf("%w: %v", ErrContractsUnreadable, err)
	}
	d, err := s.bs.UnpackEip712Domain(out)
	switch {
	case err != nil:
		errs = append(errs, fmt.Errorf("batch-settlement: %s answers no EIP-712 domain: %v", s.cfg.Settlement, err))
	case d.Name != batchsettle.DomainName || d.Version != batchsettle.DomainVersion || d.ChainId.Cmp(s.cfg.ChainID) != 0 || d.VerifyingContract != s.cfg.Settlement:
		errs = append(errs, fmt.Errorf("batch-settlement: %s's EIP-712 domain is (%q, %q, %s, %s), want (%q, %q, %s, itself)",
			s.cfg.Settlement, d.Name, d.Version, d.ChainId, d.VerifyingContract, batchsettle.DomainName, batchsettle.DomainVersion, s.cfg.ChainID))
	}
	for _, h := range []struct {
		name, typ string
		pack      []byte
	}{
		{"CHANNEL_CONFIG_TYPEHASH", batchsettle.ChannelConfigType, s.bs.PackCHANNELCONFIGTYPEHASH()},
		{"VOUCHER_TYPEHASH", batchsettle.VoucherType, s.bs.PackVOUCHERTYPEHASH()},
		{"REFUND_TYPEHASH", batchsettle.RefundType, s.bs.PackREFUNDTYPEHASH()},
		{"CLAIM_BATCH_TYPEHASH", batchsettle.ClaimBatchType, s.bs.PackCLAIMBATCHTYPEHASH()},
	} {
		out, err := s.call(ctx, s.cfg.Settlement, h.pack)
		if err != nil && !reverted(err) {
			return fmt.Errorf("%w: %v", ErrContractsUnreadable, err)
		}
		if want := crypto.Keccak256Hash([]byte(h.typ)); common.BytesToHash(out) != want {
			errs = append(errs, fmt.Errorf("batch-settlement: %s's %s is %x, want %s", s.cfg.Settlement, h.name, out, want))
		}
	}
	collector := batchsettle.NewERC3009DepositCollector()
	for _, at := range []common.Address{s.cfg.ERC3009Collector, s.cfg.Permit2Collector} {
		out, err := s.call(ctx, at, collector.PackX402BatchSettlement())
		if err != nil && !reverted(err) {
			return fmt.Errorf("%w: %v", ErrContractsUnreadable, err)
		}
		if bound, err := collector.UnpackX402BatchSettlement(out); err != nil || bound != s.cfg.Settlement {
			errs = append(errs, fmt.Errorf("batch-settlement: the collector at %s delivers to %s, not the settlement contract %s", at, bound, s.cfg.Settlement))
		}
	}
	return errors.Join(errs...)
}

// ErrContractsUnreadable wraps a CheckContracts that could not read the
// chain; it says nothing of the contracts.
var ErrContractsUnreadable = errors.New("batch-settlement: the chain did not answer")

// call is an eth_call of data to `to` at the latest block.
func (s *Scheme) call(ctx context.Context, to common.Address, data []byte) ([]byte, error) {
	return s.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &to, Data: data}, nil)
}

// reverted reports whether err is a contract's revert (an answer), not a
// failed read.
func reverted(err error) bool {
	var de rpc.DataError
	return errors.As(err, &de)
}
