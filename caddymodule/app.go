package caddymodule

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/tokens"
	"github.com/caddy-x402/caddy-x402/x402"
)

func init() {
	caddy.RegisterModule(new(App))
}

// NetworkDevnet is the network value that runs the embedded dev chain.
const NetworkDevnet = "devnet"

// App is the x402 app: the chain, the settler key, the store and the
// allowlisted assets that the x402 handlers of every site share.
//
// Provisioning the app, as `caddy validate` does, opens nothing: the chain
// connection, the store, the facilitator (and the devnet, if used) start
// when Caddy starts the app. They live in a usage pool keyed by the
// network, the store and the settler, so that a config reload keeps them,
// and their settler nonces, rather than start a second copy. A reload puts
// new receipt_timeout and sponsor_limits in force in the running
// facilitator; the other options (rpc, devnet_addr, assets, the aa-native
// contracts and URLs) need a restart of Caddy, and a reload that changes
// them is refused.
//
// Options that name a place or an address (network, rpc, devnet_addr,
// store_path, the asset addresses, facilitator_url, the aa-native contract
// addresses and URLs) may be {env.*} or {file.*} placeholders, resolved
// when the config is loaded. The keys (settler_key, paymaster_key,
// facilitator_key) must be placeholders.
type App struct {
	// The network of an app that takes payments on one chain: the options
	// of NetworkConfig written at the top level (network, rpc, settler_key,
	// assets and the rest) are its shorthand. Exclusive with networks.
	NetworkConfig
	// The networks of an app that takes payments on several chains, one
	// entry each; none may repeat another's network. The first is the
	// primary network: the store of its facilitator holds the API keys
	// (facilitator, paymaster), the payment-identifier index and the
	// dashboard's admin, and x402_paymaster, x402_txapi and aa-native
	// serve it. Exclusive with the top-level network options. Unset by
	// default.
	Networks []NetworkConfig `json:"networks,omitempty"`
	// The merchant's webhooks: each payment its routes settled, and each
	// whose settlement transaction failed, is POSTed to them, signed, at
	// least once: the store writes the outcome in the commit that
	// records it, and the deliveries, retried for about a day, are kept
	// in the primary network's store. Unset by default.
	Webhooks []WebhookConfig `json:"webhooks,omitempty"`
	// The PostgreSQL URL of a store that several Caddy replicas share (a
	// fleet). It holds the settlement records, the settler key's nonce
	// journal and delivery lease, the paymaster's keys and ledger, and the
	// transaction API's records, budgets and faucet times, so that one
	// payment pays for one response and every limit holds across the
	// replicas. It must be an {env.*} or {file.*} placeholder, since the URL
	// holds the password. Unset by default: the store is then the bbolt file
	// of store_path, for one instance; the two are exclusive. Not for
	// network devnet, whose chain lives in one process's memory: a fleet on
	// a dev chain runs it apart and names its rpc and CAIP-2 id. With
	// several networks, each keeps its tables in a schema of its own (see
	// NetworkConfig.DatabaseSchema).
	Database string `json:"database,omitempty"`
	// The most connections this replica's pool opens to the database, for
	// each network. Default: 10. Each replica also holds up to three more
	// (the delivery lease, the journal's notifications, a migration), so
	// the server's max_connections must exceed replicas × networks × (this
	// + 3).
	DatabaseMaxConns int `json:"database_max_conns,omitempty"`
	// With database (store postgres): how long a payment that a replica
	// claimed and then stopped settling (it died before storing its
	// transaction) waits before another replica settles it; its payer's
	// retries get 503 meanwhile. It must exceed the longest settle from
	// claim to stored transaction (bounded by the settle's timeout, 2m).
	// Default: 5m.
	ClaimTakeover caddy.Duration `json:"claim_takeover,omitempty"`
	// How long a settlement waits for its receipt before the request is
	// answered 503 (the settlement stays pending). Default: 30s.
	ReceiptTimeout caddy.Duration `json:"receipt_timeout,omitempty"`
	// How long the store keeps a settlement record once it is final (settled
	// or failed); older ones are deleted every hour, with their place in the
	// dashboard's listings and reports. Default: 30 days; the least is 24
	// hours, and a negative value keeps them for ever (Caddyfile: off). The
	// chain keeps every settlement's transaction for good, and it, not the
	// record, is what refuses a settled payment presented again (see
	// store.FinalPruner). A record takes about 2 KB, so 30 days at 1
	// payment/s is about 5 GB.
	SettlementRetention caddy.Duration `json:"settlement_retention,omitempty"`
	// The URL of a remote facilitator to verify and settle with instead of
	// the embedded one; no chain, key or store is needed here then. Unset by
	// default: the facilitator is embedded.
	FacilitatorURL string `json:"facilitator_url,omitempty"`
	// The remote facilitator's API key (scope facilitator:settle), sent as
	// Authorization: Bearer with /settle; without one, a facilitator settles
	// only the payments of its own paid routes. It is an {env.*} or {file.*}
	// placeholder, never a literal. Unset by default.
	FacilitatorKey string `json:"facilitator_key,omitempty"`
	// Who is paid, as the browser paywall page names them beside the
	// site's host, such as "Acme Reports". Unset by default: the page
	// names the host alone.
	MerchantName string `json:"merchant_name,omitempty"`
	// Bounds on anonymous sponsorship through /sponsor, which needs no
	// credential. Defaults: 30 a minute and 10 outstanding per client
	// address, 10 a minute per smart account, 40 outstanding in all (keep it
	// under the paymaster project's max_in_flight), each valid for 2
	// minutes.
	SponsorLimits *SponsorLimitsConfig `json:"sponsor_limits,omitempty"`
	// The bound and penalty of the routes serving on broadcast, over them
	// all (see SiteBroadcastConfig). Unset by default.
	ServeOnBroadcast *SiteBroadcastConfig `json:"serve_on_broadcast,omitempty"`

	chains    []*sharedChain // each network's embedded facilitator; none with FacilitatorURL
	chain     *sharedChain   // the primary network's: chains[0], or nil
	merchant  *merchant      // refusals and webhooks, from Start on
	router    *networkRouter // over chains, when there are several
	chainKeys []string       // chains' keys in the pool, while held
	// The background starts of networks that did not start with the
	// config, stopped by Cleanup; nil until one is needed.
	retries  *retrier
	tunables chainTunables        // what this config puts in force in every chain; see tunablesOf
	plans    []*chainPlan         // this config's plan of each of chains
	services []heldService        // the handlers' pooled services, to start
	catalog  *facilitator.Catalog // the discoverable routes, for /discovery/resources
	log      *zap.Logger
	ctx      caddy.Context // the config's, for the start log of announce
	// ledger is the routes' payments served on broadcast; see exposure.
	// ledgerBounds puts this config's bounds in force in it, and
	// exposureHold is its key in the usage pool while held.
	ledger       *paywall.Exposure
	ledgerBounds func()
	exposureHold string
}

