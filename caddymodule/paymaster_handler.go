package caddymodule

import (
	"cmp"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/paymaster"
)

func init() {
	caddy.RegisterModule(new(PaymasterHandler))
}

// DevPaymasterKey is the paymaster API key the devnet demo accepts. It is
// public: it exists only on the embedded dev chain.
const DevPaymasterKey = "pmk_devnet_demo_key_public_do_not_use_elsewhere"

// PaymasterHandler is http.handlers.x402_paymaster: the gas sponsor's
// JSON-RPC (pm_entrypoints, pm_supported_tokens, pm_sponsor_userop) and
// GET /health. Its API keys live in the x402 app's store and are managed
// with `caddy x402 key`.
//
// The service is kept across config reloads, with its counters, for as
// long as its signer, entry point and paymaster stay the same; a reload
// puts new projects and validity in force in it. dev_key, and the first
// project's name on the devnet (which the dev key belongs to), need a
// restart of Caddy.
type PaymasterHandler struct {
	// The hex private key of the VerifyingPaymaster's signer, an {env.*} or
	// {file.*} placeholder. On the devnet it defaults to the devnet's
	// signer; elsewhere it is required.
	SignerKey string `json:"signer_key,omitempty"`
	// The ERC-4337 EntryPoints sponsored on, of any versions, each with
	// its VerifyingPaymaster (whose signer is signer_key) and, for gas
	// paid in an ERC-20, its token paymaster: pm_sponsor_userop and the
	// ERC-7677 calls naming an EntryPoint take and answer that version's
	// operations; the first answers those that name none. On the devnet,
	// every predeployed version is served, with its predeployed contracts
	// where the list names none; elsewhere at least one EntryPoint with
	// its paymaster is required. Addresses may be {env.*} or {file.*}
	// placeholders; a mixed-case address must carry a valid EIP-55
	// checksum. The per-version options below are aliases that load into
	// this list (account_factory and bundler_url are not taken here).
	EntryPoints []EntryPointConfig `json:"entry_points,omitempty"`
	// Aliases of entry_points' v0.6 address and paymaster.
	EntryPoint string `json:"entry_point,omitempty"`
	Paymaster  string `json:"paymaster,omitempty"`
	// Aliases of entry_points' v0.7 address and paymaster.
	EntryPointV07 string `json:"entry_point_v07,omitempty"`
	PaymasterV07  string `json:"paymaster_v07,omitempty"`
	// The sponsorship accounts and their limits. At least one is required.
	Projects []ProjectConfig `json:"projects,omitempty"`
	// On the devnet only, an API key for the first project with both scopes
	// (paymaster:read and paymaster:sponsor). Default: the public demo key
	// pmk_devnet_demo_key_public_do_not_use_elsewhere. It is held in memory,
	// never written to the store.
	DevKey string `json:"dev_key,omitempty"`
	// How long a sponsorship stays valid. Default: 10m.
	Validity caddy.Duration `json:"validity,omitempty"`
	// The most calls one JSON-RPC batch may hold. A longer batch is refused
	// whole, before any call runs, with error -32602. Default: 10.
	MaxBatch int `json:"max_batch,omitempty"`
	// Aliases of entry_points' v0.6 and v0.7 token_paymaster. Outside the
	// devnet, gas_tokens need a token paymaster on some EntryPoint.
	TokenPaymaster    string `json:"token_paymaster,omitempty"`
	TokenPaymasterV07 string `json:"token_paymaster_v07,omitempty"`
	// The ERC-20s payers may pay their gas in (types 1 and 2). None by
	// default: type 0 only.
	GasTokens []GasTokenConfig `json:"gas_tokens,omitempty"`

	service serviceHandler[*paymaster.Service, paymasterTunables]
	devnet  bool // whether the x402 app runs the devnet, for Validate
}

