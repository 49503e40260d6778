package facilitator

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// SponsorV07 is a Sponsor that sponsors v0.7 operations too;
// *paymaster.Client has it.
type SponsorV07 interface {
	SponsorOnceV07(ctx context.Context, op ep07.UserOperationHex, entryPoint common.Address, sc x402.SponsorContext) (ep07.UserOperationHex, error)
}

// SponsorerV07 sponsors aa-native operations for EntryPoint v0.7 without a
// payer key; *Service has it. /sponsor routes an operation to it when its
// entryPoint parameter is EntryPointV07.
type SponsorerV07 interface {
	EntryPointV07() common.Address
	SponsorOperationV07(ctx context.Context, op ep07.UserOperationHex, gas x402.SponsorContext, client string) (ep07.UserOperationHex, error)
}

// EntryPointV07 is the v0.7 EntryPoint this facilitator settles on, or
// zero.
func (s *Service) EntryPointV07() common.Address {
	if s.cfg.AANative == nil {
		return common.Address{}
	}
	return s.cfg.AANative.EntryPointV07
}

// SponsorOperationV07 is SponsorOperation for a v0.7 operation: the same
// settlements only, the same anonymous budget, forwarded to the paymaster
// for the v0.7 EntryPoint.
func (s *Service) SponsorOperationV07(ctx context.Context, op ep07.UserOperationHex, gas x402.SponsorContext, client string) (ep07.UserOperationHex, error) {
	ctx, span := startSpan(ctx, spanSponsor)
	if span.IsRecording() && common.IsHexAddress(op.Sender) {
		span.SetAttributes(edge.AttrSender.String(common.HexToAddress(op.Sender).Hex()))
	}
	out, err := s.sponsorOperationV07(ctx, op, gas, client)
	endSponsor(span, err)
	return out, err
}

func (s *Service) sponsorOperationV07(ctx context.Context, op ep07.UserOperationHex, gas x402.SponsorContext, client string) (ep07.UserOperationHex, error) {
	decoded, err := op.Decode(true)
	if err != nil {
		return op, &SponsorError{Code: int(x402.RPCInvalidParams), Message: "userOp: " + err.Error()}
	}
	var out ep07.UserOperationHex
	err = s.sponsorSettlement(ctx, decoded.Sender, decoded.CallData, true, gas, client, func(sp Sponsor, sc x402.SponsorContext) (common.Hash, error) {
		sp7, ok := sp.(SponsorV07)
		if !ok {
			return common.Hash{}, &SponsorError{Code: int(x402.RPCPaymasterRejected), Message: "the paymaster client does not sponsor v0.7 operations"}
		}
		if out, err = sp7.SponsorOnceV07(ctx, op, s.cfg.AANative.EntryPointV07, sc); err != nil {
			return common.Hash{}, err
		}
		sponsored, err := out.Decode(false)
		if err != nil {
			return common.Hash{}, fmt.Errorf("%w: %v", errSponsoredUndecodable, err)
		}
		return ep07.UserOpHash(sponsored, s.cfg.AANative.EntryPointV07, s.chainID), nil
	})
	if err != nil {
		return op, err
	}
	return out, nil
}