// BatchConfig turns on batched settlement of a network's exact payments.
type BatchConfig struct {
	// The X402Batch contract. On the devnet it defaults to the predeployed
	// one; elsewhere it is required (docs/facilitator.md#batching has how
	// to deploy it). A mixed-case address must carry a valid EIP-55
	// checksum.
	Contract string `json:"contract,omitempty"`
	// The most payments in one transaction. Default: 50.
	MaxPayments int `json:"max_payments,omitempty"`
	// How long the first payment of a batch waits for company. Default: 0,
	// which sends a payment at once when no settlement is being sent, and
	// batches only the payments that arrive meanwhile. Capped per payment:
	// a payment whose authorization expires sooner is sent by the time its
	// transaction still has to be mined before it expires (see
	// docs/facilitator.md#batching).
	MaxWait caddy.Duration `json:"max_wait,omitempty"`
	// The most gas a batch's transaction may need; a larger batch is split.
	// Default: 12000000.
	MaxGas uint64 `json:"max_gas,omitempty"`
}

// NetworkConfig is one chain that an x402 app takes payments on: its
// RPC, settler key, store, assets, confirmations and (optional) aa-native
// contracts. Each network has a facilitator of its own (its own sender,
// nonces and store), so that one network's outage answers 503 only on its
// offers while the others keep settling.
type NetworkConfig struct {
	// The chain that payments are taken on, required: "devnet" runs the
	// embedded dev chain, a demo on which anyone can mint the token and
	// whose keys are public; anything else is the CAIP-2 id of a real chain,
	// such as "eip155:8453", reached through rpc. There is no default, so
	// that a config without it cannot take payments on the dev chain by
	// mistake.
	Network string `json:"network,omitempty"`
	// The chain's JSON-RPC URL (http, https, ws or wss). Required unless
	// network is devnet, whose own RPC server is used.
	RPC string `json:"rpc,omitempty"`
	// The host:port that the embedded dev chain's JSON-RPC server listens
	// on, only with network devnet. Default: 127.0.0.1:8545; port 0 picks a
	// free one.
	DevnetAddr string `json:"devnet_addr,omitempty"`
	// The chain id of the embedded dev chain, only with network devnet, so
	// that two dev chains can run side by side or a dev chain can stand in
	// for a named one (84532, Base Sepolia, for x402 v1 clients, which know
	// networks by name). Default: 31337.
	ChainID uint64 `json:"chain_id,omitempty"`
	// The block explorer of the chain, such as https://basescan.org, that
	// the dashboard links transactions (<explorer>/tx/<hash>) and
	// addresses to; "off" links none. Default: the explorer of a
	// well-known chain id (Ethereum, Base, their Sepolia testnets, OP,
	// Arbitrum, Polygon, Avalanche); none on the devnet.
	Explorer string `json:"explorer,omitempty"`
	// The hex private key that submits settlements and pays their gas. It
	// must be an {env.*} or {file.*} placeholder, so that the key itself
	// never appears in the config or the admin API. Required, except on the
	// devnet, where it defaults to test account #0.
	SettlerKey string `json:"settler_key,omitempty"`
	// The settlement store, a bbolt file. Default: x402/<network>.db under
	// Caddy's data directory; on the devnet, whose chain lives in memory, a
	// temporary file removed at shutdown. The store records the network it
	// was created for, and refuses to serve another: a dev chain's store
	// never serves a real chain.
	StorePath string `json:"store_path,omitempty"`
	// The PostgreSQL schema of the store's tables, created if missing, so
	// that x402 keeps apart from the application's tables (or two fleets
	// share a database). Default: the connection's search_path, usually
	// public; with several networks, x402_<network> (such as
	// x402_eip155_8453), so that no two share one.
	DatabaseSchema string `json:"database_schema,omitempty"`
	// The allowlisted tokens that paid routes may ask for. On the devnet the
	// default is its stablecoin; on other networks at least one is required.
	Assets []AssetConfig `json:"assets,omitempty"`
	// How many blocks must be on top of a settlement's block before the
	// payment counts as settled and the request is served. At that depth the
	// receipt is read again, so a settlement that a reorganisation moved or
	// dropped is waited for again (and broadcast again) instead of being
	// reported.
	//
	// Default: 0, which serves as soon as the transaction is mined, as
	// upstream x402 facilitators do; it is right on the devnet, which
	// reorganises only when a test tells it to. On a chain that can
	// reorganise, set the depth its reorganisations stay within (every
	// settle then waits that many blocks longer); at most 64. Whatever the
	// value, settlements are followed 64 blocks deep afterwards, and one
	// that a reorganisation dropped is broadcast again.
	Confirmations int `json:"confirmations,omitempty"`
	// Batched settlement of exact payments: payments that arrive while a
	// settlement is being sent go together in one transaction to the
	// X402Batch contract, at about 0.6 of the gas a payment; a lone
	// payment is sent on its own as without it. Off by default (unset).
	// See docs/facilitator.md#batching.
	Batch *BatchConfig `json:"batch,omitempty"`
	// The most gas an exact payment from a contract wallet may make the
	// settler spend on the payer's own code: its deployment (ERC-6492)
	// and its transfer with the wallet's signature check (ERC-1271)
	// together. A payment over it is refused at verification, before
	// anything is sent, and its settlement's gas limit holds it.
	// Default: 300000; at most 10000000.
	WalletGas int `json:"wallet_gas,omitempty"`
	// How many settlements of payments whose signature a contract checks
	// (ERC-1271 and ERC-6492 wallets, EIP-7702 accounts) may revert on
	// chain in an hour. Such code can accept a signature when simulated
	// and refuse it when mined, at the settler's cost and none of the
	// payer's, and a fresh wallet escapes the penalty box; past the
	// budget these payments are refused until the oldest revert is an
	// hour old. EOA payments are not affected. Default: 20; at most
	// 100000.
	WalletReverts int `json:"wallet_reverts,omitempty"`
	// The ERC-4337 v0.6 EntryPoint contract of the aa-native scheme. On the
	// devnet it defaults to the predeployed one. aa-native is off unless
	// entry_point, account_factory, settlement and paymaster are all known.
	// A mixed-case address must carry a valid EIP-55 checksum, as every
	// address of the config must.
	EntryPoint string `json:"entry_point,omitempty"`
	// The SimpleAccountFactory contract of aa-native payers. On the devnet
	// it defaults to the predeployed one.
	AccountFactory string `json:"account_factory,omitempty"`
	// The X402Settlement contract that aa-native payments call. On the
	// devnet it defaults to the predeployed one.
	Settlement string `json:"settlement,omitempty"`
	// The VerifyingPaymaster contract that sponsors aa-native gas. On the
	// devnet it defaults to the predeployed one.
	Paymaster string `json:"paymaster,omitempty"`
	// The paymaster JSON-RPC URL that /sponsor forwards to, with
	// paymaster_key in X-Paymaster-Api-Key. Unset by default, and then
	// /sponsor sponsors nothing.
	PaymasterURL string `json:"paymaster_url,omitempty"`
	// The paymaster API key that /sponsor sends to paymaster_url, an {env.*}
	// or {file.*} placeholder. On the devnet it defaults to the documented
	// dev key; elsewhere it is required with paymaster_url.
	PaymasterKey string `json:"paymaster_key,omitempty"`
	// The public URL of the facilitator's /sponsor, put in aa-native offers
	// for payers to ask for gas. Paid routes can offer aa-native only with
	// it. No default.
	SponsorURL string `json:"sponsor_url,omitempty"`
	// The URL of an external ERC-4337 bundler (ERC-7769) that aa-native
	// operations are submitted to. At start it is asked which EntryPoints
	// it serves (eth_supportedEntryPoints): it takes entry_point's
	// operations if it lists entry_point, and entry_point_v07's (without
	// bundler_url_v07) if it lists entry_point_v07; the built-in bundler
	// takes the rest. One that lists neither stops Caddy, naming its host
	// and what it serves; one that does not answer (unreachable, or
	// without the method) is taken to serve entry_point, with a warning.
	// Unset by default: the built-in bundler submits them all.
	BundlerURL string `json:"bundler_url,omitempty"`
	// The ERC-4337 v0.7 EntryPoint, settled beside entry_point's v0.6: a
	// route that offers aa-native then offers it once per EntryPoint, the
	// v0.7 offer's extra with entryPointVersion "0.7". Off unless set (v0.6
	// stays the default: NERO's chains have no v0.7). On the devnet the
	// canonical 0x0000000071727De22E5E9d8BAf0edAc6f37da032 is predeployed,
	// and account_factory_v07 and paymaster_v07 default to its predeployed
	// factory and paymaster; elsewhere they are required with it.
	EntryPointV07 string `json:"entry_point_v07,omitempty"`
	// The v0.7 SimpleAccountFactory of aa-native payers; see
	// entry_point_v07.
	AccountFactoryV07 string `json:"account_factory_v07,omitempty"`
	// The v0.7 VerifyingPaymaster (the same signer as paymaster's); see
	// entry_point_v07.
	PaymasterV07 string `json:"paymaster_v07,omitempty"`
	// The URL of an external ERC-4337 bundler for the v0.7 EntryPoint,
	// ahead of bundler_url. One whose eth_supportedEntryPoints does not
	// list entry_point_v07 stops Caddy at start. Unset by default:
	// bundler_url submits v0.7 operations if it serves entry_point_v07,
	// and the built-in bundler otherwise.
	BundlerURLV07 string `json:"bundler_url_v07,omitempty"`
	// The TokenPaymaster whose operations aa-native settles beside
	// paymaster's: the payer pays its gas in an ERC-20 (sponsorship types 1
	// and 2, asked of sponsor_url with a context {type, token}). On the
	// devnet it defaults to the predeployed one; elsewhere unset settles
	// free gas only. It must be the token_paymaster of the x402_paymaster
	// that paymaster_url reaches.
	TokenPaymaster string `json:"token_paymaster,omitempty"`
	// The TokenPaymasterV07, for entry_point_v07, as token_paymaster; on
	// the devnet it defaults to the predeployed one with entry_point_v07.
	TokenPaymasterV07 string `json:"token_paymaster_v07,omitempty"`
}

