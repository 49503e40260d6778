package caddymodule

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/x402"
)

// networks is the app's networks: the blocks of Networks, or the
// top-level shorthand, or none.
func (a *App) networks() []*NetworkConfig {
	if len(a.Networks) > 0 {
		nets := make([]*NetworkConfig, len(a.Networks))
		for i := range a.Networks {
			nets[i] = &a.Networks[i]
		}
		return nets
	}
	if a.Network == "" {
		return nil
	}
	return []*NetworkConfig{&a.NetworkConfig}
}

// maxWalletGas bounds wallet_gas, as exact.Config does.
const maxWalletGas = 10_000_000

// plan resolves a valid network of a into what its shared chain is: its
// identity, the settler key and the defaults of the devnet. Only the
// primary network serves aa-native. It reads the keys' placeholders, and
// opens nothing.
func (a *App) plan(n *NetworkConfig, multi, primary bool) (*chainPlan, error) {
	p := &chainPlan{network: n.Network, devnet: n.Network == NetworkDevnet, storePath: n.StorePath}
	p.fixed = chainFixed{DevnetAddr: n.DevnetAddr, BundlerURL: n.BundlerURL, PaymasterURL: n.PaymasterURL}
	p.rpc, p.assets = n.RPC, n.Assets
	if p.devnet {
		p.network = n.id()
		p.fixed.ChainID = cmp.Or(n.ChainID, wellknown.ChainID)
		p.fixed.DevnetAddr = cmp.Or(n.DevnetAddr, wellknown.Addr)
		if len(p.assets) == 0 {
			p.assets = []AssetConfig{devnetAsset()}
		}
	}
	// One spelling per address, so that a change of case is no change.
	p.assets = append([]AssetConfig(nil), p.assets...)
	for i := range p.assets {
		p.assets[i].Address = common.HexToAddress(p.assets[i].Address).Hex()
		p.assets[i].Token = "" // resolved: `asset usdc` is its address, domain and decimals
	}
	var err error
	p.fixed.Confirmations = n.Confirmations
	if b := n.Batch; b != nil {
		fb := *b
		if fb.Contract == "" {
			fb.Contract = wellknown.GenesisContracts().Batch.Hex()
		}
		fb.Contract = common.HexToAddress(fb.Contract).Hex()
		p.fixed.Batch = &fb
	}
	p.fixed.WalletGas, p.fixed.WalletReverts = n.WalletGas, n.WalletReverts
	if n.SettlerKey == "" {
		p.settler, err = wellknown.DeriveKey(wellknown.TestMnemonic, 0)
	} else {
		p.settler, err = secretKey("settler_key", n.SettlerKey)
	}
	if err != nil {
		return nil, err
	}
	if a.Database != "" {
		if p.database, err = secret("store postgres (database)", a.Database); err != nil {
			return nil, err
		}
		p.fixed.DatabaseMaxConns = cmp.Or(a.DatabaseMaxConns, 10)
		p.schema = n.schema(multi)
		p.fixed.ClaimTakeover = a.ClaimTakeover
	} else if p.storePath == "" && !p.devnet {
		p.storePath = filepath.Join(caddy.AppDataDir(), "x402", strings.ReplaceAll(p.network, ":", "-")+".db")
	}
	if p.storePath != "" {
		if p.storePath, err = filepath.Abs(p.storePath); err != nil {
			return nil, fmt.Errorf("store_path: %w", err)
		}
	}
	if c := n.aaContracts(); c != nil && primary {
		p.aa = &facilitator.AANative{EntryPoint: c.EntryPoint, Factory: c.AccountFactory, Settlement: c.Settlement, Paymaster: c.Paymaster, BundlerURL: n.BundlerURL,
			EntryPointV07: c.EntryPointV07, FactoryV07: c.AccountFactoryV07, PaymasterV07: c.PaymasterV07, BundlerURLV07: n.BundlerURLV07,
			TokenPaymaster: c.TokenPaymaster, TokenPaymasterV07: c.TokenPaymasterV07}
		p.fixed.TokenPaymaster, p.fixed.TokenPaymasterV07 = c.TokenPaymaster, c.TokenPaymasterV07
		p.fixed.EntryPoint, p.fixed.AccountFactory, p.fixed.Settlement, p.fixed.Paymaster = c.EntryPoint, c.AccountFactory, c.Settlement, c.Paymaster
		p.fixed.EntryPointV07, p.fixed.AccountFactoryV07, p.fixed.PaymasterV07, p.fixed.BundlerURLV07 = c.EntryPointV07, c.AccountFactoryV07, c.PaymasterV07, n.BundlerURLV07
		if n.PaymasterURL != "" {
			key := DevPaymasterKey
			if n.PaymasterKey != "" {
				if key, err = secret("paymaster_key", n.PaymasterKey); err != nil {
					return nil, err
				}
			}
			p.fixed.PaymasterKey = key
			p.aa.Sponsor = &paymaster.Client{URL: n.PaymasterURL, APIKey: key, Header: "X-Paymaster-Api-Key"}
		}
	}
	return p, nil
}

