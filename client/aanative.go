package client

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// RequestHash derives a payment's settlement request hash:
//
//	keccak256("x402:aa-native:v1" ‖ chainId (32 bytes) ‖ settlement ‖
//	          sender ‖ nonce (32 bytes) ‖ resource URL ‖ 32 random bytes)
//
// It names the payment uniquely (the random part) while tying it to what
// it pays for, so a merchant can recompute it from the payment.
func RequestHash(chainID *big.Int, settlement, sender common.Address, nonce *big.Int, resource string, salt [32]byte) common.Hash {
	return crypto.Keccak256Hash(
		[]byte("x402:aa-native:v1"), common.LeftPadBytes(chainID.Bytes(), 32), settlement.Bytes(), sender.Bytes(),
		common.LeftPadBytes(nonce.Bytes(), 32), []byte(resource), salt[:],
	)
}

// PayAANative signs an aa-native payment: from the signer key alone it derives
// the SimpleAccount (salt 0) of the offer's factory, adds initCode if the
// account is not deployed yet, builds executeBatch(approve, settle) with a
// fresh request hash, has the offer's sponsorUrl sponsor the gas, and signs
// the UserOperation hash. It needs the chain's RPC (Transport.RPC) to read
// the account's nonce and deployment.
func (t *Transport) PayAANative(ctx context.Context, challenge *x402.PaymentRequired, offer *x402.PaymentRequirements) (*x402.PaymentPayload, error) {
	if t.RPC == "" {
		return nil, errors.New("x402 client: aa-native needs Transport.RPC, the chain's JSON-RPC URL")
	}
	// Over Base, like the paid requests, whose idle connections an HTTP
	// endpoint then reuses from one payment to the next.
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	chain, err := rpc.DialOptions(ctx, t.RPC, rpc.WithHTTPClient(&http.Client{Transport: base}))
	if err != nil {
		return nil, err
	}
	defer chain.Close()
	ex := offer.Extra
	chainID, _ := x402.ParseNetwork(offer.Network)
	var (
		entryPoint = common.HexToAddress(ex.EntryPoint)
		factoryA   = common.HexToAddress(ex.Factory)
		settlement = common.HexToAddress(ex.Settlement)
		token      = common.HexToAddress(offer.Asset)
		payTo      = common.HexToAddress(offer.PayTo)
		owner      = crypto.PubkeyToAddress(t.Key.PublicKey)
		factory    = contracts.NewSimpleAccountFactory()
		nonces     = contracts.NewEntryPoint() // getNonce is the same in every version
		salt       = new(big.Int)
	)
	amount, _ := x402.ParseAmount(offer.Amount)
	call := func(to common.Address, data []byte) ([]byte, error) {
		var out hexutil.Bytes
		err := chain.CallContext(ctx, &out, "eth_call", map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest")
		return out, err
	}
	ep, err := entrypoint.New(ex.EntryPointVersion, entryPoint)
	if err != nil {
		return nil, fmt.Errorf("x402 client: %w", err)
	}
	// An EIP-7702 payer is the key's own EOA, delegated to
	// t.EIP7702Delegate by the authorization the operation carries;
	// otherwise the payer is the key's SimpleAccount of the offer's factory.
	eoa := t.EIP7702Delegate != (common.Address{}) && ep.EIP7702()
	sender := owner
	var code hexutil.Bytes
	if eoa {
		// Once delegated, the EOA sends plain operations, as viem does.
		if err := chain.CallContext(ctx, &code, "eth_getCode", sender, "latest"); err != nil {
			return nil, err
		}
	} else {
		out, err := call(factoryA, factory.PackGetAddress(owner, salt))
		if err != nil {
			return nil, fmt.Errorf("x402 client: deriving the smart account: %w", err)
		}
		if sender, err = factory.UnpackGetAddress(out); err != nil {
			return nil, err
		}
		if err := chain.CallContext(ctx, &code, "eth_getCode", sender, "latest"); err != nil {
			return nil, err
		}
	}
	out, err := call(entryPoint, nonces.PackGetNonce(sender, new(big.Int)))
	if err != nil {
		return nil, fmt.Errorf("x402 client: reading the account's nonce: %w", err)
	}
	nonce, err := nonces.UnpackGetNonce(out)
	if err != nil {
		return nil, err
	}
	var random [32]byte
	if _, err := rand.Read(random[:]); err != nil {
		return nil, err
	}
	resource := ""
	if challenge.Resource != nil {
		resource = challenge.Resource.URL
	}
	requestHash := RequestHash(new(big.Int).SetUint64(chainID), settlement, sender, nonce, resource, random)
	if t.RequestHashFunc != nil {
		requestHash = t.RequestHashFunc(sender, nonce, resource)
	}
	callData, err := ep.EncodeAccountCall([]entrypoint.Call{
		{Target: token, Data: contracts.NewDevUSD().PackApprove(settlement, amount)},
		{Target: settlement, Data: contracts.NewX402Settlement().PackSettle(payTo, token, amount, requestHash)},
	})
	if err != nil {
		return nil, err
	}
	unsigned := entrypoint.UserOperation{Sender: sender, Nonce: nonce, CallData: callData}
	delegated := eoa && bytes.Equal(code, types.AddressToDelegation(t.EIP7702Delegate))
	switch {
	case delegated:
	case eoa:
		if unsigned.EIP7702Auth, err = t.authorize(ctx, chain, chainID); err != nil {
			return nil, err
		}
		unsigned.Factory = entrypoint.EIP7702Marker
	case len(code) == 0:
		unsigned.Factory, unsigned.FactoryData = factoryA, factory.PackCreateAccount(owner, salt)
	}
	var sponsored json.RawMessage
	if err := t.sponsor(ctx, ex.SponsorURL, ep.EncodeOp(&unsigned), entryPoint, eoa || len(code) > 0, &sponsored); err != nil {
		return nil, err
	}
	op, err := ep.DecodeOp(sponsored, false)
	if err != nil {
		return nil, fmt.Errorf("x402 client: the sponsored operation does not decode: %w", err)
	}
	if op.Sender != sender || !bytes.Equal(op.CallData, callData) || op.Nonce.Cmp(nonce) != 0 ||
		op.Factory != unsigned.Factory || !bytes.Equal(op.FactoryData, unsigned.FactoryData) {
		return nil, errors.New("x402 client: the sponsor changed the operation")
	}
	op.EIP7702Auth = unsigned.EIP7702Auth // ours, whatever the sponsor echoed
	digest := ep.AccountDigest(ep.UserOpHash(&op, new(big.Int).SetUint64(chainID)))
	if op.Signature, err = crypto.Sign(digest[:], t.Key); err != nil {
		return nil, err
	}
	op.Signature[64] += 27
	payload, err := json.Marshal(struct {
		UserOp             any                     `json:"userOp"`
		SettlementCallSpec x402.SettlementCallSpec `json:"settlementCallSpec"`
	}{ep.EncodeOp(&op), x402.SettlementCallSpec{
		Merchant: payTo.Hex(), Token: token.Hex(), Amount: amount.String(), RequestHash: requestHash.Hex(),
	}})
	if err != nil {
		return nil, err
	}
	return &x402.PaymentPayload{X402Version: x402.Version, Resource: challenge.Resource, Accepted: *offer, Payload: payload}, nil
}

// authorize signs the EIP-7702 authorization that delegates the key's EOA
// to t.EIP7702Delegate on chainID, at the EOA's next nonce (a bundle's
// set-code transaction, sent by another account, applies it).
func (t *Transport) authorize(ctx context.Context, chain *rpc.Client, chainID uint64) (*types.SetCodeAuthorization, error) {
	var nonce hexutil.Uint64
	if err := chain.CallContext(ctx, &nonce, "eth_getTransactionCount", crypto.PubkeyToAddress(t.Key.PublicKey), "pending"); err != nil {
		return nil, fmt.Errorf("x402 client: reading the EOA's nonce: %w", err)
	}
	auth, err := types.SignSetCode(t.Key, types.SetCodeAuthorization{ChainID: *uint256.NewInt(chainID), Address: t.EIP7702Delegate, Nonce: uint64(nonce)})
	if err != nil {
		return nil, fmt.Errorf("x402 client: signing the EIP-7702 authorization: %w", err)
	}
	return &auth, nil
}

// sponsor calls pm_sponsor_userop at the offer's sponsorUrl (no key: the
// merchant's facilitator sponsors its own settlements), with free gas or,
// for a deployed account, the gas as t.Gas asks, and decodes the
// sponsored operation into out (the wire form of op's version).
func (t *Transport) sponsor(ctx context.Context, url string, op any, entryPoint common.Address, deployed bool, out any) error {
	gas := x402.SponsorContext{}
	if deployed && (t.Gas.Type != x402.SponsorFree || t.Gas.Token != "") {
		gas = x402.SponsorContext{Type: t.Gas.Type, Token: t.Gas.Token}
	}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "pm_sponsor_userop", "params": []any{op, entryPoint.Hex(), gas}})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if err != nil {
		return fmt.Errorf("x402 client: asking for sponsorship: %w", err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	var res struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return fmt.Errorf("x402 client: the sponsor answered %d without JSON-RPC", resp.StatusCode)
	}
	if res.Error != nil {
		return fmt.Errorf("x402 client: sponsorship refused (%d): %s", res.Error.Code, res.Error.Message)
	}
	if len(res.Result) == 0 || string(res.Result) == "null" || json.Unmarshal(res.Result, out) != nil {
		return errors.New("x402 client: the sponsor returned no operation")
	}
	return nil
}