// heldService is a pooled service that a handler of the app's config holds.
type heldService struct {
	svc      any // the pooled value
	tunables any // what the handler asks for
	start    func() error
}

// SponsorLimitsConfig is the anonymous budget of /sponsor; zero values
// take the defaults.
type SponsorLimitsConfig struct {
	// How many sponsorships one client address may have per minute. Default:
	// 30.
	PerClient int `json:"per_client,omitempty"`
	// How many sponsorships of one client address may be neither settled nor
	// expired at once. Default: 10.
	PerClientOutstanding int `json:"per_client_outstanding,omitempty"`
	// How many sponsorships one smart account may have per minute. Default:
	// 10.
	PerSender int `json:"per_sender,omitempty"`
	// How many anonymous sponsorships, in all, may be neither settled nor
	// expired at once. Default: 40.
	MaxOutstanding int `json:"max_outstanding,omitempty"`
	// How long an anonymous sponsorship stays valid. Default: 2m.
	Validity caddy.Duration `json:"validity,omitempty"`
}

// AssetConfig is an allowlisted token: a well-known one by name (token),
// or any by address. Either way the facilitator reads the token's EIP-712
// domain and decimals from the chain when it starts, and refuses a
// configuration that disagrees with them, naming the right values.
type AssetConfig struct {
	// A well-known token of the network by name, case-insensitively: usdc
	// on Ethereum, OP Mainnet, Polygon, Base, Arbitrum One and Base
	// Sepolia (Circle's USDC), dusd on the devnet (its stablecoin). It
	// fills in the address, the EIP-712 name and version and the
	// decimals from the table of package tokens (see docs/tokens.md);
	// those given as well must agree with it. Exclusive with a token given
	// by address only.
	Token string `json:"token,omitempty"`
	// The token's contract address, required without token. It may be an
	// {env.*} or {file.*} placeholder; a mixed-case address must carry a
	// valid EIP-55 checksum.
	Address string `json:"address,omitempty"`
	// The token's EIP-712 domain name (USDC on Base: "USD Coin"), for
	// exact payments (EIP-3009). A token without EIP-3009 has neither name
	// nor version, and is paid with aa-native only.
	Name string `json:"name,omitempty"`
	// The token's EIP-712 domain version (USDC on Base: "2"), given with
	// name.
	Version string `json:"version,omitempty"`
	// The token's decimals, which convert human prices such as 0.01 to
	// atomic units. Default: 6.
	Decimals uint8 `json:"decimals,omitempty"`
	// Permit2 says the token has no EIP-3009 and is paid in exact through
	// Permit2 and x402's exact Permit2 proxy (assetTransferMethod
	// "permit2"); name and version are then its EIP-2612 domain, which
	// payers use to approve Permit2 without gas (eip2612GasSponsoring).
	Permit2 bool `json:"permit2,omitempty"`

	known *tokens.Token // the table's entry for this network and address, once resolved
}

