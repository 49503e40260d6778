package caddymodule

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

// BazaarConfig declares a paid route discoverable: facilitator.Bazaar,
// the x402 handler's bazaar block.
type BazaarConfig = facilitator.Bazaar

// discoverable builds the route's bazaar extension, for its 402, and lists
// the route in the x402 app's catalog; with no bazaar block it does
// nothing. The configuration is valid.
func (h *Handler) discoverable(offers []x402.PaymentRequirements) (json.RawMessage, error) {
	if h.Bazaar == nil {
		return nil, nil
	}
	ext, err := h.Bazaar.Extension()
	if err != nil {
		return nil, fmt.Errorf("x402 bazaar: %w", err)
	}
	extensions, err := json.Marshal(map[string]json.RawMessage{"bazaar": ext})
	if err != nil {
		return nil, fmt.Errorf("x402 bazaar: %w", err)
	}
	// The 402 must still carry its PAYMENT-REQUIRED header, with room
	// for a request URI longer than the declared path.
	probe := &x402.PaymentRequired{
		X402Version: x402.Version, Error: strings.Repeat("e", 256), Accepts: offers, Extensions: extensions,
		Resource: &x402.Resource{URL: h.Origin + h.Bazaar.Path + strings.Repeat("q", 1024), Description: h.Description, MimeType: h.MimeType},
	}
	if _, err := x402.EncodeHeader(probe); err != nil {
		return nil, fmt.Errorf("x402 bazaar: the 402 with this declaration and %d offers would not fit the PAYMENT-REQUIRED header: %w", len(offers), err)
	}
	h.listed = h.Bazaar.Entry(h.Origin, h.Description, h.MimeType, offers, ext)
	h.app.catalog.Add(h.listed)
	return extensions, nil
}

// maxPageTemplate bounds a paywall_template file.
const maxPageTemplate = 1 << 20

