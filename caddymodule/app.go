package caddymodule

import (
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
)

func init() {
	caddy.RegisterModule(new(App))
}

// NetworkDevnet is the network value that runs the embedded dev chain.
const NetworkDevnet = "devnet"

// App is the x402 app: the chain, the settler key, the store and the
// allowlisted assets that the x402 handlers of every site share. Its
// facilitator (and the devnet, if used) live in a usage pool, so a config
// reload keeps them, and their settler nonces, rather than racing a second
// copy.
//
// Options that name a place or an address (network, rpc, devnet_addr,
// store_path, the asset addresses, facilitator_url, the aa-native contract
// addresses and URLs) may be {env.*} or {file.*} placeholders, resolved
// when the config is loaded. The keys (settler_key, paymaster_key) must be
// placeholders.
type App struct {
	// Network is required: "devnet" runs the embedded dev chain, a demo on
	// which anyone can mint the token and whose keys are public; otherwise
	// the CAIP-2 id of a real chain such as "eip155:8453", with RPC. There
	// is no default, so that a config without it cannot take payments on
	// the dev chain by mistake.
	Network string `json:"network,omitempty"`
	// RPC is the chain's JSON-RPC URL. Required unless Network is devnet.
	RPC string `json:"rpc,omitempty"`
	// DevnetAddr is the host:port of the devnet's JSON-RPC server; default
	// 127.0.0.1:8545 (port 0 picks a free one). Only with Network devnet.
	DevnetAddr string `json:"devnet_addr,omitempty"`
	// SettlerKey is the hex private key that submits settlements and pays
	// their gas. It must be an {env.*} or {file.*} placeholder, so the key
	// itself never appears in the config or the admin API. On the devnet it
	// defaults to test account #0.
	SettlerKey string `json:"settler_key,omitempty"`
	// StorePath is the settlement store (a bbolt file). Default: x402/
	// under Caddy's data directory, named for the network. On the devnet,
	// whose chain lives in memory, the default is a temporary file removed
	// at shutdown. The store records the network it was created for, and
	// refuses to serve another: a dev chain's store never serves a real
	// chain.
	StorePath string `json:"store_path,omitempty"`
	// Assets are the allowlisted tokens. On the devnet the default is its
	// stablecoin; on other networks at least one is required.
	Assets []AssetConfig `json:"assets,omitempty"`
	// ReceiptTimeout is how long a settlement waits for its receipt before
	// answering 503 (and staying pending); default 30s.
	ReceiptTimeout caddy.Duration `json:"receipt_timeout,omitempty"`
	// FacilitatorURL, if set, uses a remote facilitator instead of the
	// embedded one: no chain, key or store is needed here then.
	FacilitatorURL string `json:"facilitator_url,omitempty"`
	// FacilitatorKey is the remote facilitator's API key (scope
	// facilitator:settle), sent as Authorization: Bearer with /settle; a
	// facilitator settles without one only the payments of its own paid
	// routes. An {env.*} or {file.*} placeholder, never a literal.
	FacilitatorKey string `json:"facilitator_key,omitempty"`

	// EntryPoint is the ERC-4337 v0.6 EntryPoint of the aa-native scheme.
	// On the devnet it, AccountFactory, Settlement and Paymaster default
	// to the predeployed contracts; elsewhere aa-native is off without all
	// four. A mixed-case address must carry a valid EIP-55 checksum, as
	// every address of the config must.
	EntryPoint string `json:"entry_point,omitempty"`
	// AccountFactory is the SimpleAccountFactory of aa-native payers.
	AccountFactory string `json:"account_factory,omitempty"`
	// Settlement is the X402Settlement contract aa-native payments call.
	Settlement string `json:"settlement,omitempty"`
	// Paymaster is the VerifyingPaymaster that sponsors aa-native gas.
	Paymaster string `json:"paymaster,omitempty"`
	// PaymasterURL is the paymaster JSON-RPC that /sponsor forwards to,
	// with PaymasterKey in X-Paymaster-Api-Key.
	PaymasterURL string `json:"paymaster_url,omitempty"`
	// PaymasterKey is the paymaster API key /sponsor uses, an {env.*} or
	// {file.*} placeholder; on the devnet it defaults to the documented
	// dev key.
	PaymasterKey string `json:"paymaster_key,omitempty"`
	// SponsorURL is the public URL of the facilitator's /sponsor, put in
	// aa-native offers for payers to ask for gas.
	SponsorURL string `json:"sponsor_url,omitempty"`
	// BundlerURL submits aa-native operations to an external ERC-4337
	// bundler (ERC-7769) instead of the built-in one.
	BundlerURL string `json:"bundler_url,omitempty"`
	// SponsorLimits bound anonymous sponsorship through /sponsor, which
	// needs no credential. Defaults: 30 a minute and 10 outstanding per
	// client address, 10 a minute per smart account, 40 outstanding in
	// all (keep it under the paymaster project's max_in_flight), each
	// valid for 2 minutes.
	SponsorLimits *SponsorLimitsConfig `json:"sponsor_limits,omitempty"`

	shared *shared
	key    string
	log    *zap.Logger
}