// aaContracts are the network's aa-native contracts, with the devnet's as
// defaults, or nil when aa-native is off.
func (n *NetworkConfig) aaContracts() *wellknown.Contracts {
	var def wellknown.Contracts
	if n.Network == NetworkDevnet {
		def = wellknown.GenesisContracts()
	}
	addr := func(v string, d common.Address) common.Address {
		if v != "" {
			return common.HexToAddress(v)
		}
		return d
	}
	c := &wellknown.Contracts{
		EntryPoint: addr(n.EntryPoint, def.EntryPoint), AccountFactory: addr(n.AccountFactory, def.AccountFactory),
		Settlement: addr(n.Settlement, def.Settlement), Paymaster: addr(n.Paymaster, def.Paymaster),
		TokenPaymaster: addr(n.TokenPaymaster, def.TokenPaymaster),
	}
	if c.EntryPoint == (common.Address{}) || c.AccountFactory == (common.Address{}) || c.Settlement == (common.Address{}) || c.Paymaster == (common.Address{}) {
		return nil
	}
	if n.EntryPointV07 != "" {
		c.EntryPointV07 = common.HexToAddress(n.EntryPointV07)
		c.AccountFactoryV07 = addr(n.AccountFactoryV07, def.AccountFactoryV07)
		c.PaymasterV07 = addr(n.PaymasterV07, def.PaymasterV07)
		c.TokenPaymasterV07 = addr(n.TokenPaymasterV07, def.TokenPaymasterV07)
	}
	return c
}

// tunablesOf is what this config puts in force in its i-th chain.
func (a *App) tunablesOf(i int) chainTunables {
	t := a.tunables
	t.RPC, t.Assets = a.plans[i].rpc, a.plans[i].assets
	return t
}

// netOffer is what a network offers paid routes: its CAIP-2 id, its
// allowlisted assets and its aa-native extra (nil when off).
type netOffer struct {
	network string
	assets  []AssetConfig
	aa      *x402.Extra
	aa07    *x402.Extra  // the v0.7 aa-native offer's extra, nil without v0.7
	chain   *sharedChain // nil with a remote facilitator
}

// offerable is what each network offers, in the order of the config.
func (a *App) offerable() []netOffer {
	if len(a.chains) > 0 {
		out := make([]netOffer, len(a.chains))
		for i, c := range a.chains {
			out[i] = netOffer{network: c.plan.network, assets: a.plans[i].assets, chain: c}
			if aa := c.plan.aa; aa != nil && i == 0 && a.networks()[0].SponsorURL != "" {
				out[i].aa = &x402.Extra{EntryPoint: aa.EntryPoint.Hex(), Factory: aa.Factory.Hex(), Settlement: aa.Settlement.Hex(), SponsorURL: a.networks()[0].SponsorURL}
				if aa.EntryPointV07 != (common.Address{}) {
					out[i].aa07 = &x402.Extra{EntryPoint: aa.EntryPointV07.Hex(), EntryPointVersion: "0.7", Factory: aa.FactoryV07.Hex(), Settlement: aa.Settlement.Hex(), SponsorURL: a.networks()[0].SponsorURL}
				}
			}
		}
		return out
	}
	var out []netOffer
	for _, n := range a.networks() {
		out = append(out, netOffer{network: n.id(), assets: n.Assets})
	}
	return out
}

// assets is the primary network's allowlist, in force.
func (a *App) assets() []AssetConfig {
	if len(a.plans) > 0 {
		return a.plans[0].assets
	}
	return a.networks()[0].Assets
}

// networkID is the CAIP-2 id of the primary network.
func (a *App) networkID() string {
	if a.chain != nil {
		return a.chain.plan.network
	}
	if nets := a.networks(); len(nets) > 0 {
		return nets[0].id()
	}
	return ""
}

// networkRouter is the facilitator of an x402 app of several networks: it
// sends each verify and settle to the facilitator of the payment's
// network, so that one network's outage (its RPC down, its settler out of
// gas) answers 503 on that network's payments only, while the others keep
// settling. What is not a payment's (/supported, /health) it gathers from
// every network.
type networkRouter struct {
	chains []*sharedChain // chains[0] is the primary network
}

// of is the facilitator of network, or the primary one, which refuses a
// payment on a network it does not serve.
func (r *networkRouter) of(network string) *sharedChain {
	for _, c := range r.chains {
		if c.plan.network == network {
			return c
		}
	}
	return r.chains[0]
}

