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
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
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
	if b := n.BatchSettlement; b != nil {
		if p.batch, err = batchPlanOf(b, p.devnet); err != nil {
			return nil, err
		}
		p.fixed.BatchSettlement = p.batch.settlement
	}
	if eps, settlement := n.aaEntryPoints(); eps != nil && primary {
		p.aa = &facilitator.AANative{EntryPoints: eps, Settlement: settlement, BundlerURL: n.BundlerURL}
		p.fixed.Settlement = settlement
		for _, ep := range eps {
			p.fixed.EntryPoints = append(p.fixed.EntryPoints, fixedEntryPoint{
				Version: ep.EntryPoint.Version(), Address: ep.EntryPoint.Address(), AccountFactory: ep.Factory,
				Paymaster: ep.Paymaster, TokenPaymaster: ep.TokenPaymaster, Delegate: ep.Delegate, BundlerURL: ep.BundlerURL,
			})
		}
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

// entryPointOf is the entry of version in list, appended empty if the
// list has none.
func entryPointOf(list *[]EntryPointConfig, version string) *EntryPointConfig {
	for i := range *list {
		if (*list)[i].version() == version {
			return &(*list)[i]
		}
	}
	*list = append(*list, EntryPointConfig{Version: version})
	return &(*list)[len(*list)-1]
}

// version is e's version: "v" trimmed, DefaultVersion if empty.
func (e *EntryPointConfig) version() string {
	return cmp.Or(strings.TrimPrefix(e.Version, "v"), entrypoint.DefaultVersion)
}

// fields are e's options by name, for placeholders, checks and messages:
// the address is entry_point's (v0.6's) or entry_point v0.7's, the others
// entry_point v0.7 paymaster and the like.
func (e *EntryPointConfig) fields() []configValue {
	address := "entry_point"
	if v := e.version(); v != entrypoint.DefaultVersion {
		address += " v" + v
	}
	name := "entry_point v" + e.version() + " "
	return []configValue{{address, &e.Address}, {name + "account_factory", &e.AccountFactory},
		{name + "paymaster", &e.Paymaster}, {name + "token_paymaster", &e.TokenPaymaster}, {name + "eip7702_delegate", &e.Delegate},
		{name + "bundler_url", &e.BundlerURL}}
}

// isZero reports whether e names nothing.
func (e *EntryPointConfig) isZero() bool {
	return e.Address == "" && e.AccountFactory == "" && e.Paymaster == "" && e.TokenPaymaster == "" && e.BundlerURL == "" && e.Delegate == ""
}

// mergeEntryPoints is list with each alias folded into the entry of its
// version (appended if the list has none), the versions normalised: an
// alias may fill what the entry leaves empty, and one that says otherwise
// is an error.
func mergeEntryPoints(list []EntryPointConfig, aliases ...EntryPointConfig) ([]EntryPointConfig, error) {
	out := slices.Clone(list)
	seen := map[string]bool{}
	var errs []error
	for i := range out {
		v := out[i].version()
		if seen[v] {
			errs = append(errs, fmt.Errorf("entry_point v%s is given twice", v))
		}
		seen[v] = true
		out[i].Version = v
	}
	for _, alias := range aliases {
		if alias.isZero() {
			continue
		}
		e := entryPointOf(&out, alias.version())
		dst, src := e.fields(), alias.fields()
		for k := range dst {
			switch {
			case *src[k].v == "":
			case *dst[k].v == "":
				*dst[k].v = *src[k].v
			case *dst[k].v != *src[k].v:
				errs = append(errs, fmt.Errorf("%s is given twice: %s and %s", dst[k].field, *dst[k].v, *src[k].v))
			}
		}
	}
	return out, errors.Join(errs...)
}

// entryPointList is the network's EntryPoints: entry_points with the
// per-version aliases folded in (v0.6's, then v0.7's).
func (n *NetworkConfig) entryPointList() ([]EntryPointConfig, error) {
	return mergeEntryPoints(n.EntryPoints,
		EntryPointConfig{Version: "0.6", Address: n.EntryPoint, AccountFactory: n.AccountFactory, Paymaster: n.Paymaster, TokenPaymaster: n.TokenPaymaster},
		EntryPointConfig{Version: "0.7", Address: n.EntryPointV07, AccountFactory: n.AccountFactoryV07, Paymaster: n.PaymasterV07, TokenPaymaster: n.TokenPaymasterV07, BundlerURL: n.BundlerURLV07})
}

// withDevnetDefaults is e with the devnet's contracts of its version
// where it names none; the token paymaster only when e is the devnet's
// EntryPoint. ok is false for a version the devnet does not have.
func withDevnetDefaults(e EntryPointConfig) (EntryPointConfig, bool) {
	c := wellknown.GenesisContracts()
	set, ok := c.EntryPointSets()[e.version()]
	if !ok {
		return e, false
	}
	if e.Address == "" || common.HexToAddress(e.Address) == set.EntryPoint {
		e.TokenPaymaster = cmp.Or(e.TokenPaymaster, set.TokenPaymaster.Hex())
		if set.Delegate != (common.Address{}) {
			e.Delegate = cmp.Or(e.Delegate, set.Delegate.Hex())
		}
	}
	e.Address = cmp.Or(e.Address, set.EntryPoint.Hex())
	e.AccountFactory = cmp.Or(e.AccountFactory, set.AccountFactory.Hex())
	e.Paymaster = cmp.Or(e.Paymaster, set.Paymaster.Hex())
	return e, true
}

// aaEntryPoints are the network's aa-native EntryPoints with their
// contracts (the devnet's as defaults, with v0.6 always on there), and its
// settlement; nil when aa-native is off: no EntryPoint, no settlement, or
// a first EntryPoint without its address, factory or paymaster. A later
// EntryPoint missing one is left out (Validate refuses it). The config is
// valid.
func (n *NetworkConfig) aaEntryPoints() ([]facilitator.AAEntryPoint, common.Address) {
	list, err := n.entryPointList()
	if err != nil {
		return nil, common.Address{}
	}
	settlement := n.Settlement
	if n.Network == NetworkDevnet {
		if !slices.ContainsFunc(list, func(e EntryPointConfig) bool { return e.version() == "0.6" }) {
			list = append([]EntryPointConfig{{Version: "0.6"}}, list...)
		}
		for i := range list {
			list[i], _ = withDevnetDefaults(list[i])
		}
		settlement = cmp.Or(settlement, wellknown.GenesisContracts().Settlement.Hex())
	}
	if settlement == "" {
		return nil, common.Address{}
	}
	var out []facilitator.AAEntryPoint
	for i, e := range list {
		if e.Address == "" || e.AccountFactory == "" || e.Paymaster == "" {
			if i == 0 {
				return nil, common.Address{}
			}
			continue
		}
		ep, err := entrypoint.New(e.version(), common.HexToAddress(e.Address))
		if err != nil {
			continue
		}
		d := facilitator.AAEntryPoint{BundlerURL: e.BundlerURL}
		d.EntryPoint, d.Factory, d.Paymaster = ep, common.HexToAddress(e.AccountFactory), common.HexToAddress(e.Paymaster)
		if e.TokenPaymaster != "" {
			d.TokenPaymaster = common.HexToAddress(e.TokenPaymaster)
		}
		if e.Delegate != "" {
			d.Delegate = common.HexToAddress(e.Delegate)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, common.Address{}
	}
	return out, common.HexToAddress(settlement)
}

// aaOn reports whether the network has aa-native.
func (n *NetworkConfig) aaOn() bool {
	eps, _ := n.aaEntryPoints()
	return eps != nil
}

// checkEntryPoints reports what is wrong with the network's EntryPoints.
func (n *NetworkConfig) checkEntryPoints() []error {
	list, err := n.entryPointList()
	errs := []error{err}
	for i := range list {
		e := &list[i]
		errs = append(errs, checkAddresses(e.fields()[:5]...))
		ep, err := entrypoint.New(e.version(), common.Address{})
		if err != nil {
			errs = append(errs, fmt.Errorf("entry_point: %w", err))
			continue
		}
		if e.Delegate != "" && !ep.EIP7702() {
			errs = append(errs, fmt.Errorf("entry_point v%s: eip7702_delegate is for a version that takes EIP-7702 senders (v0.8 on)", e.version()))
		}
		if n.Network == NetworkDevnet {
			if _, ok := withDevnetDefaults(*e); !ok && e.Address == "" {
				errs = append(errs, fmt.Errorf("entry_point v%s: the devnet has no EntryPoint of this version; give its address and contracts", e.version()))
			}
			continue
		}
		switch {
		case e.Address == "" && !e.isZero():
			errs = append(errs, fmt.Errorf("entry_point v%s: its contracts need its address", e.version()))
		case i > 0 && (e.AccountFactory == "" || e.Paymaster == ""):
			errs = append(errs, fmt.Errorf("entry_point v%s needs its account_factory and paymaster outside the devnet", e.version()))
		}
	}
	return errs
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
	aa      []*x402.Extra // the aa-native offers' extras, one per EntryPoint
	chain   *sharedChain  // nil with a remote facilitator
}

// offerable is what each network offers, in the order of the config.
func (a *App) offerable() []netOffer {
	if len(a.chains) > 0 {
		out := make([]netOffer, len(a.chains))
		for i, c := range a.chains {
			out[i] = netOffer{network: c.plan.network, assets: a.plans[i].assets, chain: c}
			if aa := c.plan.aa; aa != nil && i == 0 && a.networks()[0].SponsorURL != "" {
				for _, ep := range aa.EntryPoints {
					x := &x402.Extra{EntryPoint: ep.EntryPoint.Address().Hex(), Factory: ep.Factory.Hex(), Settlement: aa.Settlement.Hex(), SponsorURL: a.networks()[0].SponsorURL}
					if v := ep.EntryPoint.Version(); v != entrypoint.DefaultVersion {
						x.EntryPointVersion = v // offers of v0.6 carried none before there was a second version
					}
					out[i].aa = append(out[i].aa, x)
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

// Begin holds a batch-settlement payment's channel with the channels of
// the requirements' network (paywall.Channels).
func (r *networkRouter) Begin(ctx context.Context, req *x402.VerifyRequest, verify func(context.Context) (*x402.VerifyResponse, error)) (paywall.ChannelUse, error) {
	return r.of(req.PaymentRequirements.Network).Begin(ctx, req, verify)
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

// batchPlanOf resolves a network's batch-settlement configuration.
func batchPlanOf(b *BatchSettlementConfig, devnet bool) (*batchPlan, error) {
	p := &batchPlan{
		settlement:    contracts.BatchSettlementAddress,
		withdrawDelay: cmp.Or(time.Duration(b.WithdrawDelay), 24*time.Hour),
		claimEvery:    time.Hour,
		claimAbove:    b.ClaimAbove,
		minDeposit:    b.MinDeposit,
		sponsored: store.SponsoredLimits{
			PerPayer: cmp.Or(b.SponsoredPerPayer, 12), Total: cmp.Or(b.SponsoredTotal, 1000),
			Window: cmp.Or(time.Duration(b.SponsoredWindow), 24*time.Hour),
		},
	}
	if b.SponsoredPerPayer < 0 || b.SponsoredTotal < 0 || b.SponsoredWindow < 0 {
		return nil, errors.New("batch_settlement sponsored_per_payer, sponsored_total and sponsored_window must be positive")
	}
	if b.ClaimEvery != nil {
		p.claimEvery = time.Duration(*b.ClaimEvery)
	}
	if p.withdrawDelay < 15*time.Minute || p.withdrawDelay > 30*24*time.Hour || p.withdrawDelay%time.Second != 0 {
		return nil, fmt.Errorf("batch_settlement withdraw_delay %s: want whole seconds from 15m to 720h (the contract's bounds)", p.withdrawDelay)
	}
	if b.Settlement != "" {
		a, err := x402.ParseAddress(b.Settlement)
		if err != nil {
			return nil, fmt.Errorf("batch_settlement settlement: %w", err)
		}
		p.settlement = common.Address(a)
	}
	var err error
	switch {
	case b.ReceiverAuthorizerKey != "":
		p.authorizer, err = secretKey("batch_settlement receiver_authorizer_key", b.ReceiverAuthorizerKey)
	case devnet:
		p.authorizer, err = wellknown.DeriveKey(wellknown.TestMnemonic, 12)
	default:
		err = errors.New("batch_settlement needs receiver_authorizer_key off the devnet: the key that signs the channels' claims and refunds, from a placeholder such as {env.X402_RECEIVER_AUTHORIZER_KEY}")
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}
