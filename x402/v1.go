package x402

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// x402 version 1 is the protocol's first wire form, which upstream's v1
// clients (npm x402-fetch 1.x, x402-axios 0.x) still speak. It differs
// from version 2 in four ways that matter here:
//
//   - the challenge is the 402's JSON body, {x402Version:1, error, accepts},
//     and each offer names its price maxAmountRequired and carries the
//     resource's URL, description and media type;
//   - networks have names ("base-sepolia"), not CAIP-2 ids, and only the
//     chains upstream named have one;
//   - the payment travels in X-PAYMENT as {x402Version:1, scheme, network,
//     payload}, without the offer it accepted;
//   - the receipt travels in X-PAYMENT-RESPONSE.
//
// The scheme payloads are the same: an exact payment is an EIP-3009
// authorization ([ExactPayload]) in both. So a v1 payment is a v2 payment
// once its network is mapped and the offer it pays is known, and this
// package converts rather than keeping a second protocol.

// VersionV1 is the x402Version of the first protocol version.
const VersionV1 = 1

// Header names of the x402 v1 HTTP exchange.
const (
	// HeaderXPayment carries an encoded [PaymentPayloadV1] on the retry.
	HeaderXPayment = "X-PAYMENT"
	// HeaderXPaymentResponse carries the encoded settle answer of a v1
	// payment.
	HeaderXPaymentResponse = "X-PAYMENT-RESPONSE"
)

// v1Networks are the x402 v1 names of EVM chains, by chain id, as
// upstream's x402 1.2.0 (the one x402-fetch 1.2.0 validates against) names
// them in its NetworkSchema and EvmNetworkToChainId. A chain without a name
// here cannot be paid by a v1 client, which refuses any other network.
var v1Networks = map[uint64]string{
	2741:      "abstract",
	11124:     "abstract-testnet",
	84532:     "base-sepolia",
	8453:      "base",
	43113:     "avalanche-fuji",
	43114:     "avalanche",
	4689:      "iotex",
	1329:      "sei",
	1328:      "sei-testnet",
	137:       "polygon",
	80002:     "polygon-amoy",
	3338:      "peaq",
	1514:      "story",
	41923:     "educhain",
	324705682: "skale-base-sepolia",
}

// v1ChainIDs is v1Networks inverted.
var v1ChainIDs = func() map[string]uint64 {
	m := make(map[string]uint64, len(v1Networks))
	for id, name := range v1Networks {
		m[name] = id
	}
	return m
}()

// NetworkV1Name returns the x402 v1 name of a CAIP-2 network id, such as
// "base-sepolia" for "eip155:84532"; false when the chain has no v1 name
// (then v1 clients cannot pay on it).
func NetworkV1Name(network string) (string, bool) {
	id, err := ParseNetwork(network)
	if err != nil {
		return "", false
	}
	name, ok := v1Networks[id]
	return name, ok
}

// NetworkFromV1 returns the CAIP-2 id of an x402 v1 network name; false
// for a name that is not an EVM chain of v1.
func NetworkFromV1(name string) (string, bool) {
	id, ok := v1ChainIDs[name]
	if !ok {
		return "", false
	}
	return FormatNetwork(id), true
}