// ProjectConfig is a project in the config. Amounts of ETH are decimal
// strings such as "10" or "0.5"; fees are in gwei.
type ProjectConfig struct {
	// The project's name, which its API keys belong to. Required and unique.
	Name string `json:"name"`
	// The project's funded sponsorship balance, in ETH. Required.
	Balance string `json:"balance"`
	// The most the project may sponsor per UTC day, in ETH. Default: the
	// balance.
	DailyGasCap string `json:"daily_gas_cap,omitempty"`
	// How many operations per minute one sender may have sponsored. Default:
	// 30.
	TxPerMinute int `json:"tx_per_minute,omitempty"`
	// How many sponsored operations may be pending at once. Default: 50.
	MaxInFlight int `json:"max_in_flight,omitempty"`
	// How many JSON-RPC calls one API key of the project may make per
	// minute (a burst of that many, then that rate), counted before any
	// chain read, whatever they answer. A facilitator's key carries all of
	// its /sponsor calls. Default: 120.
	CallsPerMinute int `json:"calls_per_minute,omitempty"`
	// The highest maxFeePerGas sponsored, in gwei. By default it is derived
	// from the network's base fee.
	MaxFeePerGas string `json:"max_fee_per_gas,omitempty"`
}

// GasTokenConfig is an ERC-20 accepted for gas, with its price: fixed
// (price) or from a Chainlink AggregatorV3 feed (price_feed), one of them.
type GasTokenConfig struct {
	// The token's address. Its symbol and decimals are read from it.
	Address string `json:"address"`
	// A fixed price: how many whole tokens one ETH of gas costs, a decimal
	// such as "3000".
	Price string `json:"price,omitempty"`
	// A Chainlink AggregatorV3 whose answer is the price of one ETH in the
	// token's peg (ETH/USD for a dollar stablecoin).
	PriceFeed string `json:"price_feed,omitempty"`
	// How old the feed's latest round may be before the token is refused.
	// Default: 2h.
	MaxAge caddy.Duration `json:"max_age,omitempty"`
	// The markup over the price, as a percentage such as "5%" or "0%".
	// Default: 5%.
	Markup string `json:"markup,omitempty"`
	// The sponsorship types the token serves: 1 (prepaid, refunded) and/or
	// 2 (paid after). Default: both.
	Types []int `json:"types,omitempty"`
	// How long a rate signed in the token stays valid at most: a payer
	// asking for a later validUntil is refused, so the price cannot move
	// past the markup while a signature holds. From 2m to 1h. Default:
	// derived from the markup at 1% a minute (5m for 5%), at least 2m.
	RateValidity caddy.Duration `json:"rate_validity,omitempty"`
}

// token is g for the paymaster.
func (g GasTokenConfig) token() (paymaster.Token, error) {
	field := "x402_paymaster gas_token " + g.Address
	t := paymaster.Token{Types: slices.Clone(g.Types), FeedMaxAge: time.Duration(g.MaxAge), RateValidity: time.Duration(g.RateValidity)}
	if !common.IsHexAddress(g.Address) {
		return t, fmt.Errorf("x402_paymaster gas_token %q: want a token address", g.Address)
	}
	if t.RateValidity != 0 && (t.RateValidity < paymaster.MinRateValidity || t.RateValidity > paymaster.MaxRateValidity) {
		return t, fmt.Errorf("%s rate_validity %s: want %s to %s, or leave it out to derive it from the markup", field, t.RateValidity, paymaster.MinRateValidity, paymaster.MaxRateValidity)
	}
	t.Address = common.HexToAddress(g.Address)
	if (g.Price == "") == (g.PriceFeed == "") {
		return t, fmt.Errorf("%s: set either price (tokens per ETH) or price_feed", field)
	}
	if g.Price != "" {
		p, ok := new(big.Rat).SetString(g.Price)
		if !ok || p.Sign() <= 0 || strings.ContainsAny(g.Price, "/eE") {
			return t, fmt.Errorf("%s price %q: want a positive decimal number of tokens per ETH", field, g.Price)
		}
		t.Price = p
	}
	if g.PriceFeed != "" {
		if !common.IsHexAddress(g.PriceFeed) {
			return t, fmt.Errorf("%s price_feed %q: want an address", field, g.PriceFeed)
		}
		t.Feed = common.HexToAddress(g.PriceFeed)
	}
	if g.Markup != "" {
		bps, err := markupBps(g.Markup)
		if err != nil {
			return t, fmt.Errorf("%s markup %q: %w", field, g.Markup, err)
		}
		t.MarkupBps = &bps
	}
	return t, nil
}