// SponsorLimitsConfig is the anonymous budget of /sponsor; zero values
// take the defaults.
type SponsorLimitsConfig struct {
	// PerClient is sponsorships per client address per minute.
	PerClient int `json:"per_client,omitempty"`
	// PerClientOutstanding is sponsorships of one client address neither
	// settled nor expired.
	PerClientOutstanding int `json:"per_client_outstanding,omitempty"`
	// PerSender is sponsorships per smart account per minute.
	PerSender int `json:"per_sender,omitempty"`
	// MaxOutstanding is anonymous sponsorships neither settled nor expired.
	MaxOutstanding int `json:"max_outstanding,omitempty"`
	// Validity is how long an anonymous sponsorship stays valid.
	Validity caddy.Duration `json:"validity,omitempty"`
}

// AssetConfig is an allowlisted token.
type AssetConfig struct {
	// Address is the token contract. It may be an {env.*} or {file.*}
	// placeholder; a mixed-case address must carry a valid EIP-55 checksum.
	Address string `json:"address"`
	// Name is the token's EIP-712 domain name (USDC on Base: "USD Coin").
	Name string `json:"name"`
	// Version is the token's EIP-712 domain version (USDC on Base: "2").
	Version string `json:"version"`
	// Decimals converts human prices such as 0.01; default 6.
	Decimals uint8 `json:"decimals,omitempty"`
}

// CaddyModule returns the Caddy module information.
func (*App) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "x402", New: func() caddy.Module { return new(App) }}
}

// pool holds what survives config reloads: the devnet and the facilitator.
var pool = caddy.NewUsagePool()

// shared is one running chain connection and facilitator.
type shared struct {
	offers   facilitator.OfferSet // what the paywall routes ask for
	guard    paywall.Guard        // payments in use, across every route
	devnet   *devnet.Devnet
	fac      *facilitator.Service
	network  string
	assets   []AssetConfig
	tempDir  string
	settler  common.Address
	chainURL string
	aa       *facilitator.AANative
}

// Destruct stops the facilitator and the devnet when the last config using
// them is unloaded.
func (s *shared) Destruct() error {
	var errs []error
	if s.fac != nil {
		errs = append(errs, s.fac.Close())
	}
	if s.devnet != nil {
		errs = append(errs, s.devnet.Close())
	}
	if s.tempDir != "" {
		errs = append(errs, os.RemoveAll(s.tempDir))
	}
	return errors.Join(errs...)
}

// Provision resolves the configuration and starts, or reuses, the shared
// chain and facilitator.
func (a *App) Provision(ctx caddy.Context) error {
	a.log = ctx.Logger()
	if err := a.expand(); err != nil {
		return err
	}
	if err := a.validate(); err != nil {
		return err
	}
	if a.FacilitatorURL != "" {
		return nil
	}
	key, err := a.settlerKey()
	if err != nil {
		return err
	}
	// The pool key identifies the running resources by their configuration
	// (hashed, since it includes the settler key).
	cfg, _ := json.Marshal(struct {
		A *App
		K string
	}{a, hex.EncodeToString(crypto.FromECDSA(key))})
	sum := sha256.Sum256(cfg)
	a.key = "x402:" + hex.EncodeToString(sum[:])
	v, _, err := pool.LoadOrNew(a.key, func() (caddy.Destructor, error) { return a.start(key) })
	if err != nil {
		return err
	}
	a.shared = v.(*shared)
	return nil
}