// CaddyModule returns the Caddy module information.
func (*App) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "x402", New: func() caddy.Module { return new(App) }}
}

// Provision resolves the configuration and takes a hold on the shared
// chain and facilitator of each network, without starting them. It checks
// the configuration first, since the holds' identities are built from it.
func (a *App) Provision(ctx caddy.Context) error {
	a.log, a.ctx = ctx.Logger(), ctx
	a.catalog = new(facilitator.Catalog)
	if err := a.expand(); err != nil {
		return err
	}
	if err := a.resolveAssets(); err != nil {
		return err
	}
	if err := a.Validate(); err != nil {
		return err
	}
	if a.FacilitatorURL != "" {
		return nil
	}
	nets := a.networks()
	for i, n := range nets {
		plan, err := a.plan(n, len(nets) > 1, i == 0)
		if err != nil {
			return err
		}
		v, _, err := pool.LoadOrNew(plan.key(), func() (caddy.Destructor, error) { return newSharedChain(plan), nil })
		if err != nil {
			return err
		}
		c := v.(*sharedChain)
		a.chains, a.chainKeys, a.plans = append(a.chains, c), append(a.chainKeys, plan.key()), append(a.plans, plan)
		if err := c.check(plan.fixed); err != nil {
			return err
		}
	}
	a.chain = a.chains[0]
	if len(a.chains) > 1 {
		a.router = &networkRouter{chains: a.chains}
	}
	if reg := ctx.GetMetricsRegistry(); reg != nil {
		if err := reg.Register(reorgCollector{a.chains}); err != nil {
			a.log.Warn("not exporting caddy_x402_settlement_reorgs_total", zap.Error(err))
		}
	}
	a.tunables = chainTunables{ReceiptTimeout: a.ReceiptTimeout, SettlementRetention: cmp.Or(a.SettlementRetention, caddy.Duration(defaultSettlementRetention))}
	if a.SponsorLimits != nil {
		a.tunables.SponsorLimits = *a.SponsorLimits
	}
	return nil
}

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

