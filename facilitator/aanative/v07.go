package aanative

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/x402"
)

// EntryPoint v0.7 beside v0.6. A route offers aa-native once per
// configured EntryPoint; the offer's extra names the EntryPoint and its
// version. A payment is for v0.7 when its requirements' extra.entryPoint is
// the configured v0.7 EntryPoint: its userOp then has ERC-7769's v0.7
// fields, the account is the v0.7 factory's SimpleAccount, the signature is
// over v0.7's userOpHash, the paymaster is the v0.7 VerifyingPaymaster, and
// simulateValidation runs EntryPointSimulations in the EntryPoint's place
// (a state override). The settlement call and every other check are
// v0.6's.

// VersionV07 is the entryPointVersion of v0.7 offers.
const VersionV07 = "0.7"

// HasV07 reports whether the scheme settles on EntryPoint v0.7 too.
func (s *Scheme) HasV07() bool { return s.cfg.EntryPointV07 != (common.Address{}) }

// ExtraV07 is the extra of the v0.7 aa-native offers; nil without v0.7.
func (s *Scheme) ExtraV07(sponsorURL string) *x402.Extra {
	if !s.HasV07() {
		return nil
	}
	return &x402.Extra{
		EntryPoint: s.cfg.EntryPointV07.Hex(), EntryPointVersion: VersionV07,
		Factory: s.cfg.FactoryV07.Hex(), Settlement: s.cfg.Settlement.Hex(), SponsorURL: sponsorURL,
	}
}

// isV07 reports whether req is a v0.7 offer of this scheme.
func (s *Scheme) isV07(req *x402.PaymentRequirements) bool {
	return s.HasV07() && req != nil && req.Extra != nil && common.IsHexAddress(req.Extra.EntryPoint) &&
		common.HexToAddress(req.Extra.EntryPoint) == s.cfg.EntryPointV07
}

// decodePayloadV07 is decodePayload for a v0.7 operation.
func (s *Scheme) decodePayloadV07(p *x402.PaymentPayload) (*Payment, error) {
	var raw struct {
		UserOp             ep07.UserOperationHex   `json:"userOp"`
		SettlementCallSpec x402.SettlementCallSpec `json:"settlementCallSpec"`
	}
	if err := json.Unmarshal(p.Payload, &raw); err != nil {
		return nil, x402.Invalid(x402.ReasonMalformedRequest, "payload is not an aa-native payment: %v", err)
	}
	if v06, _ := opShape(p.Payload); v06 {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "the offer is for EntryPoint v0.7 (%s): the userOp takes v0.7's fields (factory, factoryData, paymaster, paymasterData, …), not initCode or paymasterAndData", s.cfg.EntryPointV07)
	}
	op, err := raw.UserOp.Decode(false)
	if err != nil {
		return nil, x402.Invalid(x402.ReasonInvalidInnerPayload, "userOp (EntryPoint v0.7): %v", err)
	}
	pay, err := s.decodeSpec(raw.SettlementCallSpec)
	if err != nil {
		return nil, err
	}
	pay.OpV07 = &op
	pay.Op = ShadowV06(&op)
	pay.UserOpHash = ep07.UserOpHash(op, s.cfg.EntryPointV07, s.cfg.ChainID)
	if pay.Gas, err = s.gasInToken(pay); err != nil {
		return nil, err
	}
	return pay, nil
}

// ShadowV06 is a v0.7 operation in v0.6's form, for what both versions
// share: initCode and paymasterAndData packed, the account's and the
// paymaster's verification gas summed, the paymaster's postOp gas added to
// the call's.
func ShadowV06(op *ep07.UserOperation) contracts.UserOperation {
	return contracts.UserOperation{
		Sender: op.Sender, Nonce: op.Nonce, InitCode: op.InitCode(), CallData: op.CallData,
		CallGasLimit:         new(big.Int).Add(op.CallGasLimit, op.PaymasterPostOpGasLimit),
		VerificationGasLimit: new(big.Int).Add(op.VerificationGasLimit, op.PaymasterVerificationGasLimit),
		PreVerificationGas:   op.PreVerificationGas, MaxFeePerGas: op.MaxFeePerGas, MaxPriorityFeePerGas: op.MaxPriorityFeePerGas,
		PaymasterAndData: op.PaymasterAndData(), Signature: op.Signature,
	}
}