// Verify verifies with the facilitator of the requirements' network.
func (r *networkRouter) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return r.of(req.PaymentRequirements.Network).Verify(ctx, req)
}

// Settle settles with the facilitator of the requirements' network.
func (r *networkRouter) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	return r.of(req.PaymentRequirements.Network).Settle(ctx, req)
}

// SettleCredential asks the facilitator of network whether a settlement
// of the scheme named needs the caller's credential.
func (r *networkRouter) SettleCredential(ctx context.Context, network, name string) string {
	return r.of(network).SettleCredential(ctx, network, name)
}

// Served tells the facilitator of the requirements' network that a paid
// response was written.
func (r *networkRouter) Served(ctx context.Context, req *x402.SettleRequest) error {
	return r.of(req.PaymentRequirements.Network).Served(ctx, req)
}

// SponsorOperationAt sponsors with the primary network's facilitator,
// the only one that serves aa-native (App.Validate).
func (r *networkRouter) SponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error) {
	return r.chains[0].SponsorOperationAt(ctx, entryPoint, op, gas, client)
}

// Supported lists every network's schemes and kinds, in the order of the
// config, and the settlers of all.
func (r *networkRouter) Supported(ctx context.Context) (*x402.Supported, error) {
	all := &x402.Supported{X402Version: x402.Version, Schemes: []x402.SupportedScheme{}, Kinds: []x402.SupportedKind{}, Extensions: []string{}, Signers: map[string][]string{}}
	for _, c := range r.chains {
		sup, err := c.Supported(ctx)
		if err != nil {
			return nil, err
		}
		all.Schemes = append(all.Schemes, sup.Schemes...)
		all.Kinds = append(all.Kinds, sup.Kinds...)
		for _, e := range sup.Extensions {
			if !slices.Contains(all.Extensions, e) {
				all.Extensions = append(all.Extensions, e)
			}
		}
		for family, signers := range sup.Signers {
			for _, s := range signers {
				if !slices.Contains(all.Signers[family], s) {
					all.Signers[family] = append(all.Signers[family], s)
				}
			}
		}
	}
	return all, nil
}

// Health asks every network's facilitator at once. The answer is ok when
// all are; otherwise degraded (200 while one network works, 503 when none
// does), with each network's chain (and database)
// named "chain <network>" in the dependencies, so a monitor sees which
// network is down while the others keep taking payments. A network whose
// facilitator has not started is unreachable.
func (r *networkRouter) Health(ctx context.Context) (*x402.Health, error) {
	res := make([]*x402.Health, len(r.chains))
	var wg sync.WaitGroup
	for i, c := range r.chains {
		wg.Go(func() {
			h, err := c.Health(ctx)
			if h == nil {
				h = &x402.Health{Status: "degraded", Dependencies: map[string]string{"chain": "unreachable"}}
			}
			if err != nil {
				h.Status = "degraded"
			}
			res[i] = h
		})
	}
	wg.Wait()
	all := &x402.Health{Status: "ok", Network: r.chains[0].plan.network, Service: facilitator.ServiceName, Version: facilitator.Version, Dependencies: map[string]string{}}
	up := 0
	for i, h := range res {
		if h.Status != "ok" {
			all.Status = "degraded"
		} else {
			up++
		}
		for dep, state := range h.Dependencies {
			all.Dependencies[dep+" "+r.chains[i].plan.network] = state
		}
	}
	if up == 0 {
		// Nothing can be paid: 503, so that a readiness probe takes the
		// instance out. While one network works, /health answers 200.
		return all, errors.New("no network's facilitator is healthy")
	}
	return all, nil
}

// Issued reports whether some network's routes offer this payment; the
// facilitator's handler asks IssuedOn, which names the network.
func (r *networkRouter) Issued(scheme string, payTo, asset common.Address, amount *big.Int) bool {
	return slices.ContainsFunc(r.chains, func(c *sharedChain) bool { return c.offers.Issued(scheme, payTo, asset, amount) })
}

// IssuedOn reports whether the routes offer this payment on network: an
// anonymous caller settles a payment on the network its route offers it
// on, never the same price on another network whose token shares the
// address.
func (r *networkRouter) IssuedOn(network, scheme string, payTo, asset common.Address, amount *big.Int) bool {
	for _, c := range r.chains {
		if c.plan.network == network {
			return c.offers.Issued(scheme, payTo, asset, amount)
		}
	}
	return false
}

// Interface guards.
var (
	_ facilitator.Facilitator      = (*networkRouter)(nil)
	_ facilitator.Sponsorer        = (*networkRouter)(nil)
	_ facilitator.NetworkOffers    = (*networkRouter)(nil)
	_ facilitator.CredentialPolicy = (*networkRouter)(nil)
)
