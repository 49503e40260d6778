package aanative

import (
	"bytes"
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/x402"
)

// EIP-7702 senders. From EntryPoint v0.8 an EOA pays as its own account:
// its operation's initCode is the 0x7702 marker, the EntryPoint reads the
// account's code (0xef0100 ‖ delegate) and runs the delegate's
// validateUserOp, and the userOpHash covers the delegate. We accept one
// only with its authorization, which our bundler carries in the bundle's
// set-code transaction, and only to the delegate configured
// (EntryPointConfig.Delegate, Simple7702Account, whose signer is the EOA
// itself). The authorization must be for this chain (not chain 0, which
// any chain accepts), name that delegate, be signed by the account and
// carry the account's current nonce (a used one is void on chain, a
// future one too), unless the account already delegates to that delegate
// (an earlier payment's authorization put it there): then a used one is
// harmless, the chain skipping it. Verify at settle time reads the chain
// again, so an authorization the EOA voided since (a transaction of its
// own, a revocation, another delegation) is refused before the bundle is
// sent.

// delegatedTo reports whether code, a sender's, is the EIP-7702
// delegation to the delegate pay's EntryPoint accepts: such an EOA sends
// plain operations (no marker, no authorization) once delegated, as viem
// does, and is its own owner. The EntryPoint then reads its code as any
// account's; a delegation revoked since is an undeployed account (AA20).
func delegatedTo(code []byte, pay *Payment) bool {
	d := pay.at.Delegate
	return pay.EntryPoint.EIP7702() && d != (common.Address{}) && bytes.Equal(code, types.AddressToDelegation(d))
}

// delegatedOwner is check 2 for an EIP-7702 sender: its authorization is
// right, and the account's owner is the account itself.
func (s *Scheme) delegatedOwner(ctx context.Context, pay *Payment) (common.Address, error) {
	op, ep, want := &pay.Op, pay.EntryPoint, pay.at.Delegate
	if !ep.EIP7702() || want == (common.Address{}) {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "EntryPoint %s (v%s) takes no EIP-7702 sender here", ep.Address(), ep.Version())
	}
	if len(op.FactoryData) > 0 {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "an EIP-7702 sender's initCode must be the 0x7702 marker alone")
	}
	auth := op.EIP7702Auth
	if auth == nil {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "an EIP-7702 sender needs its eip7702Auth")
	}
	if auth.ChainID.ToBig().Cmp(s.cfg.ChainID) != 0 {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "the EIP-7702 authorization is for chain %s, not %s", auth.ChainID.Dec(), s.cfg.ChainID)
	}
	if auth.Address != want {
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "the EIP-7702 authorization delegates to %s, not to %s", auth.Address, want)
	}
	signer, err := auth.Authority()
	if err != nil || signer != op.Sender {
		return common.Address{}, x402.Invalid(x402.ReasonSignatureInvalid, "the EIP-7702 authorization is not signed by the account %s", op.Sender)
	}
	var (
		nonce hexutil.Uint64
		code  hexutil.Bytes
	)
	batch := []rpc.BatchElem{
		{Method: "eth_getTransactionCount", Args: []any{op.Sender, "latest"}, Result: &nonce},
		{Method: "eth_getCode", Args: []any{op.Sender, "latest"}, Result: &code},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return common.Address{}, fmt.Errorf("reading the account: %w", err)
	}
	for _, b := range batch {
		if b.Error != nil {
			return common.Address{}, fmt.Errorf("reading the account: %w", b.Error)
		}
	}
	switch {
	case uint64(nonce) == auth.Nonce:
	case auth.Nonce < uint64(nonce) && bytes.Equal(code, types.AddressToDelegation(want)):
		// Spent (by an earlier payment's bundle, say), but the delegation
		// it names is in place: the chain skips it, and the account, the
		// userOpHash and the signature stand.
	default:
		return common.Address{}, x402.Invalid(x402.ReasonInvalidInnerPayload, "the EIP-7702 authorization's nonce %d is not the account's nonce %d", auth.Nonce, uint64(nonce))
	}
	return op.Sender, nil
}