// markupBps parses a percentage ("5%", "2.5%", "0%") into basis points.
func markupBps(v string) (int, error) {
	num, ok := strings.CutSuffix(strings.TrimSpace(v), "%")
	r, rok := new(big.Rat).SetString(num)
	if !ok || !rok || strings.ContainsAny(num, "/eE") || r.Sign() < 0 {
		return 0, errors.New("want a percentage such as 5%")
	}
	r.Mul(r, big.NewRat(100, 1))
	if !r.IsInt() || r.Num().Cmp(big.NewInt(100_000)) > 0 {
		return 0, errors.New("want a percentage from 0% to 1000% in steps of 0.01%")
	}
	return int(r.Num().Int64()), nil
}

// CaddyModule returns the Caddy module information.
func (*PaymasterHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_paymaster", New: func() caddy.Module { return new(PaymasterHandler) }}
}

// paymasterFixed are the options of x402_paymaster that a reload cannot
// change in the running service.
type paymasterFixed struct {
	// DevKey is PaymasterHandler.DevKey with its default on the devnet:
	// compared, never shown.
	DevKey string `json:"dev_key"`
	// DevProject is the project the dev key belongs to, the first.
	DevProject string `json:"projects[0].name"`
}

// paymasterTunables are the options of x402_paymaster that a reload puts
// in force in the running service.
type paymasterTunables struct {
	// Projects are PaymasterHandler.Projects.
	Projects []ProjectConfig `json:"projects"`
	// Validity is PaymasterHandler.Validity.
	Validity caddy.Duration `json:"validity"`
	// MaxBatch is PaymasterHandler.MaxBatch.
	MaxBatch int `json:"max_batch"`
	// GasTokens are PaymasterHandler.GasTokens.
	GasTokens []GasTokenConfig `json:"gas_tokens"`
}

// apply puts t in force in the running service.
func (t paymasterTunables) apply(svc *paymaster.Service, old paymasterTunables) error {
	if !slices.Equal(t.Projects, old.Projects) {
		projects, err := t.projects()
		if err != nil {
			return err
		}
		if err := svc.SetProjects(projects); err != nil {
			return err
		}
	}
	if t.Validity != old.Validity {
		svc.SetValidity(time.Duration(t.Validity))
	}
	if t.MaxBatch != old.MaxBatch {
		svc.SetMaxBatch(t.MaxBatch)
	}
	if !slices.EqualFunc(t.GasTokens, old.GasTokens, GasTokenConfig.equal) {
		tokens, err := t.tokens()
		if err != nil {
			return err
		}
		if err := svc.SetTokens(tokens); err != nil {
			return err
		}
	}
	return nil
}

func (g GasTokenConfig) equal(o GasTokenConfig) bool {
	return g.Address == o.Address && g.Price == o.Price && g.PriceFeed == o.PriceFeed && g.MaxAge == o.MaxAge &&
		g.Markup == o.Markup && slices.Equal(g.Types, o.Types) && g.RateValidity == o.RateValidity
}

// tokens are the gas tokens for the paymaster.
func (t paymasterTunables) tokens() ([]paymaster.Token, error) {
	tokens := make([]paymaster.Token, len(t.GasTokens))
	for i, g := range t.GasTokens {
		tok, err := g.token()
		if err != nil {
			return nil, err
		}
		tokens[i] = tok
	}
	return tokens, nil
}

// projects are the configured projects for the paymaster.
func (t paymasterTunables) projects() ([]paymaster.Project, error) {
	projects := make([]paymaster.Project, len(t.Projects))
	for i, pc := range t.Projects {
		p, err := pc.project()
		if err != nil {
			return nil, err
		}
		projects[i] = p
	}
	return projects, nil
}

