package caddymodule

import (
	"errors"
	"fmt"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/tokens"
	"github.com/caddy-x402/caddy-x402/x402"
)

// resolveAssets fills in the assets that name a well-known token (`asset
// usdc`) from the table of package tokens, and checks the assets given by
// address that the table knows against it. It reads nothing but the
// table, so `caddy validate` runs it offline; the chain is read when the
// app starts (checkTokens).
func (a *App) resolveAssets() error {
	var errs []error
	for _, n := range a.networks() {
		if n.Network != NetworkDevnet {
			if err := checkNetwork(n.Network); err != nil {
				// The assets are judged on a network that exists; the
				// network's own error says what to write.
				errs = append(errs, fmt.Errorf("network: %w", err))
				continue
			}
		}
		for i := range n.Assets {
			if err := n.resolveAsset(&n.Assets[i]); err != nil {
				err = fmt.Errorf("asset %d: %w", i, err)
				if len(a.Networks) > 0 {
					err = fmt.Errorf("network %s: %w", n.Network, err)
				}
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

// resolveAsset resolves one asset of n.
func (n *NetworkConfig) resolveAsset(as *AssetConfig) error {
	if as.Token != "" {
		t, err := n.lookupToken(as.Token)
		if err != nil {
			return err
		}
		if err := agrees(as, t, "asset "+as.Token); err != nil {
			return err
		}
		as.Address, as.Name, as.Version, as.Decimals, as.known = t.Address.Hex(), t.Name, t.Version, t.Decimals, &t
		return nil
	}
	addr, err := x402.ParseAddress(as.Address)
	if err != nil {
		return nil // Validate says what is wrong with it
	}
	var t tokens.Token
	ok := false
	if n.Network == NetworkDevnet {
		t = tokens.DevUSD(n.id())
		ok = t.Address == common.Address(addr)
	} else {
		t, ok = tokens.ByAddress(n.Network, common.Address(addr))
	}
	if !ok {
		if other := tokens.ElsewhereThan(n.Network, common.Address(addr)); len(other) > 0 {
			// Issuers' addresses differ from chain to chain: the network
			// is mistyped, or the token is another network's.
			t := other[0]
			return fmt.Errorf("%s is the %s of %s (%s), not a token of network %s; did you mean network %s?", t.Address.Hex(), t.Symbol, t.Chain, t.Network, n.Network, t.Network)
		}
		return nil
	}
	if err := agrees(as, t, "the "+t.Symbol+" of "+t.Chain+" at "+t.Address.Hex()); err != nil {
		return err
	}
	as.known = &t
	return nil
}

// checkNetwork says what is wrong with network, a network's CAIP-2 id in
// the configuration: an x402 v1 name (base-sepolia) is named with the id
// it means.
func checkNetwork(network string) error {
	_, err := x402.ParseNetwork(network)
	if err == nil {
		return nil
	}
	if id, ok := x402.NetworkFromV1(network); ok {
		return fmt.Errorf("%q is x402 v1's name of a network; give its CAIP-2 id, %s (v1 clients are still answered in v1)", network, id)
	}
	return fmt.Errorf("%w (or %q for the embedded dev chain)", err, NetworkDevnet)
}

// lookupToken finds the token name names on n: dusd on the devnet, or an
// entry of the table.
func (n *NetworkConfig) lookupToken(name string) (tokens.Token, error) {
	if n.Network != NetworkDevnet {
		return tokens.Lookup(n.Network, name)
	}
	if strings.EqualFold(name, tokens.DevUSDSymbol) {
		return tokens.DevUSD(n.id()), nil
	}
	return tokens.Token{}, fmt.Errorf("%q is not a token of the devnet, whose stablecoin is %s (%s names the issuer's token on a real network, never the devnet's free one)", name, tokens.DevUSDSymbol, name)
}

// agrees checks what as gives beside its name against the table's t.
func agrees(as *AssetConfig, t tokens.Token, what string) error {
	var diff []string
	if as.Address != "" && !strings.EqualFold(as.Address, t.Address.Hex()) {
		diff = append(diff, fmt.Sprintf("address %s, not %s", t.Address.Hex(), as.Address))
	}
	if (as.Name != "" || as.Version != "") && (as.Name != t.Name || as.Version != t.Version) {
		diff = append(diff, fmt.Sprintf("EIP-712 name %q version %q, not %q %q", t.Name, t.Version, as.Name, as.Version))
	}
	if as.Decimals != 0 && as.Decimals != t.Decimals {
		diff = append(diff, fmt.Sprintf("%d decimals, not %d", t.Decimals, as.Decimals))
	}
	if len(diff) > 0 {
		return fmt.Errorf("%s has %s", what, strings.Join(diff, ", "))
	}
	return nil
}

// checkTokens refuses a network whose facilitator found a token that
// disagrees with its configuration (see facilitator.Service.TokenMismatches).
func (c *sharedChain) checkTokens() error {
	run, err := c.running()
	if err != nil {
		return err
	}
	if err := run.fac.TokenMismatches(); err != nil {
		return fmt.Errorf("network %s: the chain disagrees with the configuration of its tokens: %w", c.plan.network, err)
	}
	return nil
}

// symbol is how people write a, such as USDC, or "" when it is not known.
func (a AssetConfig) symbol() string {
	if a.known != nil {
		return a.known.Symbol
	}
	return ""
}

// usdPegged reports whether a is known to be pegged 1:1 to the US dollar,
// so that its prices may be written in dollars.
func (a AssetConfig) usdPegged() bool { return a.known != nil && a.known.USDPegged() }

// matches reports whether the route option want (an address or a token's
// name) names a.
func (a AssetConfig) matches(want string) bool {
	return strings.EqualFold(want, a.Address) || (a.known != nil && strings.EqualFold(want, a.known.Symbol)) ||
		(a.Token != "" && strings.EqualFold(want, a.Token))
}

// priceOf converts price, in whole tokens or in dollars ("$0.01"), to
// atomic units of a.
func priceOf(price string, a AssetConfig) (string, error) {
	return paywall.ParseAssetPrice(price, assetDecimals(a), a.usdPegged())
}

// assetName names a in messages: its symbol, or its address.
func assetName(a AssetConfig) string {
	if s := a.symbol(); s != "" {
		return s + " (" + a.Address + ")"
	}
	return a.Address
}

// isAddressLike reports whether s is written as an address (0x…), not as
// a token's name.
func isAddressLike(s string) bool {
	return strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")
}

// assetInfo is what the paywall knows of the route's assets, by lowercase
// address: those pegged to the US dollar, and the symbols of those whose
// symbol is known.
func (h *Handler) assetInfo() (map[string]bool, map[string]string) {
	nets, _ := h.networks()
	usd, symbols := map[string]bool{}, map[string]string{}
	for _, n := range nets {
		for _, a := range n.assets {
			key := strings.ToLower(a.Address)
			if a.usdPegged() {
				usd[key] = true
			}
			if s := a.symbol(); s != "" {
				symbols[key] = s
			}
		}
	}
	return usd, symbols
}
