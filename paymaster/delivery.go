package paymaster

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// A gas token must deliver what it is asked to send. The token paymasters
// measure every transfer to them and revert when it arrives short (a fee
// on transfer), so no operation is ever charged for tokens that did not
// arrive; but a type 2 operation signed in such a token fails only in its
// bundle, at the bundler's cost. So the service probes a token at first
// contact, before it signs anything in it: TransferProbe runs in an
// eth_call, holding the token by a state override of its balance, and
// sends it to the token paymaster by transfer and by transferFrom. A token
// that delivers less is refused as a gas token for the service's life
// (pm_supported_tokens lists it unavailable; a sponsorship in it is
// -32501). A token whose balances cannot be found or set that way is not
// probed; the contracts' own check still holds. A fee switched on later is
// caught by the contracts alone.

// probeFrom is the account the probe's eth_call comes from. No key is known
// for it, so its nonce is 0 on every chain and the probe is created at
// crypto.CreateAddress(probeFrom, 0).
var probeFrom = common.BytesToAddress(crypto.Keccak256([]byte("caddy-x402 gas token transfer probe"))[12:])

// ozV5Balances is where OpenZeppelin 5's upgradeable ERC20 keeps its
// balances mapping (ERC-7201 namespace "openzeppelin.storage.ERC20").
var ozV5Balances = common.HexToHash("0x52c63247e1f47db19d5ce0460030c497f067ca4cebf71ba98eeadabe20bace00")

// balanceSlots are the storage slots where a token may keep holder's
// balance: a mapping at one of the first 32 slots, hashed as Solidity
// (key, slot) or Vyper (slot, key) does, or at OpenZeppelin 5's namespace.
func balanceSlots(holder common.Address) []common.Hash {
	key := common.LeftPadBytes(holder.Bytes(), 32)
	out := make([]common.Hash, 0, 65)
	for i := range 32 {
		slot := common.BigToHash(big.NewInt(int64(i))).Bytes()
		out = append(out, crypto.Keccak256Hash(key, slot), crypto.Keccak256Hash(slot, key))
	}
	return append(out, crypto.Keccak256Hash(key, ozV5Balances.Bytes()))
}

// answered tells a JSON-RPC error the node answered (a revert, or state
// overrides it does not take), which leaves the token unprobed, from a
// chain that could not be reached, which is retried at the next contact.
func answered(err error) bool {
	var re rpc.Error
	return errors.As(err, &re)
}

// stateOverride is the eth_call state override of one account.
type stateOverride struct {
	Code      hexutil.Bytes               `json:"code,omitempty"`
	StateDiff map[common.Hash]common.Hash `json:"stateDiff,omitempty"`
}

// probeDelivery tells whether token (of decimals) delivers to the token
// paymaster what it is asked to send: "" if it does or cannot be probed,
// otherwise why it is refused. An error is a chain that could not be read.
func (s *Service) probeDelivery(ctx context.Context, token common.Address, decimals uint8) (string, error) {
	var to common.Address
	if pms := s.tokenPaymasters(); len(pms) > 0 {
		to = pms[0]
	}
	holder := crypto.CreateAddress(probeFrom, 0)
	amount := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals)), nil)
	held := new(big.Int).Lsh(amount, 1)

	// Which slot holds the holder's balance: every candidate is set to a
	// value of its own, and balanceOf names the one it reads.
	slots := balanceSlots(holder)
	diff := make(map[common.Hash]common.Hash, len(slots))
	for i, slot := range slots {
		diff[slot] = common.BigToHash(new(big.Int).Add(held, big.NewInt(int64(i))))
	}
	var out hexutil.Bytes
	msg := map[string]any{"to": token, "data": hexutil.Bytes(slices.Concat(selBalanceOf, common.LeftPadBytes(holder.Bytes(), 32)))}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest", map[common.Address]stateOverride{token: {StateDiff: diff}}); err != nil {
		if answered(err) {
			s.log.Info("gas token not probed for a fee on transfer: the node refused the probe", zap.Stringer("token", token), zap.Error(err))
			return "", nil
		}
		return "", err
	}
	bal, err := word(out, 0)
	if err != nil {
		return "", nil
	}
	i := new(big.Int).Sub(bal, held)
	if i.Sign() < 0 || !i.IsInt64() || i.Int64() >= int64(len(slots)) {
		s.log.Info("gas token not probed for a fee on transfer: its balances are not where the probe looks", zap.Stringer("token", token))
		return "", nil
	}
	slot := slots[i.Int64()]

	// The probe, holding 2 whole tokens, sends one by transfer and one by
	// transferFrom.
	code := append(common.FromHex(contracts.TransferProbeMetaData.Bin), contracts.NewTransferProbe().PackConstructor(token, to, amount)...)
	msg = map[string]any{"from": probeFrom, "data": hexutil.Bytes(code)}
	override := map[common.Address]stateOverride{token: {StateDiff: map[common.Hash]common.Hash{slot: common.BigToHash(held)}}}
	if err := s.cfg.Chain.CallContext(ctx, &out, "eth_call", msg, "latest", override); err != nil {
		if answered(err) {
			s.log.Info("gas token not probed for a fee on transfer: the probe's transfers reverted", zap.Stringer("token", token), zap.Error(err))
			return "", nil
		}
		return "", err
	}
	byTransfer, err1 := word(out, 0)
	byTransferFrom, err2 := word(out, 1)
	if err1 != nil || err2 != nil {
		return "", nil
	}
	got := byTransfer
	if byTransferFrom.Cmp(got) < 0 {
		got = byTransferFrom
	}
	if got.Cmp(amount) < 0 {
		return fmt.Sprintf("token %s delivers %s of the %s units sent to the token paymaster (a fee on transfer); the token paymaster takes only tokens that arrive in full, so it is refused as a gas token", token, got, amount), nil
	}
	return "", nil
}