// expand resolves the placeholders of the options that take them.
func (a *App) expand() error {
	vals := []configValue{{"x402 facilitator_url", &a.FacilitatorURL}}
	for _, n := range append([]*NetworkConfig{&a.NetworkConfig}, a.networks()...) {
		vals = append(vals,
			configValue{"x402 network", &n.Network}, configValue{"x402 rpc", &n.RPC}, configValue{"x402 devnet_addr", &n.DevnetAddr},
			configValue{"x402 store_path", &n.StorePath},
			configValue{"x402 entry_point", &n.EntryPoint}, configValue{"x402 account_factory", &n.AccountFactory},
			configValue{"x402 settlement", &n.Settlement}, configValue{"x402 paymaster", &n.Paymaster},
			configValue{"x402 paymaster_url", &n.PaymasterURL}, configValue{"x402 sponsor_url", &n.SponsorURL},
			configValue{"x402 bundler_url", &n.BundlerURL},
			configValue{"x402 entry_point_v07", &n.EntryPointV07}, configValue{"x402 account_factory_v07", &n.AccountFactoryV07},
			configValue{"x402 paymaster_v07", &n.PaymasterV07}, configValue{"x402 bundler_url_v07", &n.BundlerURLV07},
			configValue{"x402 token_paymaster", &n.TokenPaymaster}, configValue{"x402 token_paymaster_v07", &n.TokenPaymasterV07},
		)
		for i := range n.Assets {
			vals = append(vals, configValue{fmt.Sprintf("x402 asset %d", i), &n.Assets[i].Address})
		}
	}
	return expand(vals...)
}

// errNoNetwork is the error of an x402 app without a network. The dev chain
// used to be the default; it is not, because a merchant who forgot the
// x402 block would take payments on a chain where anyone can mint the
// token, signed with published keys.
var errNoNetwork = errors.New("the x402 app has no network: add the global option `x402 { network devnet }` to run the embedded dev chain (a demo: its token is free to mint and its keys are public), or the real chain's `network`, `rpc`, `settler_key` and `asset`")

// Validate checks the configuration. It has no side effects.
func (a *App) Validate() error {
	if len(a.Networks) > 0 && !a.NetworkConfig.isZero() {
		return errors.New("x402: give the network options (network, rpc, settler_key, asset, …) either at the top level, for one network, or in network blocks, for several; not both")
	}
	nets := a.networks()
	if len(nets) == 0 {
		return errNoNetwork
	}
	errs := []error{checkSecrets(
		configValue{"facilitator_key", &a.FacilitatorKey}, configValue{"store postgres (database)", &a.Database},
	)}
	errs = append(errs, a.validateMerchant())
	if a.Database != "" && a.FacilitatorURL != "" {
		errs = append(errs, errors.New("store postgres: with facilitator_url there is no embedded facilitator to keep a store"))
	}
	if a.DatabaseMaxConns < 0 {
		errs = append(errs, errors.New("database_max_conns must not be negative"))
	}
	if a.ClaimTakeover < 0 || (a.ClaimTakeover > 0 && a.Database == "") {
		errs = append(errs, errors.New("claim_takeover is a positive duration, for store postgres"))
	}
	if r := time.Duration(a.SettlementRetention); r > 0 && r < store.MinRetention {
		return fmt.Errorf("settlement_retention %v: want at least %v, or off", r, store.MinRetention)
	}
	if a.ReceiptTimeout < 0 {
		errs = append(errs, errors.New("receipt_timeout must not be negative"))
	}
	if l := a.SponsorLimits; l != nil && (l.PerClient < 0 || l.PerClientOutstanding < 0 || l.PerSender < 0 || l.MaxOutstanding < 0 || l.Validity < 0) {
		errs = append(errs, errors.New("sponsor_limits must not be negative"))
	}
	seen := map[string]bool{}
	places := map[string]string{} // store paths, schemas and devnet addresses in use
	taken := func(kind, v, network string) {
		if v == "" {
			return
		}
		if other, ok := places[kind+"|"+v]; ok {
			errs = append(errs, fmt.Errorf("networks %s and %s share %s %q; give each its own", other, network, kind, v))
		}
		places[kind+"|"+v] = network
	}
	multi := len(nets) > 1
	for i, n := range nets {
		id := n.id()
		if seen[id] {
			errs = append(errs, fmt.Errorf("network %s is given twice", id))
		}
		seen[id] = true
		err := n.validate(a)
		if err != nil && multi {
			err = fmt.Errorf("network %s: %w", n.Network, err)
		}
		errs = append(errs, err)
		if multi && i > 0 && (n.EntryPoint != "" || n.AccountFactory != "" || n.Settlement != "" || n.Paymaster != "" || n.SponsorURL != "" || n.PaymasterURL != "" || n.BundlerURL != "" ||
			n.EntryPointV07 != "" || n.AccountFactoryV07 != "" || n.PaymasterV07 != "" || n.BundlerURLV07 != "" || n.TokenPaymaster != "" || n.TokenPaymasterV07 != "") {
			errs = append(errs, fmt.Errorf("network %s: aa-native is served on the first network only (its /sponsor, paymaster and bundler); give its contracts, sponsor_url, paymaster_url and bundler_url in the first network block", n.Network))
		}
		taken("store_path", n.StorePath, n.Network)
		if a.Database != "" {
			taken("database_schema", n.schema(multi), n.Network)
		}
		if n.Network == NetworkDevnet {
			if addr := cmp.Or(n.DevnetAddr, wellknown.Addr); !anyPort(addr) {
				taken("devnet_addr", addr, n.Network)
			}
		}
	}
	return errors.Join(errs...)
}