// NetworksV1 lists the v1 network names this package maps, sorted.
func NetworksV1() []string {
	names := make([]string, 0, len(v1ChainIDs))
	for name := range v1ChainIDs {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// PaymentRequirementsV1 is one offer of a v1 challenge. Every field but
// OutputSchema and Extra is required by v1 clients, which validate it.
type PaymentRequirementsV1 struct {
	// Scheme is "exact": the only EVM scheme of v1.
	Scheme string `json:"scheme"`
	// Network is the v1 network name, such as "base-sepolia".
	Network string `json:"network"`
	// MaxAmountRequired is the price in atomic units of Asset, in decimal.
	MaxAmountRequired string `json:"maxAmountRequired"`
	// Resource is the resource's absolute URL.
	Resource string `json:"resource"`
	// Description says what the payment buys; it may be empty.
	Description string `json:"description"`
	// MimeType is the media type of the resource; it may be empty.
	MimeType string `json:"mimeType"`
	// OutputSchema describes the answer, when the merchant says.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// PayTo is the merchant's recipient address.
	PayTo string `json:"payTo"`
	// MaxTimeoutSeconds bounds how long the payment may take.
	MaxTimeoutSeconds int `json:"maxTimeoutSeconds"`
	// Asset is the ERC-20 token address.
	Asset string `json:"asset"`
	// Extra holds the token's EIP-712 domain name and version.
	Extra *Extra `json:"extra,omitempty"`
}

// PaymentRequiredV1 is the JSON body of a 402 that v1 clients read.
type PaymentRequiredV1 struct {
	// X402Version is always [VersionV1].
	X402Version int `json:"x402Version"`
	// Error says why an earlier payment was refused, if one was.
	Error string `json:"error,omitempty"`
	// Accepts lists the offers a v1 client can pay.
	Accepts []PaymentRequirementsV1 `json:"accepts"`
}

// PaymentPayloadV1 is a v1 signed payment: the value of X-PAYMENT, and the
// paymentPayload of a v1 verify or settle request.
type PaymentPayloadV1 struct {
	// X402Version must be [VersionV1].
	X402Version int `json:"x402Version"`
	// Scheme is the scheme paid with.
	Scheme string `json:"scheme"`
	// Network is the v1 network name paid on.
	Network string `json:"network"`
	// Payload is the scheme-specific signed object, as in v2.
	Payload json.RawMessage `json:"payload"`
}

// VerifyRequestV1 is the body of a v1 POST /verify or /settle, as
// upstream's v1 merchants (x402-express 0.x and the like) send it.
type VerifyRequestV1 struct {
	// X402Version is [VersionV1].
	X402Version         int                   `json:"x402Version"`
	PaymentPayload      PaymentPayloadV1      `json:"paymentPayload"`
	PaymentRequirements PaymentRequirementsV1 `json:"paymentRequirements"`
}

// V1 returns the v1 form of an offer for the resource res; false when v1
// clients cannot pay it: a scheme other than exact, or a network without
// a v1 name.
func (r *PaymentRequirements) V1(res *Resource) (PaymentRequirementsV1, bool) {
	name, ok := NetworkV1Name(r.Network)
	if !ok || r.Scheme != SchemeExact {
		return PaymentRequirementsV1{}, false
	}
	v := PaymentRequirementsV1{
		Scheme: r.Scheme, Network: name, MaxAmountRequired: r.Amount,
		PayTo: r.PayTo, MaxTimeoutSeconds: r.MaxTimeoutSeconds, Asset: r.Asset, Extra: r.Extra,
	}
	if res != nil {
		v.Resource, v.Description, v.MimeType = res.URL, res.Description, res.MimeType
	}
	return v, true
}

// V2 returns the requirements in version 2's form, the network as its
// CAIP-2 id. A network name v1 does not define is an error.
func (r *PaymentRequirementsV1) V2() (PaymentRequirements, error) {
	network, ok := NetworkFromV1(r.Network)
	if !ok {
		return PaymentRequirements{}, fmt.Errorf("network %q is not an x402 v1 EVM network", r.Network)
	}
	return PaymentRequirements{
		Scheme: r.Scheme, Network: network, Amount: r.MaxAmountRequired, Asset: r.Asset,
		PayTo: r.PayTo, MaxTimeoutSeconds: r.MaxTimeoutSeconds, Extra: r.Extra,
	}, nil
}

// Validate checks the payment's version and that it names a scheme and a
// network and carries a JSON object. Whether the network is one v1 names
// is checked where it is mapped, so that the refusal can say so.
func (p *PaymentPayloadV1) Validate() error {
	var errs []error
	if p.X402Version != VersionV1 {
		errs = append(errs, fmt.Errorf("x402Version is %d, want %d", p.X402Version, VersionV1))
	}
	if p.Scheme == "" {
		errs = append(errs, errors.New("scheme is missing"))
	}
	if p.Network == "" {
		errs = append(errs, errors.New("network is missing"))
	}
	if t := bytes.TrimSpace(p.Payload); len(t) == 0 || t[0] != '{' {
		errs = append(errs, errors.New("payload must be a JSON object"))
	}
	return errors.Join(errs...)
}

// DecodePaymentPayloadV1 decodes and validates an X-PAYMENT value. Its
// errors are those of [DecodePaymentPayload]: a [HeaderTooLargeError], or
// one that wraps [ErrMalformedHeader].
func DecodePaymentPayloadV1(value string) (*PaymentPayloadV1, error) {
	var p PaymentPayloadV1
	if err := DecodeHeader(value, &p); err != nil {
		return nil, err
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformedHeader, err)
	}
	return &p, nil
}

// V2 returns the payment as version 2 writes it, having accepted the
// offer accepted: its version becomes [Version], and the scheme and
// network it names replace the offer's, so that a payment made on another
// network than the offer's is refused as a network mismatch by whoever
// verifies it. A network name v1 does not define is an error.
func (p *PaymentPayloadV1) V2(accepted PaymentRequirements) (*PaymentPayload, error) {
	network, ok := NetworkFromV1(p.Network)
	if !ok {
		return nil, fmt.Errorf("network %q is not an x402 v1 EVM network", p.Network)
	}
	accepted.Scheme, accepted.Network = p.Scheme, network
	return &PaymentPayload{X402Version: Version, Accepted: accepted, Payload: p.Payload}, nil
}

// V2 returns the request in version 2's form: the requirements mapped, and
// the payment as having accepted them (see [PaymentPayloadV1.V2]); the
// resource the merchant described in its requirements becomes the
// request's Resource. It validates the request as [VerifyRequest.Validate]
// does, and a failure is malformed_request.
func (r *VerifyRequestV1) V2() (*VerifyRequest, error) {
	if r.X402Version != VersionV1 {
		return nil, fmt.Errorf("x402Version is %d, want %d", r.X402Version, VersionV1)
	}
	if err := r.PaymentPayload.Validate(); err != nil {
		return nil, fmt.Errorf("paymentPayload: %w", err)
	}
	req, err := r.PaymentRequirements.V2()
	if err != nil {
		return nil, fmt.Errorf("paymentRequirements: %w", err)
	}
	payment, err := r.PaymentPayload.V2(req)
	if err != nil {
		return nil, fmt.Errorf("paymentPayload: %w", err)
	}
	out := &VerifyRequest{X402Version: Version, PaymentPayload: *payment, PaymentRequirements: req}
	if pr := r.PaymentRequirements; pr.Resource != "" {
		out.Resource = &Resource{URL: pr.Resource, Description: pr.Description, MimeType: pr.MimeType}
	}
	if err := out.Validate(); err != nil {
		return nil, err
	}
	return out, nil
}

// ParseVerifyRequestV1 decodes the body of a v1 verify or settle request
// and returns it in version 2's form (see [VerifyRequestV1.V2]).
func ParseVerifyRequestV1(data []byte) (*VerifyRequest, error) {
	var r VerifyRequestV1
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, err
	}
	return r.V2()
}

// V1 returns a settle answer as a v1 client reads it: x402Version 1 and
// the network by its v1 name (its CAIP-2 id where it has none). Upstream's
// v1 fields (success, transaction, network, payer, errorReason) are among
// those every SettleResponse writes.
func (r SettleResponse) V1() SettleResponse {
	r.X402Version = VersionV1
	if name, ok := NetworkV1Name(r.Network); ok {
		r.Network = name
	}
	return r
}
