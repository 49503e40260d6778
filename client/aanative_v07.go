package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/x402"
)

// payV07 is what PayAANative has derived for a v0.7 offer.
type payV07 struct {
	entryPoint, factory, settlement, token, payTo, sender, owner common.Address
	deployed                                                     bool
	nonce, amount, chainID                                       *big.Int
	requestHash                                                  common.Hash
}

// payV07 is PayAANative's second half for an offer of EntryPoint v0.7: the
// v0.7 SimpleAccount's executeBatch (with no values), the operation in
// ERC-7769's v0.7 form (factory and factoryData while the account is not
// deployed), sponsored at the offer's sponsorUrl and signed over v0.7's
// userOpHash.
func (t *Transport) payV07(ctx context.Context, challenge *x402.PaymentRequired, offer *x402.PaymentRequirements, p payV07) (*x402.PaymentPayload, error) {
	callData := ep07.NewSimpleAccount().PackExecuteBatch(
		[]common.Address{p.token, p.settlement}, nil,
		[][]byte{
			contracts.NewDevUSD().PackApprove(p.settlement, p.amount),
			contracts.NewX402Settlement().PackSettle(p.payTo, p.token, p.amount, p.requestHash),
		},
	)
	unsigned := ep07.UserOperation{Sender: p.sender, Nonce: p.nonce, CallData: callData}
	if !p.deployed {
		unsigned.Factory, unsigned.FactoryData = p.factory, ep07.NewSimpleAccountFactory().PackCreateAccount(p.owner, new(big.Int))
	}
	var sponsored ep07.UserOperationHex
	if err := t.sponsor(ctx, offer.Extra.SponsorURL, unsigned.Hex(), p.entryPoint, p.deployed, &sponsored); err != nil {
		return nil, err
	}
	op, err := sponsored.Decode(true)
	if err != nil {
		return nil, fmt.Errorf("x402 client: the sponsored operation does not decode: %w", err)
	}
	if op.Sender != p.sender || !bytes.Equal(op.CallData, callData) || op.Nonce.Cmp(p.nonce) != 0 ||
		op.Factory != unsigned.Factory || !bytes.Equal(op.FactoryData, unsigned.FactoryData) {
		return nil, errors.New("x402 client: the sponsor changed the operation")
	}
	sig, err := contracts.SignHash(ep07.UserOpHash(op, p.entryPoint, p.chainID), t.Key)
	if err != nil {
		return nil, err
	}
	sponsored.Signature = hexutil.Encode(sig)
	payload, err := json.Marshal(struct {
		UserOp             ep07.UserOperationHex   `json:"userOp"`
		SettlementCallSpec x402.SettlementCallSpec `json:"settlementCallSpec"`
	}{sponsored, x402.SettlementCallSpec{
		Merchant: p.payTo.Hex(), Token: p.token.Hex(), Amount: p.amount.String(), RequestHash: p.requestHash.Hex(),
	}})
	if err != nil {
		return nil, err
	}
	return &x402.PaymentPayload{X402Version: x402.Version, Resource: challenge.Resource, Accepted: *offer, Payload: payload}, nil
}
