package caddymodule

import (
	"cmp"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/tokens"
	"github.com/caddy-x402/caddy-x402/x402"
)

// configValue names a string option of the config, for expand.
type configValue struct {
	field string
	v     *string
}

// expand resolves the {env.*} and {file.*} placeholders of config values in
// place, at provision time, as Caddy's own modules resolve theirs: so that
// `rpc {env.X402_RPC_URL}` dials the URL in the environment, and a
// Kubernetes ConfigMap can take the payout address from a variable. A
// placeholder that is unset, empty or unknown at provision time is an error
// naming the field; the value is trimmed of surrounding white space, as a
// mounted file's often ends in a newline. Secrets are not resolved here:
// they stay placeholders in the config and are read where they are used.
func expand(vals ...configValue) error {
	repl := caddy.NewReplacer()
	var errs []error
	for _, c := range vals {
		if !strings.Contains(*c.v, "{") {
			continue
		}
		out, err := repl.ReplaceOrErr(*c.v, true, true)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", c.field, *c.v, err))
			continue
		}
		*c.v = strings.TrimSpace(out)
	}
	return errors.Join(errs...)
}

// configAddress parses an address of the config: 0x and 40 hex digits. A
// mixed-case address must carry a valid EIP-55 checksum, so that a typo in
// a payout or contract address is refused, with the correct form suggested,
// rather than used; an all-lowercase or all-uppercase one carries no
// checksum and is taken as it is. This is the rule txapi applies to the
// addresses it is sent.
func configAddress(field, s string) (common.Address, error) {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") || !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("%s %q: want 0x and 40 hex digits", field, s)
	}
	a := common.HexToAddress(s)
	if body := s[2:]; body != strings.ToLower(body) && body != strings.ToUpper(body) && a.Hex() != s {
		return common.Address{}, fmt.Errorf("%s %q fails its EIP-55 checksum (did you mean %s?)", field, s, a.Hex())
	}
	return a, nil
}