// validRPC reports whether rpc is a URL that go-ethereum's client dials:
// http, https, ws or wss with a host, or an IPC socket's absolute path.
func validRPC(rpc string) bool {
	if strings.HasPrefix(rpc, "/") {
		return true
	}
	u, err := url.Parse(rpc)
	return err == nil && u.Host != "" && (u.Scheme == "http" || u.Scheme == "https" || u.Scheme == "ws" || u.Scheme == "wss")
}

// isZero reports whether no network option is set.
func (n *NetworkConfig) isZero() bool {
	return n.Network == "" && n.RPC == "" && n.DevnetAddr == "" && n.ChainID == 0 && n.SettlerKey == "" &&
		n.StorePath == "" && n.DatabaseSchema == "" && len(n.Assets) == 0 && n.Confirmations == 0 && n.Batch == nil && n.WalletGas == 0 && n.WalletReverts == 0 &&
		n.EntryPoint == "" && n.AccountFactory == "" && n.Settlement == "" && n.Paymaster == "" &&
		n.PaymasterURL == "" && n.PaymasterKey == "" && n.SponsorURL == "" && n.BundlerURL == "" &&
		n.EntryPointV07 == "" && n.AccountFactoryV07 == "" && n.PaymasterV07 == "" && n.BundlerURLV07 == "" &&
		n.TokenPaymaster == "" && n.TokenPaymasterV07 == ""
}

// id is the network's CAIP-2 id, as far as the configuration says: a
// devnet's is its chain id's.
func (n *NetworkConfig) id() string {
	if n.Network == NetworkDevnet {
		return x402.FormatNetwork(cmp.Or(n.ChainID, wellknown.ChainID))
	}
	return n.Network
}

// schema is the PostgreSQL schema of the network's store: its own, or,
// in an app of several networks, one named after it.
func (n *NetworkConfig) schema(multi bool) string {
	if n.DatabaseSchema != "" || !multi {
		return n.DatabaseSchema
	}
	return "x402_" + strings.NewReplacer(":", "_", "-", "_").Replace(strings.ToLower(n.id()))
}