// simulateV07 is check 5 for v0.7: EntryPointSimulations.simulateValidation
// answers the account's and the paymaster's validation data; either
// signature failing refuses, and their time ranges, intersected, must
// cover the next block with MinValidity to spare. FailedOp refuses with
// the AAxx reason.
func (s *Scheme) simulateV07(ctx context.Context, pay *Payment) error {
	var (
		out  hexutil.Bytes
		head struct {
			Time hexutil.Uint64 `json:"timestamp"`
		}
	)
	call, override := ep07.SimulateValidationCall(*pay.OpV07, s.cfg.EntryPointV07)
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: []any{call, "latest", override}, Result: &out},
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return fmt.Errorf("simulating the operation: %w", err)
	}
	if batch[1].Error != nil {
		return fmt.Errorf("reading the latest block: %w", batch[1].Error)
	}
	var revert []byte
	if err := batch[0].Error; err != nil {
		var de rpc.DataError
		if !errors.As(err, &de) {
			return fmt.Errorf("simulating the operation: %w", err)
		}
		str, _ := de.ErrorData().(string)
		if revert, _ = hexutil.Decode(str); len(revert) < 4 {
			return fmt.Errorf("simulateValidation reverted without data: %w", err)
		}
	}
	v, err := ep07.ParseSimulation(out, revert)
	switch {
	case errors.Is(err, ep07.ErrFailedOp):
		reason := strings.TrimPrefix(err.Error(), ep07.ErrFailedOp.Error()+": ")
		if strings.HasPrefix(reason, "AA24") || strings.HasPrefix(reason, "AA34") {
			return x402.Invalid(x402.ReasonSignatureInvalid, "simulateValidation: %s", reason)
		}
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "simulateValidation: %s", reason)
	case err != nil:
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "%v", err)
	case v.Account.SigFailed || v.Paymaster.SigFailed:
		return x402.Invalid(x402.ReasonSignatureInvalid, "simulateValidation: the account or paymaster signature does not validate")
	case v.Account.Aggregator != (common.Address{}):
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "simulateValidation: the account names an aggregator, which this facilitator does not serve")
	}
	next := uint64(max(s.cfg.Now().Unix(), int64(head.Time)+1))
	after := max(v.Account.ValidAfter, v.Paymaster.ValidAfter)
	until := v.Account.ValidUntil
	if p := v.Paymaster.ValidUntil; p > 0 && (until == 0 || p < until) {
		until = p
	}
	if after > next {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the operation is valid only from %d, after the next block (%d)", after, next)
	}
	if until > 0 && until < next+uint64(s.cfg.MinValidity/time.Second) {
		return x402.Invalid(x402.ReasonInvalidInnerPayload, "the operation's validity ends at %d, too soon after the next block (%d) to be bundled; ask for a fresh sponsorship", until, next)
	}
	return nil
}

// ParseCallDataV07 is ParseCallData for a v0.7 SimpleAccount, whose
// executeBatch takes values too (none, or all zero).
func (s *Scheme) ParseCallDataV07(callData []byte) (*Settlement, error) {
	return s.parseCallData(callData, true)
}

// opShape reports whether a payload's userOp has fields only v0.6 has
// (initCode, paymasterAndData), or only v0.7 has (factory, paymaster…).
func opShape(payload json.RawMessage) (v06, v07 bool) {
	var shape struct {
		UserOp map[string]json.RawMessage `json:"userOp"`
	}
	if json.Unmarshal(payload, &shape) != nil {
		return false, false
	}
	has := func(keys ...string) bool {
		for _, k := range keys {
			if v, ok := shape.UserOp[k]; ok && string(v) != "null" {
				return true
			}
		}
		return false
	}
	return has("initCode", "paymasterAndData"), has("factory", "factoryData", "paymaster", "paymasterData", "paymasterVerificationGasLimit", "paymasterPostOpGasLimit")
}