// pageTemplate reads the paywall_template file, if there is one.
func (h *Handler) pageTemplate() (string, error) {
	if h.PaywallTemplate == "" {
		return "", nil
	}
	f, err := os.Open(h.PaywallTemplate)
	if err != nil {
		return "", fmt.Errorf("x402 paywall_template: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxPageTemplate+1))
	if err != nil {
		return "", fmt.Errorf("x402 paywall_template: %w", err)
	}
	if len(src) > maxPageTemplate {
		return "", fmt.Errorf("x402 paywall_template %s: over %d bytes", h.PaywallTemplate, maxPageTemplate)
	}
	return string(src), nil
}

// assetDecimals is a's decimals, 6 by default.
func assetDecimals(a AssetConfig) uint8 { return cmp.Or(a.Decimals, 6) }

// walletNetworks tells the browser page's wallets where the app's dev
// chains are (their JSON-RPC on devnet_addr), so that a wallet is asked to
// add the right one; a dev chain on a port chosen at start is left to the
// visitor.
func (h *Handler) walletNetworks() map[string]paywall.WalletNetwork {
	out := map[string]paywall.WalletNetwork{}
	for _, c := range h.app.chains {
		if !c.plan.devnet || anyPort(c.plan.fixed.DevnetAddr) {
			continue
		}
		out[c.plan.network] = paywall.WalletNetwork{Name: fmt.Sprintf("caddy-x402 devnet (chain id %d)", c.plan.fixed.ChainID), RPCURL: "http://" + c.plan.fixed.DevnetAddr}
	}
	return out
}

// issuedOffer is an offer of the route in the offer set of its network's
// facilitator.
type issuedOffer struct {
	set   *facilitator.OfferSet
	offer x402.PaymentRequirements
}

// hasAsset reports whether address (or a token's name) is among assets.
func hasAsset(assets []AssetConfig, address string) bool {
	return slices.ContainsFunc(assets, func(a AssetConfig) bool { return a.matches(address) })
}

// networks is what the route's networks offer: every network of the x402
// app, or those that Networks names. Before the app is known, it is
// empty.
func (h *Handler) networks() ([]netOffer, error) {
	if h.app == nil {
		return nil, nil
	}
	all := h.app.offerable()
	if len(h.Networks) == 0 {
		return all, nil
	}
	var chosen []netOffer
	var errs []error
	for _, want := range h.Networks {
		i := slices.IndexFunc(all, func(n netOffer) bool { return n.network == want })
		if want == NetworkDevnet {
			i = slices.IndexFunc(h.app.networks(), func(n *NetworkConfig) bool { return n.Network == NetworkDevnet })
		}
		switch {
		case i < 0:
			names := make([]string, len(all))
			for j, n := range all {
				names[j] = n.network
			}
			errs = append(errs, fmt.Errorf("x402 networks: %q is not a network of the x402 app (%s)", want, strings.Join(names, ", ")))
		case slices.ContainsFunc(chosen, func(n netOffer) bool { return n.network == all[i].network }):
			errs = append(errs, fmt.Errorf("x402 networks: %q is named twice", want))
		default:
			chosen = append(chosen, all[i])
		}
	}
	return chosen, errors.Join(errs...)
}

// networkLabel is the network label of the metrics of a request that
// accepted no offer (an unpaid one): the route's networks, joined by
// commas, so that the series stay bounded by the config.
func (h *Handler) networkLabel() string {
	nets, _ := h.networks()
	names := make([]string, len(nets))
	for i, n := range nets {
		names[i] = n.network
	}
	return strings.Join(names, ",")
}

// offers is every (network, asset, scheme) offer of the route, from a
// valid configuration, with the decimals of the assets by network and
// lowercase address.
func (h *Handler) offers() ([]x402.PaymentRequirements, map[string]uint8, error) {
	schemes := h.Schemes
	if len(schemes) == 0 {
		schemes = []string{x402.SchemeExact}
	}
	if h.Upto != nil && !h.channelMetered() {
		schemes = []string{x402.SchemeUpto}
	}
	nets, err := h.networks()
	if err != nil {
		return nil, nil, err
	}
	timeout := int(time.Duration(h.MaxTimeout) / time.Second)
	if timeout <= 0 {
		timeout = 60
	}
	var offers []x402.PaymentRequirements
	decimals := map[string]uint8{}
	for _, n := range nets {
		for _, a := range n.assets {
			if len(h.Assets) > 0 && !slices.ContainsFunc(h.Assets, a.matches) {
				continue
			}
			d := assetDecimals(a)
			if prev, ok := decimals[strings.ToLower(a.Address)]; ok && prev != d {
				return nil, nil, fmt.Errorf("x402: token %s has %d decimals on one network and %d on another; a route prices it in one unit, so give it networks of one kind", a.Address, prev, d)
			}
			decimals[strings.ToLower(a.Address)] = d
			amount := h.Amount
			if h.perRequest() || h.PriceService != nil {
				amount = "" // priced for each request
			} else if h.Price != "" {
				if amount, err = priceOf(h.Price, a); err != nil {
					return nil, nil, fmt.Errorf("x402 price, in %s: %w", assetName(a), err)
				}
			}
			for _, s := range schemes {
				extra := &x402.Extra{Name: a.Name, Version: a.Version}
				if a.Permit2 {
					extra.AssetTransferMethod = x402.AssetTransferPermit2
				}
				if s == x402.SchemeExact && a.Name == "" {
					continue // no EIP-3009: aa-native only
				}
				extras := []*x402.Extra{extra}
				if s == x402.SchemeAANative {
					if len(n.aa) == 0 {
						continue // aa-native is served on the first network only
					}
					extras = n.aa // one offer per EntryPoint
				}
				if s == x402.SchemeBatchSettlement {
					if n.chain == nil || n.chain.plan.batch == nil || (a.Name == "" && !a.Permit2) {
						continue // channels are the embedded facilitator's, in EIP-712 tokens (Validate says so)
					}
					b := n.chain.plan.batch
					minDeposit, err := b.minDepositOf(amount, a)
					if err != nil {
						return nil, nil, err
					}
					extra = &x402.Extra{Name: a.Name, Version: a.Version, ReceiverAuthorizer: b.receiverAuthorizer().Hex(), WithdrawDelay: int(b.withdrawDelay / time.Second), MinDeposit: minDeposit}
					if a.Permit2 {
						extra.AssetTransferMethod = x402.AssetTransferPermit2
					}
					extras = []*x402.Extra{extra}
				}
				if s == x402.SchemeUpto {
					if n.chain == nil {
						continue // needs the embedded facilitator (Validate says so)
					}
					extra = &x402.Extra{Name: a.Name, Version: a.Version, FacilitatorAddress: n.chain.settler().Hex()}
					if a.Permit2 {
						// Its EIP-2612 permit approves Permit2 (the 402
						// declares eip2612GasSponsoring).
						extra.AssetTransferMethod = x402.AssetTransferPermit2
					}
					extras = []*x402.Extra{extra}
				}
				for _, extra := range extras {
					offers = append(offers, x402.PaymentRequirements{
						Scheme: s, Network: n.network, Amount: amount, Asset: a.Address, PayTo: h.PayTo,
						MaxTimeoutSeconds: timeout, Extra: extra,
					})
				}
			}
		}
	}
	return offers, decimals, nil
}

// eip2612Declaration is upstream's declaration of the eip2612GasSponsoring
// extension in a 402: the facilitator submits a payer's EIP-2612 permit of
// Permit2 with its first Permit2 payment.
var eip2612Declaration = json.RawMessage(`{"info":{"description":"The facilitator accepts EIP-2612 gasless Permit to ` + "`Permit2`" + ` canonical contract.","version":"1"}}`)

// withEIP2612GasSponsoring adds eip2612GasSponsoring to a 402's extensions
// when some offer is in a token declared permit2 (one with EIP-2612), so
// that upstream's clients send a permit of Permit2 with their payment
// instead of asking the payer to approve Permit2 in a transaction of its
// own. (Upstream's clients then try a permit for every Permit2 offer of
// the 402: a route that also offers upto in a token without EIP-2612
// should not offer both.)
func withEIP2612GasSponsoring(extensions json.RawMessage, offers []x402.PaymentRequirements) json.RawMessage {
	if !slices.ContainsFunc(offers, func(o x402.PaymentRequirements) bool {
		return o.Extra != nil && o.Extra.AssetTransferMethod == x402.AssetTransferPermit2
	}) {
		return extensions
	}
	ext := map[string]json.RawMessage{}
	if len(extensions) > 0 && string(extensions) != "null" {
		if err := json.Unmarshal(extensions, &ext); err != nil {
			return extensions
		}
	}
	ext[exact.EIP2612GasSponsoring] = eip2612Declaration
	out, err := json.Marshal(ext)
	if err != nil {
		return extensions
	}
	return out
}