// Provision takes a hold on the paymaster service of the signer, entry
// point and paymaster, which the x402 app starts.
func (h *PaymasterHandler) Provision(ctx caddy.Context) error {
	app, err := embeddedApp(ctx, "x402_paymaster")
	if err != nil {
		return err
	}
	h.devnet = app.chain.plan.devnet
	vals := []configValue{{"x402_paymaster entry_point", &h.EntryPoint}, {"x402_paymaster paymaster", &h.Paymaster}, {"x402_paymaster token_paymaster", &h.TokenPaymaster},
		{"x402_paymaster entry_point_v07", &h.EntryPointV07}, {"x402_paymaster paymaster_v07", &h.PaymasterV07}, {"x402_paymaster token_paymaster_v07", &h.TokenPaymasterV07}}
	for i := range h.EntryPoints {
		for _, f := range h.EntryPoints[i].fields() {
			vals = append(vals, configValue{"x402_paymaster " + f.field, f.v})
		}
	}
	if err := expand(vals...); err != nil {
		return err
	}
	if err := h.Validate(); err != nil {
		return err
	}
	list, err := h.sponsoredEntryPoints()
	if err != nil {
		return err
	}
	var signer *ecdsa.PrivateKey
	fixed := paymasterFixed{}
	if h.devnet {
		if signer, err = wellknown.DeriveKey(wellknown.TestMnemonic, wellknown.PaymasterSignerIndex); err != nil {
			return err
		}
		fixed = paymasterFixed{DevKey: cmp.Or(h.DevKey, DevPaymasterKey), DevProject: h.Projects[0].Name}
	}
	if h.SignerKey != "" {
		if signer, err = secretKey("x402_paymaster signer_key", h.SignerKey); err != nil {
			return err
		}
	}
	parts := []string{"x402_paymaster", app.chainKeys[0], crypto.PubkeyToAddress(signer.PublicKey).Hex()}
	for _, e := range list {
		parts = append(parts, e.EntryPoint.Version(), e.EntryPoint.Address().Hex(), e.Paymaster.Hex(), e.TokenPaymaster.Hex())
	}
	key := strings.Join(parts, "|")
	t := paymasterTunables{Projects: slices.Clone(h.Projects), Validity: h.Validity, MaxBatch: h.MaxBatch, GasTokens: slices.Clone(h.GasTokens)}
	log := ctx.Logger()
	chainID := app.chain.plan.chainID()
	return h.service.provision(ctx, app, "x402_paymaster", key, fixed, t, func(run *chainRun, t paymasterTunables) (*paymaster.Service, func() error, error) {
		return openPaymaster(run, paymaster.Config{ChainID: chainID, Network: networkClass(chainID, h.devnet), EntryPoints: list, Signer: signer, Validity: time.Duration(t.Validity), MaxBatch: t.MaxBatch, Logger: log}, t, fixed)
	})
}