// validate checks one network of a.
func (n *NetworkConfig) validate(a *App) error {
	devnetOn := n.Network == NetworkDevnet
	errs := []error{checkSecrets(configValue{"settler_key", &n.SettlerKey}, configValue{"paymaster_key", &n.PaymasterKey})}
	switch {
	case a.Database != "" && n.StorePath != "":
		errs = append(errs, errors.New("store: a PostgreSQL database and a store_path are exclusive; give one"))
	case a.Database != "" && devnetOn:
		errs = append(errs, errors.New("store postgres: the embedded devnet's chain lives in this process's memory, so a shared database would outlive it; run the dev chain apart and give its rpc and CAIP-2 network, or use the default store"))
	}
	if n.DatabaseSchema != "" {
		if err := (postgres.Config{URL: "postgres://", Schema: n.DatabaseSchema}).Validate(); err != nil {
			errs = append(errs, fmt.Errorf("database_schema: %w", err))
		}
	}
	if devnetOn && a.FacilitatorURL == "" && !embedsDevnet {
		errs = append(errs, errNoDevnet)
	}
	if a.FacilitatorURL != "" && devnetOn {
		errs = append(errs, errors.New("with facilitator_url, network must be the facilitator's CAIP-2 id (such as eip155:8453) and assets must be listed"))
	}
	if !devnetOn {
		if err := checkNetwork(n.Network); err != nil {
			errs = append(errs, fmt.Errorf("network: %w", err))
		}
		if len(n.Assets) == 0 {
			errs = append(errs, errors.New("assets: at least one token is required outside the devnet"))
		}
		if n.RPC != "" && !validRPC(n.RPC) {
			errs = append(errs, fmt.Errorf("rpc %q: want an http://, https://, ws:// or wss:// URL (or the absolute path of an IPC socket)", n.RPC))
		}
		if a.FacilitatorURL == "" && (n.RPC == "" || n.SettlerKey == "") {
			errs = append(errs, errors.New("rpc and settler_key are required to run a facilitator outside the devnet (or set facilitator_url)"))
		}
		if n.DevnetAddr != "" {
			errs = append(errs, fmt.Errorf("devnet_addr is only for network %s", NetworkDevnet))
		}
		if n.ChainID != 0 {
			errs = append(errs, fmt.Errorf("chain_id is only for network %s (a real chain's id is in its CAIP-2 network)", NetworkDevnet))
		}
		if n.PaymasterURL != "" && n.PaymasterKey == "" && n.aaContracts() != nil {
			errs = append(errs, errors.New("paymaster_key is required with paymaster_url outside the devnet"))
		}
	} else if n.DevnetAddr != "" {
		if _, _, err := wellknown.SplitAddr(n.DevnetAddr); err != nil {
			errs = append(errs, fmt.Errorf("devnet_addr: %w", err))
		}
	}
	for i, as := range n.Assets {
		if (as.Name == "") != (as.Version == "") {
			errs = append(errs, fmt.Errorf("asset %d: give the EIP-712 name and version together, or neither (a token without EIP-3009, paid with aa-native only)", i))
		}
		if as.Name == "" && n.aaContracts() == nil {
			errs = append(errs, fmt.Errorf("asset %d: without an EIP-712 name and version it can be paid with aa-native only, which this network does not have (entry_point, account_factory, settlement, paymaster)", i))
		}
		if _, err := configAddress(fmt.Sprintf("asset %d: address", i), as.Address); err != nil {
			errs = append(errs, err)
		}
	}
	if b := n.Batch; b != nil {
		if b.Contract == "" && n.Network != NetworkDevnet {
			errs = append(errs, errors.New("batch: the X402Batch contract is required outside the devnet"))
		} else if b.Contract != "" {
			if _, err := configAddress("batch: contract", b.Contract); err != nil {
				errs = append(errs, err)
			}
		}
		if b.MaxPayments < 0 || b.MaxWait < 0 {
			errs = append(errs, errors.New("batch: max_payments and max_wait must not be negative"))
		}
	}
	errs = append(errs, checkAddresses(
		configValue{"entry_point", &n.EntryPoint}, configValue{"account_factory", &n.AccountFactory},
		configValue{"settlement", &n.Settlement}, configValue{"paymaster", &n.Paymaster},
		configValue{"entry_point_v07", &n.EntryPointV07}, configValue{"account_factory_v07", &n.AccountFactoryV07},
		configValue{"paymaster_v07", &n.PaymasterV07},
		configValue{"token_paymaster", &n.TokenPaymaster}, configValue{"token_paymaster_v07", &n.TokenPaymasterV07},
	))
	if n.EntryPointV07 == "" && (n.AccountFactoryV07 != "" || n.PaymasterV07 != "" || n.BundlerURLV07 != "" || n.TokenPaymasterV07 != "") {
		errs = append(errs, errors.New("account_factory_v07, paymaster_v07, token_paymaster_v07 and bundler_url_v07 need entry_point_v07"))
	}
	if n.EntryPointV07 != "" && n.Network != NetworkDevnet && (n.AccountFactoryV07 == "" || n.PaymasterV07 == "") {
		errs = append(errs, errors.New("entry_point_v07 needs account_factory_v07 and paymaster_v07 outside the devnet"))
	}
	if n.Confirmations < 0 || n.Confirmations > facilitator.ReorgDepth {
		errs = append(errs, fmt.Errorf("confirmations %d: want 0 to %d", n.Confirmations, facilitator.ReorgDepth))
	}
	if n.WalletGas < 0 || n.WalletGas > maxWalletGas {
		errs = append(errs, fmt.Errorf("wallet_gas %d: want up to %d", n.WalletGas, maxWalletGas))
	}
	if n.WalletReverts < 0 || n.WalletReverts > 100_000 {
		errs = append(errs, fmt.Errorf("wallet_reverts %d: want 1 to 100000 (0 for the default, 20)", n.WalletReverts))
	}
	return errors.Join(errs...)
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

// hold registers a pooled service that a handler of this config holds, to
// be started with the app. Two handlers of one config that hold the same
// service must ask for the same tunables.
func (a *App) hold(what string, svc, tunables any, start func() error) error {
	for _, h := range a.services {
		if h.svc != svc {
			continue
		}
		if changed := changedOptions(h.tunables, tunables); len(changed) > 0 {
			return fmt.Errorf("two %s handlers of this config share one service but not its options (%s); give them the same", what, strings.Join(changed, ", "))
		}
		return nil
	}
	a.services = append(a.services, heldService{svc: svc, tunables: tunables, start: start})
	return nil
}

// Start opens each network's shared chain and facilitator, and the
// handlers' services, if an earlier config has not, and puts this
// config's tunables in force in them.
func (a *App) Start() error {
	if a.ledgerBounds != nil {
		a.ledgerBounds()
	}
	for i, c := range a.chains {
		err := c.start(a.tunablesOf(i), a.log)
		if err == nil {
			if err := c.checkTokens(); err != nil {
				return err // a wrong configuration, on any network
			}
		}
		if err != nil && unreachable(err) && !c.opened.Load() {
			// The chain does not answer (an open chain's new rpc that
			// does not is a reload's error): Caddy starts without it, as a
			// sidecar must (its free routes serve), the network's
			// payments answer 503, and it is opened again in the
			// background until it starts or this config is unloaded.
			// The primary network's services start with it.
			a.log.Warn("a network's chain does not answer: its paid routes answer 503 with Retry-After (JSON, payers are not charged) until it does; retrying",
				zap.String("network", c.plan.network), zap.String("rpc_host", cmp.Or(rpcHost(a.plans[i].rpc), "(none: the embedded devnet)")),
				zap.Duration("retry_every", networkRetry), zap.String("error", chainError(err)))
			a.retry(c, i)
			continue
		}
		if err != nil {
			return err
		}
	}
	if err := a.startMerchant(); err != nil {
		return err
	}
	if a.chain == nil {
		a.announce()
		return nil
	}
	if _, err := a.chain.running(); err != nil {
		a.startServices() // they fail at once, so their requests answer 503 until the retry starts them
		a.announce()
		return nil
	}
	for _, h := range a.services {
		if err := h.start(); err != nil {
			return err
		}
	}
	a.announce()
	return nil
}

// startServices starts the handlers' services, logging what fails.
func (a *App) startServices() {
	for _, h := range a.services {
		if err := h.start(); err != nil {
			a.log.Warn("a service did not start", zap.Error(err))
		}
	}
}

// unreachable reports whether err says that a chain's RPC did not answer
// (refused, reset, timed out, a name that does not resolve), rather than
// that the configuration is wrong (another chain id, a store of another
// network), which no retry mends.
func unreachable(err error) bool {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.As(err, &opErr) || errors.As(err, &dnsErr) || (errors.As(err, &netErr) && netErr.Timeout()) ||
		errors.Is(err, context.DeadlineExceeded) || errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET)
}