// expand resolves the placeholders of the options that take them.
func (a *App) expand() error {
	vals := []configValue{
		{"x402 network", &a.Network}, {"x402 rpc", &a.RPC}, {"x402 devnet_addr", &a.DevnetAddr},
		{"x402 store_path", &a.StorePath}, {"x402 facilitator_url", &a.FacilitatorURL},
		{"x402 entry_point", &a.EntryPoint}, {"x402 account_factory", &a.AccountFactory},
		{"x402 settlement", &a.Settlement}, {"x402 paymaster", &a.Paymaster},
		{"x402 paymaster_url", &a.PaymasterURL}, {"x402 sponsor_url", &a.SponsorURL},
		{"x402 bundler_url", &a.BundlerURL},
	}
	for i := range a.Assets {
		vals = append(vals, configValue{fmt.Sprintf("x402 asset %d", i), &a.Assets[i].Address})
	}
	return expand(vals...)
}

// errNoNetwork is the error of an x402 app without a network. The dev chain
// used to be the default; it is not, because a merchant who forgot the
// x402 block would take payments on a chain where anyone can mint the
// token, signed with published keys.
var errNoNetwork = errors.New("the x402 app has no network: add the global option `x402 { network devnet }` to run the embedded dev chain (a demo: its token is free to mint and its keys are public), or the real chain's `network`, `rpc`, `settler_key` and `asset`")

