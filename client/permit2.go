package client

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/x402"
)

// eip2612GasSponsoring is upstream's extension that carries an EIP-2612
// permit of Permit2 with a payment.
const eip2612GasSponsoring = "eip2612GasSponsoring"

// viaPermit2 reports whether offer is paid with a Permit2 signature: an
// upto offer, or an exact one whose token has no EIP-3009.
func viaPermit2(offer *x402.PaymentRequirements) bool {
	return offer.Scheme == x402.SchemeUpto ||
		offer.Scheme == x402.SchemeExact && offer.Extra != nil && offer.Extra.AssetTransferMethod == x402.AssetTransferPermit2
}

// PayPermit2 signs a Permit2 payment for offer, as upstream's client does:
// a PermitWitnessTransferFrom of the amount (upto: the maximum) for x402's
// exact or upto proxy, the witness naming payTo (and, for upto, the
// facilitator the offer names), valid until maxTimeoutSeconds from now.
// When the 402 declares eip2612GasSponsoring and, read through RPC, the
// payer allows Permit2 less than the amount, it also signs an EIP-2612
// permit of Permit2 for the amount, which the facilitator submits with the
// settlement: the payer never sends a transaction.
func (t *Transport) PayPermit2(ctx context.Context, challenge *x402.PaymentRequired, offer *x402.PaymentRequirements) (*x402.PaymentPayload, error) {
	chainID, err := x402.ParseNetwork(offer.Network)
	if err != nil {
		return nil, err
	}
	now, timeout := t.window(offer)
	n := make([]byte, 32)
	if _, err := rand.Read(n); err != nil {
		return nil, err
	}
	from := crypto.PubkeyToAddress(t.Key.PublicKey)
	amount, _ := x402.ParseAmount(offer.Amount)
	pt := contracts.Permit2Transfer{
		Token: common.HexToAddress(offer.Asset), Amount: amount, Spender: contracts.ExactPermit2ProxyAddress,
		Nonce: new(big.Int).SetBytes(n), Deadline: big.NewInt(now().Unix() + int64(timeout)),
		To: common.HexToAddress(offer.PayTo), ValidAfter: new(big.Int), ChainID: new(big.Int).SetUint64(chainID),
	}
	witness := map[string]string{"to": pt.To.Hex(), "validAfter": "0"}
	if offer.Scheme == x402.SchemeUpto {
		pt.Upto, pt.Spender, pt.Facilitator = true, contracts.UptoPermit2ProxyAddress, common.HexToAddress(offer.Extra.FacilitatorAddress)
		witness["facilitator"] = pt.Facilitator.Hex()
	}
	sig, err := pt.Sign(contracts.Permit2Address, t.Key)
	if err != nil {
		return nil, fmt.Errorf("x402 client: %w", err)
	}
	payload, err := json.Marshal(map[string]any{
		"signature": hexutil.Encode(sig),
		"permit2Authorization": map[string]any{
			"from": from.Hex(), "permitted": map[string]string{"token": pt.Token.Hex(), "amount": amount.String()},
			"spender": pt.Spender.Hex(), "nonce": pt.Nonce.String(), "deadline": pt.Deadline.String(), "witness": witness,
		},
	})
	if err != nil {
		return nil, err
	}
	p := &x402.PaymentPayload{X402Version: x402.Version, Resource: challenge.Resource, Accepted: *offer, Payload: payload}
	if declares(challenge, eip2612GasSponsoring) && t.RPC != "" && offer.Extra != nil && offer.Extra.Name != "" {
		if p.Extensions, err = t.permitOfPermit2(ctx, offer, from, pt); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// declares reports whether the 402 declares the extension key.
func declares(challenge *x402.PaymentRequired, key string) bool {
	var ext map[string]json.RawMessage
	return json.Unmarshal(challenge.Extensions, &ext) == nil && ext[key] != nil
}

// permitOfPermit2 is the eip2612GasSponsoring extension of a payment: nil
// when the payer already allows Permit2 the amount, or else its EIP-2612
// permit of Permit2 for the amount at its token nonce.
func (t *Transport) permitOfPermit2(ctx context.Context, offer *x402.PaymentRequirements, from common.Address, pt contracts.Permit2Transfer) (json.RawMessage, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	chain, err := rpc.DialOptions(ctx, t.RPC, rpc.WithHTTPClient(&http.Client{Transport: base}))
	if err != nil {
		return nil, err
	}
	defer chain.Close()
	tok := contracts.NewDevPermitToken() // the ERC-20 and EIP-2612 reads any token has
	var allowance, nonce hexutil.Bytes
	batch := []rpc.BatchElem{
		{Method: "eth_call", Args: []any{map[string]any{"to": pt.Token, "data": hexutil.Bytes(tok.PackAllowance(from, contracts.Permit2Address))}, "latest"}, Result: &allowance},
		{Method: "eth_call", Args: []any{map[string]any{"to": pt.Token, "data": hexutil.Bytes(tok.PackNonces(from))}, "latest"}, Result: &nonce},
	}
	if err := chain.BatchCallContext(ctx, batch); err != nil {
		return nil, fmt.Errorf("x402 client: reading the allowance of Permit2: %w", err)
	}
	if errors.Join(batch[0].Error, batch[1].Error) != nil {
		// A token without EIP-2612 (no nonces): the payer must have
		// approved Permit2 itself, and the facilitator says so if not.
		return nil, nil
	}
	if new(big.Int).SetBytes(allowance).Cmp(pt.Amount) >= 0 {
		return nil, nil
	}
	permit := contracts.ERC2612Permit{Owner: from, Spender: contracts.Permit2Address, Value: pt.Amount, Nonce: new(big.Int).SetBytes(nonce), Deadline: pt.Deadline}
	sig, err := permit.Sign(contracts.TokenDomain{Name: offer.Extra.Name, Version: offer.Extra.Version, ChainID: pt.ChainID, Token: pt.Token}, t.Key)
	if err != nil {
		return nil, fmt.Errorf("x402 client: %w", err)
	}
	return json.Marshal(map[string]any{eip2612GasSponsoring: map[string]any{"info": map[string]string{
		"from": from.Hex(), "asset": pt.Token.Hex(), "spender": contracts.Permit2Address.Hex(), "amount": pt.Amount.String(),
		"nonce": permit.Nonce.String(), "deadline": permit.Deadline.String(), "signature": hexutil.Encode(sig), "version": "1",
	}}})
}