// networkRetry is how often a network that did not start is tried again.
var networkRetry = 5 * time.Second

// networkRetryLog is how often, at most, a network still down is logged
// again while it is retried.
const networkRetryLog = time.Minute

// rpcHost is the host name of an RPC URL, for logs and the dashboard: its
// path and query may hold the provider's key. An IPC
// socket's path is given whole; "" when there is no host (the embedded
// devnet's empty rpc).
func rpcHost(rpc string) string {
	if strings.HasPrefix(rpc, "/") {
		return rpc
	}
	u, err := url.Parse(rpc)
	if err != nil || u.Host == "" {
		return ""
	}
	return u.Hostname()
}

// chainError is err for a log line, without the placeholder URL a chain
// connection over HTTP is dialed with (rpcTarget), which says nothing.
func chainError(err error) string {
	return strings.ReplaceAll(err.Error(), fmt.Sprintf("Post %q: ", rpcPlaceholder), "")
}

// retrier runs the background starts of an app's networks.
type retrier struct {
	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
}

// retry opens c again every networkRetry until it starts or the config is
// cleaned up; then, for the primary network, the handlers' services.
func (a *App) retry(c *sharedChain, i int) {
	if a.retries == nil {
		ctx, stop := context.WithCancel(context.Background())
		a.retries = &retrier{ctx: ctx, stop: stop}
	}
	r := a.retries
	r.wg.Go(func() {
		t := time.NewTicker(networkRetry)
		defer t.Stop()
		since, logged, attempts := time.Now(), time.Now(), 0
		for {
			select {
			case <-r.ctx.Done():
				return
			case <-t.C:
			}
			// Only if no config started it meanwhile: a newer config's
			// tunables are not to be undone by this one's.
			started, err := c.startClosed(a.tunablesOf(i), a.log)
			if err != nil {
				attempts++
				if time.Since(logged) >= networkRetryLog {
					logged = time.Now()
					a.log.Warn("a network's chain still does not answer; its paid routes answer 503",
						zap.String("network", c.plan.network), zap.String("rpc_host", cmp.Or(rpcHost(a.plans[i].rpc), "(none: the embedded devnet)")),
						zap.Int("attempts", attempts), zap.Duration("down_for", time.Since(since).Round(time.Second)),
						zap.String("error", chainError(err)))
				}
				continue
			}
			if !started {
				return
			}
			a.log.Info("the network started", zap.String("network", c.plan.network), zap.Int("attempts", attempts+1),
				zap.Duration("down_for", time.Since(since).Round(time.Second)))
			if i == 0 {
				a.startServices()
			}
			return
		}
	})
}

// tunablesOf is what this config puts in force in its i-th chain.
func (a *App) tunablesOf(i int) chainTunables {
	t := a.tunables
	t.RPC, t.Assets = a.plans[i].rpc, a.plans[i].assets
	return t
}

// Stop leaves the shared resources running: Caddy stops its apps in no
// fixed order, so the http app may still be finishing requests that settle
// through them. The last Cleanup of a config that holds them closes them.
func (*App) Stop() error { return nil }

// Cleanup releases this config's holds on the shared chains and
// facilitators; the last holder closes them.
func (a *App) Cleanup() error {
	a.stopMerchant()
	if r := a.retries; r != nil {
		r.stop()
		r.wg.Wait()
	}
	errs := []error{release(&a.exposureHold)}
	for i := range a.chainKeys {
		errs = append(errs, release(&a.chainKeys[i]))
	}
	return errors.Join(errs...)
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

// facilitator is what verifies and settles for a route: the embedded
// service (of each network), or a remote one.
func (a *App) facilitator(url string) (facilitator.Facilitator, error) {
	if url == "" {
		url = a.FacilitatorURL
	}
	if url != "" {
		c := &facilitator.Client{BaseURL: url}
		if a.FacilitatorKey != "" {
			key, err := secret("facilitator_key", a.FacilitatorKey)
			if err != nil {
				return nil, err
			}
			c.APIKey = key
		}
		return c, nil
	}
	if a.chain == nil {
		return nil, errors.New("the x402 app has no embedded facilitator")
	}
	if a.router != nil {
		return a.ownFacilitator(a.router), nil
	}
	return a.ownFacilitator(a.chain), nil
}

// embeddedApp returns the x402 app for a handler that needs its embedded
// chain and store.
func embeddedApp(ctx caddy.Context, handler string) (*App, error) {
	appIface, err := ctx.App("x402")
	if err != nil {
		return nil, err
	}
	app := appIface.(*App)
	if app.chain == nil {
		return nil, fmt.Errorf("%s needs the x402 app's embedded chain and store (not facilitator_url)", handler)
	}
	return app, nil
}

// Interface guards.
var (
	_ caddy.App          = (*App)(nil)
	_ caddy.Provisioner  = (*App)(nil)
	_ caddy.Validator    = (*App)(nil)
	_ caddy.CleanerUpper = (*App)(nil)
)