// checkAddresses checks the addresses of the config that are set (see
// configAddress).
func checkAddresses(vals ...configValue) error {
	var errs []error
	for _, c := range vals {
		if *c.v == "" {
			continue
		}
		if _, err := configAddress(c.field, *c.v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// isPlaceholder reports whether s is an {env.*} or {file.*} placeholder,
// the only form a secret of the config may take.
func isPlaceholder(s string) bool {
	return strings.HasPrefix(s, "{env.") || strings.HasPrefix(s, "{file.")
}

// checkSecrets refuses a secret option that is set to anything but an
// {env.*} or {file.*} placeholder: the config, with its literal values,
// is shown by the admin API and may be logged. The errors name the
// option, never its value.
func checkSecrets(vals ...configValue) error {
	var errs []error
	for _, c := range vals {
		if *c.v != "" && !isPlaceholder(*c.v) {
			errs = append(errs, fmt.Errorf("%s must be an {env.*} or {file.*} placeholder, so that the secret stays out of the config and the admin API", c.field))
		}
	}
	return errors.Join(errs...)
}

// secret resolves the placeholder of a secret option, trimmed of
// surrounding white space. Errors name the option and its placeholder,
// never the value.
func secret(field, placeholder string) (string, error) {
	v, err := caddy.NewReplacer().ReplaceOrErr(placeholder, true, true)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", field, placeholder, err)
	}
	if v = strings.TrimSpace(v); v == "" {
		return "", fmt.Errorf("%s %s is empty", field, placeholder)
	}
	return v, nil
}

// secretKey resolves the placeholder of a private key option: 64 hex
// digits, with or without 0x.
func secretKey(field, placeholder string) (*ecdsa.PrivateKey, error) {
	raw, err := secret(field, placeholder)
	if err != nil {
		return nil, err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(raw, "0x"))
	if err != nil {
		return nil, fmt.Errorf("%s %s is not a hex secp256k1 private key", field, placeholder)
	}
	return key, nil
}

// units converts an amount of the config in whole units, such as "0.5"
// ETH or "100" tokens, to atomic units with decimals. An empty value is
// nil, which the plain packages take as their default.
func units(field, v string, decimals uint8) (*big.Int, error) {
	if v == "" {
		return nil, nil
	}
	s, err := paywall.ParsePrice(v, decimals)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	n, _ := new(big.Int).SetString(s, 10)
	return n, nil
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

// BatchSettlementConfig configures a network's payment channels.
type BatchSettlementConfig struct {
	// The receiver authorizer's private key, which signs the claims and
	// refunds of the channels (hex, from a placeholder such as
	// {env.X402_RECEIVER_AUTHORIZER_KEY} or {file.…}; never logged). Its
	// address is the offers' extra.receiverAuthorizer. On the devnet it
	// defaults to the test mnemonic's key 12; elsewhere it is required.
	ReceiverAuthorizerKey string `json:"receiver_authorizer_key,omitempty"`
	// How long a payer's timed withdrawal takes, which bounds how long a
	// served voucher may stay unclaimed: 15 minutes to 30 days. Default:
	// 1 day.
	WithdrawDelay caddy.Duration `json:"withdraw_delay,omitempty"`
	// The x402BatchSettlement contract; default its canonical address
	// (upstream's audited deployment on a real chain, ours on the
	// devnet), which is checked at start.
	Settlement string `json:"settlement,omitempty"`
	// Claims: every claim_every, every channel with something unclaimed
	// is claimed and swept (default 1 hour; 0 turns the periodic claim
	// off); and as soon as the unclaimed total of a token is above
	// claim_above (whole units of the token, such as "5.00"; unset: no
	// threshold). A channel whose payer starts a timed withdrawal is
	// always claimed at once.
	ClaimEvery *caddy.Duration `json:"claim_every,omitempty"`
	ClaimAbove string          `json:"claim_above,omitempty"`
	// The least a deposit may move, in whole units of the token (such as
	// "0.10"), announced in every offer's extra.minDeposit and enforced: a
	// deposit costs the facilitator a transaction (about 110,000 gas), so
	// it must buy many requests. Default: ten times the route's price; never
	// below the price.
	MinDeposit string `json:"min_deposit,omitempty"`
	// The deposits and cooperative refunds the facilitator sends on
	// payers' behalf, whose gas the merchant pays, in each
	// sponsored_window (default 24 hours): at most sponsored_per_payer for
	// one payer (default 12) and sponsored_total for all (default 1,000),
	// across a fleet sharing the store. Past them a deposit or refund is
	// answered 429 with Retry-After, before anything is sent; vouchers
	// are never counted.
	SponsoredPerPayer int            `json:"sponsored_per_payer,omitempty"`
	SponsoredTotal    int            `json:"sponsored_total,omitempty"`
	SponsoredWindow   caddy.Duration `json:"sponsored_window,omitempty"`
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
	// Payment channels (the batch-settlement scheme): routes that list it
	// in their schemes take a deposit once and a signed voucher per
	// request, charged off chain and claimed later, many channels in one
	// transaction. Off by default (unset); needs the embedded
	// facilitator. See docs/batch-settlement.md.
	BatchSettlement *BatchSettlementConfig `json:"batch_settlement,omitempty"`
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
	// The ERC-4337 EntryPoints of the aa-native scheme, of any versions,
	// each with its contracts: a route that offers aa-native offers it
	// once per EntryPoint, the first's offer without an entryPointVersion
	// (payers read it as v0.6), the others' with theirs. On the devnet,
	// v0.6 is always on (first, unless listed elsewhere), with the
	// predeployed contracts. aa-native is off unless the first EntryPoint
	// and settlement are known; a later EntryPoint missing a contract
	// outside the devnet is refused. The per-version options below are
	// aliases that load into this list: entry_point, account_factory,
	// paymaster and token_paymaster are v0.6's, the _v07 ones v0.7's.
	// A mixed-case address must carry a valid EIP-55 checksum, as every
	// address of the config must.
	EntryPoints []EntryPointConfig `json:"entry_points,omitempty"`
	// Alias of entry_points' v0.6 address.
	EntryPoint string `json:"entry_point,omitempty"`
	// Alias of entry_points' v0.6 account_factory.
	AccountFactory string `json:"account_factory,omitempty"`
	// The X402Settlement contract that aa-native payments call. On the
	// devnet it defaults to the predeployed one.
	Settlement string `json:"settlement,omitempty"`
	// Alias of entry_points' v0.6 paymaster.
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
	// The network's external ERC-4337 bundler (ERC-7769). At start it is
	// asked which EntryPoints it serves (eth_supportedEntryPoints): it
	// takes the operations of every EntryPoint it lists that has no
	// bundler_url of its own; the built-in bundler takes the rest. One
	// that would submit nothing stops Caddy, naming its host and what it
	// serves; one that does not answer (unreachable, or without the
	// method) is taken to serve the first EntryPoint, with a warning.
	// Unset by default: the built-in bundler submits them all.
	BundlerURL string `json:"bundler_url,omitempty"`
	// Aliases of entry_points' v0.7 address, account_factory, paymaster,
	// bundler_url and token_paymaster.
	EntryPointV07     string `json:"entry_point_v07,omitempty"`
	AccountFactoryV07 string `json:"account_factory_v07,omitempty"`
	PaymasterV07      string `json:"paymaster_v07,omitempty"`
	BundlerURLV07     string `json:"bundler_url_v07,omitempty"`
	TokenPaymasterV07 string `json:"token_paymaster_v07,omitempty"`
	// Alias of entry_points' v0.6 token_paymaster. It must be the
	// token_paymaster of the x402_paymaster that paymaster_url reaches.
	TokenPaymaster string `json:"token_paymaster,omitempty"`
}

// EntryPointConfig is one ERC-4337 EntryPoint: of a network's aa-native
// scheme (entry_points), or of x402_paymaster. On the devnet, where every
// version is predeployed, an empty address or contract is the devnet's.
type EntryPointConfig struct {
	// The version, one package entrypoint knows, such as "0.7" ("v0.7"
	// reads as "0.7"). Default: "0.6".
	Version string `json:"version,omitempty"`
	// The EntryPoint's address; required outside the devnet.
	Address string `json:"address,omitempty"`
	// The SimpleAccountFactory of aa-native payers on this EntryPoint
	// (aa-native only); required outside the devnet.
	AccountFactory string `json:"account_factory,omitempty"`
	// The VerifyingPaymaster that sponsors gas on this EntryPoint (its
	// signer is the paymaster's); required outside the devnet.
	Paymaster string `json:"paymaster,omitempty"`
	// The token paymaster (gas paid by the payer in an ERC-20,
	// sponsorship types 1 and 2) of this EntryPoint; unset serves free
	// gas only, but on the devnet, where it is the predeployed one.
	TokenPaymaster string `json:"token_paymaster,omitempty"`
	// This EntryPoint's own external bundler (ERC-7769), ahead of the
	// network's bundler_url; one whose eth_supportedEntryPoints does not
	// list this EntryPoint stops Caddy at start (aa-native only).
	BundlerURL string `json:"bundler_url,omitempty"`
	// The account code (such as v0.8's Simple7702Account) that an EOA
	// may delegate to with EIP-7702 and pay from, on a version that takes
	// EIP-7702 senders; unset refuses them, but on the devnet, where it is
	// the predeployed one (aa-native only).
	Delegate string `json:"eip7702_delegate,omitempty"`
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
		for i := range n.EntryPoints {
			for _, f := range n.EntryPoints[i].fields() {
				vals = append(vals, configValue{"x402 " + f.field, f.v})
			}
		}
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
		if eps, _ := n.entryPointList(); multi && i > 0 && (len(eps) > 0 || n.Settlement != "" || n.SponsorURL != "" || n.PaymasterURL != "" || n.BundlerURL != "") {
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
	eps, _ := n.entryPointList()
	return n.Network == "" && n.RPC == "" && n.DevnetAddr == "" && n.ChainID == 0 && n.SettlerKey == "" &&
		n.StorePath == "" && n.DatabaseSchema == "" && len(n.Assets) == 0 && n.Confirmations == 0 && n.Batch == nil && n.WalletGas == 0 && n.WalletReverts == 0 &&
		len(eps) == 0 && n.Settlement == "" && n.PaymasterURL == "" && n.PaymasterKey == "" && n.SponsorURL == "" && n.BundlerURL == ""
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
		if n.PaymasterURL != "" && n.PaymasterKey == "" && n.aaOn() {
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
		if as.Name == "" && !n.aaOn() {
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
	errs = append(errs, checkAddresses(configValue{"settlement", &n.Settlement}))
	errs = append(errs, n.checkEntryPoints()...)
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