// Validate checks the configuration. It has no side effects.
func (h *PaymasterHandler) Validate() error {
	list, err := h.entryPointList()
	errs := []error{checkSecrets(configValue{"x402_paymaster signer_key", &h.SignerKey}), err}
	tokenPM, sponsors := false, false
	for i := range list {
		e := &list[i]
		fields := e.fields()[:4]
		for i := range fields {
			fields[i].field = "x402_paymaster " + fields[i].field
		}
		errs = append(errs, checkAddresses(fields...))
		if _, err := entrypoint.New(e.version(), common.Address{}); err != nil {
			errs = append(errs, fmt.Errorf("x402_paymaster entry_point: %w", err))
		}
		tokenPM = tokenPM || e.TokenPaymaster != ""
		sponsors = sponsors || (e.Address != "" && e.Paymaster != "")
		if !h.devnet && (e.Address == "") != (e.Paymaster == "") {
			errs = append(errs, fmt.Errorf("x402_paymaster: entry_point v%s and its paymaster go together", e.version()))
		}
		if !h.devnet && e.TokenPaymaster != "" && e.Address == "" {
			errs = append(errs, fmt.Errorf("x402_paymaster: the token_paymaster of entry_point v%s needs its address", e.version()))
		}
	}
	for _, g := range h.GasTokens {
		if _, err := g.token(); err != nil {
			errs = append(errs, err)
		}
	}
	if len(h.GasTokens) > 0 && !h.devnet && !tokenPM {
		errs = append(errs, errors.New("x402_paymaster: gas_token needs a token_paymaster (the TokenPaymaster contract) on some EntryPoint outside the devnet"))
	}
	if len(h.Projects) == 0 {
		errs = append(errs, errors.New("x402_paymaster: at least one project is required"))
	}
	for _, pc := range h.Projects {
		if _, err := pc.project(); err != nil {
			errs = append(errs, err)
		}
	}
	if !h.devnet && (h.SignerKey == "" || !sponsors) {
		errs = append(errs, errors.New("x402_paymaster: signer_key, entry_point and paymaster are required outside the devnet"))
	}
	if h.DevKey != "" && !h.devnet {
		errs = append(errs, errors.New("x402_paymaster: dev_key is for the devnet only"))
	}
	if h.Validity < 0 {
		errs = append(errs, errors.New("x402_paymaster: validity must not be negative"))
	}
	if h.MaxBatch < 0 {
		errs = append(errs, errors.New("x402_paymaster: max_batch must not be negative"))
	}
	return errors.Join(errs...)
}

// entryPointList is the paymaster's EntryPoints: entry_points with the
// per-version aliases folded in.
func (h *PaymasterHandler) entryPointList() ([]EntryPointConfig, error) {
	return mergeEntryPoints(h.EntryPoints,
		EntryPointConfig{Version: "0.6", Address: h.EntryPoint, Paymaster: h.Paymaster, TokenPaymaster: h.TokenPaymaster},
		EntryPointConfig{Version: "0.7", Address: h.EntryPointV07, Paymaster: h.PaymasterV07, TokenPaymaster: h.TokenPaymasterV07})
}

// sponsoredEntryPoints are the EntryPoints the paymaster serves: on the
// devnet, each predeployed version (in version order) with its listed
// contracts or the devnet's, then any other listed; elsewhere, the listed
// ones with an address and a paymaster. The config is valid.
func (h *PaymasterHandler) sponsoredEntryPoints() ([]paymaster.EntryPointConfig, error) {
	list, err := h.entryPointList()
	if err != nil {
		return nil, err
	}
	if h.devnet {
		sets := wellknown.GenesisContracts().EntryPointSets()
		var ordered []EntryPointConfig
		for _, v := range entrypoint.Versions() {
			if _, ok := sets[v]; ok {
				e := *entryPointOf(&list, v)
				e, _ = withDevnetDefaults(e)
				ordered = append(ordered, e)
			}
		}
		for _, e := range list {
			if _, ok := sets[e.version()]; !ok {
				ordered = append(ordered, e)
			}
		}
		list = ordered
	}
	var out []paymaster.EntryPointConfig
	for _, e := range list {
		if e.Address == "" || e.Paymaster == "" {
			continue
		}
		ep, err := entrypoint.New(e.version(), common.HexToAddress(e.Address))
		if err != nil {
			return nil, err
		}
		d := paymaster.EntryPointConfig{EntryPoint: ep, Paymaster: common.HexToAddress(e.Paymaster)}
		if e.TokenPaymaster != "" {
			d.TokenPaymaster = common.HexToAddress(e.TokenPaymaster)
		}
		out = append(out, d)
	}
	if len(out) == 0 {
		return nil, errors.New("x402_paymaster: no EntryPoint with its paymaster")
	}
	return out, nil
}