func (a *App) validate() error {
	if a.Network == "" {
		return errNoNetwork
	}
	var errs []error
	if a.PaymasterKey != "" && !isPlaceholder(a.PaymasterKey) {
		errs = append(errs, errors.New("paymaster_key must be an {env.*} or {file.*} placeholder"))
	}
	if a.FacilitatorKey != "" && !isPlaceholder(a.FacilitatorKey) {
		errs = append(errs, errors.New("facilitator_key must be an {env.*} or {file.*} placeholder"))
	}
	if a.SettlerKey != "" && !isPlaceholder(a.SettlerKey) {
		errs = append(errs, errors.New("settler_key must be an {env.*} or {file.*} placeholder: a key written into the config would be shown by the admin API"))
	}
	if a.FacilitatorURL != "" && a.Network == NetworkDevnet {
		errs = append(errs, errors.New("with facilitator_url, network must be the facilitator's CAIP-2 id (such as eip155:8453) and assets must be listed"))
	}
	if a.Network != NetworkDevnet {
		if _, err := x402.ParseNetwork(a.Network); err != nil {
			errs = append(errs, fmt.Errorf("network: %w (or %q for the embedded dev chain)", err, NetworkDevnet))
		}
		if len(a.Assets) == 0 {
			errs = append(errs, errors.New("assets: at least one token is required outside the devnet"))
		}
		if a.FacilitatorURL == "" && (a.RPC == "" || a.SettlerKey == "") {
			errs = append(errs, errors.New("rpc and settler_key are required to run a facilitator outside the devnet (or set facilitator_url)"))
		}
	}
	if a.DevnetAddr != "" && a.Network != NetworkDevnet {
		errs = append(errs, fmt.Errorf("devnet_addr is only for network %s", NetworkDevnet))
	}
	for i, as := range a.Assets {
		if as.Name == "" || as.Version == "" {
			errs = append(errs, fmt.Errorf("asset %d: address, EIP-712 name and version are required", i))
		}
		if _, err := configAddress(fmt.Sprintf("asset %d: address", i), as.Address); err != nil {
			errs = append(errs, err)
		}
	}
	for _, c := range []struct{ field, v string }{
		{"entry_point", a.EntryPoint}, {"account_factory", a.AccountFactory},
		{"settlement", a.Settlement}, {"paymaster", a.Paymaster},
	} {
		if c.v == "" {
			continue
		}
		if _, err := configAddress(c.field, c.v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func isPlaceholder(s string) bool {
	return strings.HasPrefix(s, "{env.") || strings.HasPrefix(s, "{file.")
}

// settlerKey resolves the placeholder; errors never include the value.
func (a *App) settlerKey() (*ecdsa.PrivateKey, error) {
	if a.SettlerKey == "" {
		if a.Network != NetworkDevnet {
			return nil, errors.New("settler_key is required")
		}
		return devnet.DeriveKey(devnet.TestMnemonic, 0)
	}
	raw := strings.TrimSpace(caddy.NewReplacer().ReplaceKnown(a.SettlerKey, ""))
	if raw == "" {
		return nil, fmt.Errorf("settler_key %s is empty", a.SettlerKey)
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(raw, "0x"))
	if err != nil {
		return nil, fmt.Errorf("settler_key %s is not a hex secp256k1 private key", a.SettlerKey)
	}
	return key, nil
}

// start runs the devnet (if used) and the facilitator.
func (a *App) start(key *ecdsa.PrivateKey) (*shared, error) {
	s := &shared{network: a.Network, assets: a.Assets, settler: crypto.PubkeyToAddress(key.PublicKey)}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	rpcURL := a.RPC
	storePath := a.StorePath
	if a.Network == NetworkDevnet {
		d, err := devnet.Start(ctx, devnet.Config{Addr: a.DevnetAddr, Logger: a.log.Named("devnet")})
		if err != nil {
			return nil, fmt.Errorf("starting the devnet: %w", err)
		}
		s.devnet, rpcURL = d, d.URL
		s.network = x402.FormatNetwork(d.ChainID.Uint64())
		if len(s.assets) == 0 {
			s.assets = []AssetConfig{{Address: d.Token.Address.Hex(), Name: d.Token.Name, Version: d.Token.Version, Decimals: d.Token.Decimals}}
		}
		if storePath == "" {
			dir, err := os.MkdirTemp("", "caddy-x402-devnet-")
			if err != nil {
				s.Destruct()
				return nil, err
			}
			s.tempDir, storePath = dir, filepath.Join(dir, "facilitator.db")
		}
	}
	if storePath == "" {
		storePath = filepath.Join(caddy.AppDataDir(), "x402", strings.ReplaceAll(s.network, ":", "-")+".db")
	}
	assets := make([]facilitator.Asset, len(s.assets))
	for i, as := range s.assets {
		assets[i] = facilitator.Asset{Address: common.HexToAddress(as.Address), Name: as.Name, Version: as.Version}
	}
	aa, err := a.aaNative(s)
	if err != nil {
		s.Destruct()
		return nil, err
	}
	fac, err := facilitator.New(ctx, facilitator.Config{
		Network: s.network, RPCURL: rpcURL, SettlerKey: key, Assets: assets, AANative: aa, Offers: &s.offers,
		StorePath: storePath, ReceiptTimeout: time.Duration(a.ReceiptTimeout), Logger: a.log.Named("facilitator"),
	})
	if err != nil {
		s.Destruct()
		return nil, err
	}
	s.fac, s.chainURL, s.aa = fac, rpcURL, aa
	if err := a.claimStore(fac, storePath, s.network); err != nil {
		s.Destruct()
		return nil, err
	}
	a.log.Info("x402 facilitator ready",
		zap.String("network", s.network), zap.String("rpc", rpcURL),
		zap.Stringer("settler", s.settler), zap.String("store", storePath))
	return s, nil
}

// claimStore makes sure the store serves this network (see claimStore) and
// holds no record of the devnet's public paymaster key, which earlier
// versions stored.
func (a *App) claimStore(fac *facilitator.Service, path, caip2 string) error {
	meta, err := fac.Store().Bucket(metaBucket)
	if err != nil {
		return err
	}
	if err := claimStore(meta, path, a.Network, caip2); err != nil {
		return err
	}
	keys, err := fac.Store().Bucket(paymasterKeysBucket)
	if err != nil {
		return err
	}
	removed, err := removeKeyRecord(keys, DevPaymasterKey)
	if err != nil {
		return fmt.Errorf("removing the devnet's paymaster key from store %s: %w", path, err)
	}
	if removed {
		a.log.Warn("removed the devnet's public paymaster key from the store; it is held in memory on the devnet only", zap.String("store", path))
	}
	return nil
}

// aaNative is the aa-native configuration, or nil when its contracts are
// not known.
func (a *App) aaNative(s *shared) (*facilitator.AANative, error) {
	addr := func(v string, def common.Address) common.Address {
		if v != "" {
			return common.HexToAddress(v)
		}
		return def
	}
	var c devnet.Contracts
	if s.devnet != nil {
		c = s.devnet.Contracts
	}
	aa := &facilitator.AANative{
		EntryPoint: addr(a.EntryPoint, c.EntryPoint), Factory: addr(a.AccountFactory, c.AccountFactory),
		Settlement: addr(a.Settlement, c.Settlement), Paymaster: addr(a.Paymaster, c.Paymaster),
		BundlerURL: a.BundlerURL,
	}
	if l := a.SponsorLimits; l != nil {
		aa.SponsorLimits = facilitator.SponsorLimits{
			PerClient: l.PerClient, PerClientOutstanding: l.PerClientOutstanding, PerSender: l.PerSender,
			MaxOutstanding: l.MaxOutstanding, Validity: time.Duration(l.Validity),
		}
	}
	if aa.EntryPoint == (common.Address{}) || aa.Factory == (common.Address{}) || aa.Settlement == (common.Address{}) || aa.Paymaster == (common.Address{}) {
		return nil, nil
	}
	if a.PaymasterURL != "" {
		key := DevPaymasterKey
		if a.PaymasterKey != "" {
			key = strings.TrimSpace(caddy.NewReplacer().ReplaceKnown(a.PaymasterKey, ""))
		} else if s.devnet == nil {
			return nil, errors.New("paymaster_key is required with paymaster_url outside the devnet")
		}
		aa.Sponsor = &paymaster.Client{URL: a.PaymasterURL, APIKey: key, Header: "X-Paymaster-Api-Key"}
	}
	return aa, nil
}

// Start is a no-op: the shared resources start in Provision.
func (*App) Start() error { return nil }

// Stop is a no-op: Cleanup releases the shared resources.
func (*App) Stop() error { return nil }

// Cleanup releases this config's hold on the shared resources; the last
// holder stops them.
func (a *App) Cleanup() error {
	if a.key == "" {
		return nil
	}
	_, err := pool.Delete(a.key)
	return err
}

// networkID is the CAIP-2 id payments use.
func (a *App) networkID() string {
	if a.shared != nil {
		return a.shared.network
	}
	return a.Network
}

// assets is the allowlist in force.
func (a *App) assets() []AssetConfig {
	if a.shared != nil {
		return a.shared.assets
	}
	return a.Assets
}

// facilitator is what verifies and settles for a route: the embedded
// service, or a remote one.
func (a *App) facilitator(url string) (facilitator.Facilitator, error) {
	if url == "" {
		url = a.FacilitatorURL
	}
	if url != "" {
		c := &facilitator.Client{BaseURL: url}
		if a.FacilitatorKey != "" {
			key, err := caddy.NewReplacer().ReplaceOrErr(a.FacilitatorKey, true, true)
			if err != nil || strings.TrimSpace(key) == "" {
				return nil, fmt.Errorf("facilitator_key %s does not resolve to a key", a.FacilitatorKey)
			}
			c.APIKey = strings.TrimSpace(key)
		}
		return c, nil
	}
	if a.shared == nil {
		return nil, errors.New("the x402 app has no embedded facilitator")
	}
	return a.shared.fac, nil
}

// Interface guards.
var (
	_ caddy.App          = (*App)(nil)
	_ caddy.Provisioner  = (*App)(nil)
	_ caddy.CleanerUpper = (*App)(nil)
)

// aaExtra is the extra of aa-native offers, or nil when aa-native is off.
func (a *App) aaExtra() *x402.Extra {
	if a.shared == nil || a.shared.aa == nil || a.SponsorURL == "" {
		return nil
	}
	aa := a.shared.aa
	return &x402.Extra{EntryPoint: aa.EntryPoint.Hex(), Factory: aa.Factory.Hex(), Settlement: aa.Settlement.Hex(), SponsorURL: a.SponsorURL}
}

// embeddedApp returns the x402 app for a handler that needs its embedded
// chain and store.
func embeddedApp(ctx caddy.Context, handler string) (*App, error) {
	appIface, err := ctx.App("x402")
	if err != nil {
		return nil, err
	}
	app := appIface.(*App)
	if app.shared == nil {
		return nil, fmt.Errorf("%s needs the x402 app's embedded chain and store (not facilitator_url)", handler)
	}
	return app, nil
}

// poolKey names a handler's pooled service by its configuration and the
// app's, so an unchanged config reload reuses it.
func (a *App) poolKey(kind string, handlerConfig any) string {
	raw, _ := json.Marshal(handlerConfig)
	sum := sha256.Sum256(append(raw, a.key...))
	return kind + ":" + hex.EncodeToString(sum[:])
}
