package batchsettlement

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
)

// Chain is the chain access verification needs; *ethclient.Client has it.
type Chain interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
	CodeAt(ctx context.Context, account common.Address, block *big.Int) ([]byte, error)
}

// snapshot reads channel id's state in one eth_call: the settlement
// contract's own multicall of channels, pendingWithdrawals and
// refundNonce.
func (s *Scheme) snapshot(ctx context.Context, id common.Hash) (Snapshot, error) {
	calls := [][]byte{s.bs.PackChannels(id), s.bs.PackPendingWithdrawals(id), s.bs.PackRefundNonce(id)}
	out, err := s.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &s.cfg.Settlement, Data: s.bs.PackMulticall(calls)}, nil)
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading channel %s: %w", id, err)
	}
	results, err := s.bs.UnpackMulticall(out)
	if err != nil || len(results) != len(calls) {
		return Snapshot{}, fmt.Errorf("reading channel %s: multicall answered %d results (%v)", id, len(results), err)
	}
	ch, err := s.bs.UnpackChannels(results[0])
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading channel %s: %w", id, err)
	}
	w, err := s.bs.UnpackPendingWithdrawals(results[1])
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading channel %s's withdrawal: %w", id, err)
	}
	nonce, err := s.bs.UnpackRefundNonce(results[2])
	if err != nil {
		return Snapshot{}, fmt.Errorf("reading channel %s's refund nonce: %w", id, err)
	}
	return Snapshot{Balance: ch.Balance, TotalClaimed: ch.TotalClaimed, WithdrawRequestedAt: w.InitiatedAt.Uint64(), WithdrawAmount: w.Amount, RefundNonce: nonce}, nil
}

// balanceOf reads owner's balance of token.
func (s *Scheme) balanceOf(ctx context.Context, token, owner common.Address) (*big.Int, error) {
	out, err := s.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &token, Data: s.erc20.PackBalanceOf(owner)}, nil)
	if err != nil {
		return nil, fmt.Errorf("reading %s's balance of %s: %w", owner, token, err)
	}
	b, err := s.erc20.UnpackBalanceOf(out)
	if err != nil {
		return nil, fmt.Errorf("reading %s's balance of %s: %w", owner, token, err)
	}
	return b, nil
}

// erc1271Magic is isValidSignature's answer for a good signature.
var erc1271Magic = [4]byte{0x16, 0x26, 0xba, 0x7e}

// signedBy reports whether signer signed digest with sig, as the
// contract's SignatureChecker decides: an account with code through its
// ERC-1271 isValidSignature, an EOA by ECDSA recovery.
func (s *Scheme) signedBy(ctx context.Context, signer common.Address, digest common.Hash, sig []byte) (bool, error) {
	code, err := s.cfg.Chain.CodeAt(ctx, signer, nil)
	if err != nil {
		return false, fmt.Errorf("reading %s's code: %w", signer, err)
	}
	if len(code) == 0 {
		return recovers(digest, sig, signer), nil
	}
	args, err := erc1271Args.Pack(digest, sig)
	if err != nil {
		return false, fmt.Errorf("packing isValidSignature: %w", err)
	}
	out, err := s.cfg.Chain.CallContract(ctx, ethereum.CallMsg{To: &signer, Data: append(isValidSignature[:4:4], args...)}, nil)
	var reverted rpc.DataError
	if errors.As(err, &reverted) {
		return false, nil // the wallet's answer: it refuses the signature
	}
	if err != nil {
		return false, fmt.Errorf("asking %s's isValidSignature: %w", signer, err)
	}
	return len(out) >= 4 && bytes.Equal(out[:4], erc1271Magic[:]), nil
}

var (
	isValidSignature = crypto.Keccak256([]byte("isValidSignature(bytes32,bytes)"))[:4]
	erc1271Args      = func() abi.Arguments {
		b32, _ := abi.NewType("bytes32", "", nil)
		b, _ := abi.NewType("bytes", "", nil)
		return abi.Arguments{{Type: b32}, {Type: b}}
	}()
)

// recovers reports whether sig is signer's ECDSA signature of digest.
func recovers(digest common.Hash, sig []byte, signer common.Address) bool {
	got, err := batchsettle.Recover(digest, sig)
	return err == nil && got == signer
}