// openPaymaster opens the paymaster on the running chain: cfg with its
// chain, keys and projects.
func openPaymaster(run *chainRun, cfg paymaster.Config, t paymasterTunables, fixed paymasterFixed) (*paymaster.Service, func() error, error) {
	projects, err := t.projects()
	if err != nil {
		return nil, nil, err
	}
	cfg.Projects = projects
	if cfg.Tokens, err = t.tokens(); err != nil {
		return nil, nil, err
	}
	// The keys, when they were last used, the projects created in the
	// dashboard and the ledger (balance charged, daily spend,
	// reservations, rate windows, suspensions) live in the x402 store, so
	// restarts keep them and a fleet's replicas share them.
	st, err := paymaster.OpenStorage(run.store)
	if err != nil {
		return nil, nil, err
	}
	st.Apply(&cfg)
	bucket := st.Keys
	if run.devnet != nil {
		// The dev key is public: it is answered from memory, never stored,
		// so it does not outlive the devnet in a store_path that later
		// serves a real chain.
		if _, err := removeKeyRecord(bucket, fixed.DevKey); err != nil { // stored by earlier versions
			return nil, nil, err
		}
		if cfg.Keys, err = newDevKeyStore(bucket, fixed.DevKey, fixed.DevProject, []string{paymaster.ScopeRead, paymaster.ScopeSponsor}); err != nil {
			return nil, nil, err
		}
		cfg.Logger.Info("devnet paymaster key in memory", zap.String("project", fixed.DevProject), zap.String("key_id", fixed.DevKey[:min(len(fixed.DevKey), 12)]))
	}
	cfg.Chain = run.chain
	svc, err := paymaster.New(cfg)
	if err != nil {
		return nil, nil, err
	}
	// The dashboard and the admin API manage this paymaster's projects and
	// keys while it runs.
	first := cfg.EntryPoints[0]
	ref := &sponsorRef{svc: svc, entryPoint: first.EntryPoint.Address(), paymaster: first.Paymaster}
	run.sponsor.Store(ref)
	return svc, func() error {
		run.sponsor.CompareAndSwap(ref, nil)
		return nil
	}, nil
}

func (pc ProjectConfig) project() (paymaster.Project, error) {
	p := paymaster.Project{Name: pc.Name, TxPerMinute: pc.TxPerMinute, MaxInFlight: pc.MaxInFlight, CallsPerMinute: pc.CallsPerMinute}
	if pc.Name == "" {
		return p, errors.New("x402_paymaster: a project needs a name")
	}
	if pc.Balance == "" {
		return p, fmt.Errorf("x402_paymaster project %s: a balance (ETH) is required", pc.Name)
	}
	var err error
	field := "x402_paymaster project " + pc.Name + " "
	if p.Balance, err = units(field+"balance", pc.Balance, 18); err != nil {
		return p, err
	}
	if p.DailyGasCap, err = units(field+"daily_gas_cap", pc.DailyGasCap, 18); err != nil {
		return p, err
	}
	if p.MaxFeePerGas, err = units(field+"max_fee_per_gas", pc.MaxFeePerGas, 9); err != nil {
		return p, err
	}
	return p, nil
}

// ServeHTTP serves the paymaster. Requests are logged with their API key
// (X-API-Key, X-Paymaster-Api-Key) shown as REDACTED.
func (h *PaymasterHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, _ caddyhttp.Handler) error {
	return h.service.serve(w, r)
}

// Cleanup releases this config's hold on the pooled service.
func (h *PaymasterHandler) Cleanup() error { return h.service.cleanup() }

// Interface guards.
var (
	_ caddy.Provisioner           = (*PaymasterHandler)(nil)
	_ caddy.Validator             = (*PaymasterHandler)(nil)
	_ caddy.CleanerUpper          = (*PaymasterHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*PaymasterHandler)(nil)
)

// mainnets are the chain ids of well-known main networks. A paymaster on
// any other chain serves the keys and projects of "testnet".
var mainnets = map[uint64]bool{1: true, 10: true, 56: true, 137: true, 8453: true, 42161: true, 43114: true}

// networkClass is the network, "testnet" or "mainnet", that a paymaster on
// chainID serves: its keys and projects are scoped to it.
func networkClass(chainID *big.Int, devnet bool) string {
	if !devnet && chainID.IsUint64() && mainnets[chainID.Uint64()] {
		return paymaster.NetworkMainnet
	}
	return paymaster.NetworkTestnet
}
