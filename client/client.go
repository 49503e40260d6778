// Package client is a Go payer for x402: an http.RoundTripper that answers a
// 402 Payment Required by signing a payment and repeating the request.
//
// It pays the exact scheme (an EIP-3009 authorization signed with the
// payer's key, from the key's address or from a contract wallet the key
// signs for, or for a token offered with assetTransferMethod permit2 a
// Permit2 transfer) on any eip155 network whose offer names the token's
// EIP-712 domain, upto (a Permit2 transfer of at most the offer's amount;
// the server charges what the response used), and aa-native. It never pays more than its limit. When the server answers a paid
// request with 503 (the settlement's outcome is not known yet), it retries
// with the same payment rather than signing a new one, so a payment is
// never made twice.
package client

import (
	"bytes"
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Transport is an http.RoundTripper that pays x402 challenges.
type Transport struct {
	// Base sends the requests; default http.DefaultTransport.
	Base http.RoundTripper
	// Key is the payer's private key. It never leaves the process.
	Key *ecdsa.PrivateKey
	// Wallet, if set, makes exact payments from a contract wallet that Key
	// signs for (ERC-1271, and ERC-6492 while it is not deployed), not
	// from Key's own address.
	Wallet *Wallet
	// MaxAmount is the most this transport pays for one request, in atomic
	// units of the offered token. Offers above it are refused. Required: a
	// payer without a limit pays whatever a server asks.
	MaxAmount *big.Int
	// Assets, if set, is the allowlist of token addresses (any case) the
	// transport pays with.
	Assets []string
	// Retries is how many times a paid request answered with 503 is
	// repeated with the same payment; default 5.
	Retries int
	// Schemes are the schemes this transport pays, in order of preference;
	// default exact only. aa-native also needs RPC; upto may be added.
	Schemes []string
	// EntryPointVersions are the ERC-4337 EntryPoint versions ("0.6",
	// "0.7") whose aa-native offers this transport pays; default every
	// version package entrypoint knows. An offer without
	// extra.entryPointVersion is "0.6".
	EntryPointVersions []string
	// RPC is the chain's JSON-RPC URL, which aa-native payments read the
	// smart account's state from, and Permit2 payments the payer's
	// allowance of Permit2 (to send an EIP-2612 permit of it when short).
	RPC string
	// RequestHashFunc, if set, chooses aa-native request hashes instead of
	// RequestHash with a random salt, for merchants that assign them.
	RequestHashFunc func(sender common.Address, nonce *big.Int, resource string) common.Hash
	// Gas is how aa-native payments ask the offer's sponsor to pay their
	// gas: zero is free gas (type 0); Type 1 (prepaid, the rest refunded)
	// or 2 (paid after the call) with Token, an ERC-20 of the paymaster's
	// gas tokens, has the smart account pay it in that token. The account
	// must then be deployed and have approved the token paymaster of the
	// offer's EntryPoint version for at least the operation's maximum gas
	// cost; while it is not deployed its first payment asks for free gas.
	// When Token is the offer's asset, the account must hold the price
	// and that maximum. ValidUntil is ignored.
	Gas x402.SponsorContext
	// EIP7702Delegate, if set, pays aa-native offers of an EntryPoint
	// version that takes EIP-7702 senders (v0.8) from the key's own EOA
	// instead of its SimpleAccount: until the EOA delegates to this
	// contract (the offer's network's Simple7702Account, which the
	// facilitator must accept), each operation carries the 0x7702 marker
	// and an authorization that delegates it; once delegated, plain
	// operations. Zero pays from the SimpleAccount.
	EIP7702Delegate common.Address
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// ErrNoAcceptableOffer means the 402 offered nothing this transport pays.
var ErrNoAcceptableOffer = errors.New("x402 client: no acceptable offer")

// maxReplayBody bounds the request body kept in memory to repeat it.
const maxReplayBody = 8 << 20

// RoundTrip sends req; a 402 is paid and the request sent again.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.Key == nil || t.MaxAmount == nil {
		return nil, errors.New("x402 client: Key and MaxAmount are required")
	}
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	if req.Body != nil && req.GetBody == nil {
		body, err := io.ReadAll(io.LimitReader(req.Body, maxReplayBody+1))
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		if len(body) > maxReplayBody {
			return nil, fmt.Errorf("x402 client: request body over %d bytes cannot be repeated", maxReplayBody)
		}
		req = req.Clone(req.Context())
		req.Body = io.NopCloser(bytes.NewReader(body))
		req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	}
	resp, err := base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusPaymentRequired {
		return resp, err
	}
	challenge, err := readChallenge(resp)
	if err != nil {
		return nil, err
	}
	offer, err := t.choose(challenge.Accepts)
	if err != nil {
		return nil, err
	}
	var payment *x402.PaymentPayload
	switch {
	case offer.Scheme == x402.SchemeAANative:
		payment, err = t.PayAANative(req.Context(), challenge, offer)
	case viaPermit2(offer):
		payment, err = t.PayPermit2(req.Context(), challenge, offer)
	default:
		payment, err = t.pay(req.Context(), challenge, offer)
	}
	if err != nil {
		return nil, err
	}
	header, err := x402.EncodeHeader(payment)
	if err != nil {
		return nil, err
	}
	retries := t.Retries
	if retries == 0 {
		retries = 5
	}
	for attempt := 0; ; attempt++ {
		paid := req.Clone(req.Context())
		if req.GetBody != nil {
			if paid.Body, err = req.GetBody(); err != nil {
				return nil, err
			}
		}
		paid.Header.Set(x402.HeaderPaymentSignature, header)
		resp, err = base.RoundTrip(paid)
		if err != nil || resp.StatusCode != http.StatusServiceUnavailable || attempt >= retries {
			return resp, err
		}
		wait := retryAfter(resp)
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		select {
		case <-time.After(wait):
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
}

func retryAfter(resp *http.Response) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s >= 0 {
		return min(time.Duration(s)*time.Second, 10*time.Second)
	}
	return time.Second
}

// readChallenge decodes a 402's PAYMENT-REQUIRED header, or its body when
// the header is missing, and closes the body.
func readChallenge(resp *http.Response) (*x402.PaymentRequired, error) {
	defer resp.Body.Close()
	if v := resp.Header.Get(x402.HeaderPaymentRequired); v != "" {
		return x402.DecodePaymentRequired(v)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return nil, err
	}
	var pr x402.PaymentRequired
	if err := json.Unmarshal(body, &pr); err != nil {
		return nil, fmt.Errorf("x402 client: a 402 without a readable challenge: %w", err)
	}
	return &pr, pr.Validate()
}

// choose picks the offer this transport prefers among those it can and may
// pay.
func (t *Transport) choose(offers []x402.PaymentRequirements) (*x402.PaymentRequirements, error) {
	var reasons []string
	for _, scheme := range t.schemes() {
		for i := range offers {
			o := &offers[i]
			if o.Scheme != scheme {
				continue
			}
			if err := t.acceptable(o); err != nil {
				reasons = append(reasons, fmt.Sprintf("%s on %s: %v", o.Scheme, o.Network, err))
				continue
			}
			return o, nil
		}
	}
	if len(reasons) == 0 {
		reasons = append(reasons, fmt.Sprintf("no offer of the schemes %v", t.schemes()))
	}
	return nil, fmt.Errorf("%w: %s", ErrNoAcceptableOffer, strings.Join(reasons, "; "))
}

func (t *Transport) schemes() []string {
	if len(t.Schemes) > 0 {
		return t.Schemes
	}
	return []string{x402.SchemeExact}
}

func (t *Transport) acceptable(o *x402.PaymentRequirements) error {
	if err := o.Validate(); err != nil {
		return err
	}
	switch o.Scheme {
	case x402.SchemeExact:
		if o.Extra == nil || o.Extra.Name == "" || o.Extra.Version == "" {
			return errors.New("the offer does not name the token's EIP-712 domain (extra.name, extra.version)")
		}
	case x402.SchemeUpto:
		if o.Extra == nil || !common.IsHexAddress(o.Extra.FacilitatorAddress) {
			return errors.New("the offer does not name the facilitator (extra.facilitatorAddress)")
		}
	case x402.SchemeAANative:
		if o.Extra == nil || !common.IsHexAddress(o.Extra.EntryPoint) || !common.IsHexAddress(o.Extra.Factory) ||
			!common.IsHexAddress(o.Extra.Settlement) || o.Extra.SponsorURL == "" {
			return errors.New("the offer lacks extra.entryPoint, factory, settlement or sponsorUrl")
		}
		versions := t.EntryPointVersions
		if len(versions) == 0 {
			versions = entrypoint.Versions()
		}
		if v := cmp.Or(o.Extra.EntryPointVersion, entrypoint.DefaultVersion); !slices.Contains(versions, v) {
			return fmt.Errorf("EntryPoint version %q is not one this transport pays (%s)", v, strings.Join(versions, ", "))
		}
	default:
		return errors.New("scheme not supported")
	}
	amount, _ := x402.ParseAmount(o.Amount)
	if amount.Cmp(t.MaxAmount) > 0 {
		return fmt.Errorf("amount %s is over the limit %s", amount, t.MaxAmount)
	}
	if len(t.Assets) > 0 {
		allowed := false
		for _, a := range t.Assets {
			allowed = allowed || strings.EqualFold(a, o.Asset)
		}
		if !allowed {
			return fmt.Errorf("asset %s is not allowed", o.Asset)
		}
	}
	return nil
}

// Pay signs an exact payment for offer: a TransferWithAuthorization of the
// amount to payTo, valid from ten minutes ago (clock skew) until
// maxTimeoutSeconds from now, with a random nonce.
func (t *Transport) Pay(challenge *x402.PaymentRequired, offer *x402.PaymentRequirements) (*x402.PaymentPayload, error) {
	return t.pay(context.Background(), challenge, offer)
}

// window is the clock a payment for offer is signed by, and how many
// seconds it stays valid: the offer's maxTimeoutSeconds, 60 without one.
func (t *Transport) window(offer *x402.PaymentRequirements) (now func() time.Time, seconds int) {
	now = time.Now
	if t.Now != nil {
		now = t.Now
	}
	seconds = offer.MaxTimeoutSeconds
	if seconds <= 0 {
		seconds = 60
	}
	return now, seconds
}

// pay is Pay within ctx (a wallet's deployment is read from the chain).
func (t *Transport) pay(ctx context.Context, challenge *x402.PaymentRequired, offer *x402.PaymentRequirements) (*x402.PaymentPayload, error) {
	chainID, err := x402.ParseNetwork(offer.Network)
	if err != nil {
		return nil, err
	}
	now, timeout := t.window(offer)
	var nonce [32]byte
	if _, err := rand.Read(nonce[:]); err != nil {
		return nil, err
	}
	from := crypto.PubkeyToAddress(t.Key.PublicKey)
	if t.Wallet != nil {
		from = t.Wallet.Address
	}
	value, _ := x402.ParseAmount(offer.Amount)
	msg := contracts.TransferAuthorization{
		From: from, To: common.HexToAddress(offer.PayTo), Value: value,
		ValidAfter: big.NewInt(now().Unix() - 600), ValidBefore: big.NewInt(now().Unix() + int64(timeout)), Nonce: nonce,
	}
	sig, err := msg.Sign(contracts.TokenDomain{
		Name: offer.Extra.Name, Version: offer.Extra.Version,
		ChainID: new(big.Int).SetUint64(chainID), Token: common.HexToAddress(offer.Asset),
	}, t.Key)
	if err != nil {
		return nil, fmt.Errorf("x402 client: %w", err)
	}
	if t.Wallet != nil {
		if sig, err = t.walletSignature(ctx, sig); err != nil {
			return nil, err
		}
	}
	auth := x402.ExactAuthorization{
		From: from.Hex(), To: msg.To.Hex(), Value: msg.Value.String(),
		ValidAfter: msg.ValidAfter.String(), ValidBefore: msg.ValidBefore.String(), Nonce: hexutil.Encode(nonce[:]),
	}
	payload, err := json.Marshal(x402.ExactPayload{Signature: hexutil.Encode(sig), Authorization: auth})
	if err != nil {
		return nil, err
	}
	return &x402.PaymentPayload{X402Version: x402.Version, Resource: challenge.Resource, Accepted: *offer, Payload: payload}, nil
}

// Receipt decodes a response's PAYMENT-RESPONSE header, or its trailer (an
// upto response's, once the body has been read to its end); ok is false
// when the response carries none.
func Receipt(resp *http.Response) (res *x402.SettleResponse, ok bool, err error) {
	v := resp.Header.Get(x402.HeaderPaymentResponse)
	if v == "" {
		v = resp.Trailer.Get(x402.HeaderPaymentResponse)
	}
	if v == "" {
		return nil, false, nil
	}
	res, err = x402.DecodePaymentResponse(v)
	return res, err == nil, err
}
