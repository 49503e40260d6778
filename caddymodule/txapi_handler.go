package caddymodule

import (
	"cmp"
	"crypto/ecdsa"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/txapi"
)

func init() {
	caddy.RegisterModule(new(TxAPIHandler))
}

// TxAPIHandler is http.handlers.x402_txapi: the /api/v1 endpoints
// (transactions, sendMessage, userFaucet, and transaction lookup), sending
// from a funded service wallet on the x402 app's chain. Its records and
// faucet times live in the x402 app's store.
//
// POST /transactions and /sendMessage spend the wallet: they need an API
// key with the txapi:send scope (made with `caddy x402 key create
// --scopes txapi:send`) in X-API-Key, within the key's rate and the daily
// budgets. The faucet is public, within its per-address, per-client and
// daily limits.
//
// The service is kept across config reloads for as long as its wallet
// stays the same; a reload puts new limits in force in it. The token needs
// a restart of Caddy.
type TxAPIHandler struct {
	// The hex private key of the service wallet, an {env.*} or {file.*}
	// placeholder. On the devnet it defaults to test account #9; elsewhere
	// it is required. It must not be the x402 app's settler_key.
	WalletKey string `json:"wallet_key,omitempty"`
	// The address of the token the faucet gives. Default: the x402 app's
	// first asset. It may be an {env.*} or {file.*} placeholder; a
	// mixed-case address must carry a valid EIP-55 checksum.
	Token string `json:"token,omitempty"`
	// The largest value of a transaction, in ETH. Default: 0.1.
	MaxValue string `json:"max_value,omitempty"`
	// The largest message, in bytes. Default: 1024.
	MaxMessage int `json:"max_message,omitempty"`
	// The most that one faucet request may draw, in whole tokens. Default:
	// 100.
	FaucetMaxAmount string `json:"faucet_max_amount,omitempty"`
	// The highest gas price at which the faucet sends, in gwei. Default:
	// 100.
	FaucetMaxGasPrice string `json:"faucet_max_gas_price,omitempty"`
	// The ETH that the faucet sends along for gas. Default: 0.01.
	FaucetNative string `json:"faucet_native,omitempty"`
	// How long one address waits between faucet requests. Default: 3h.
	FaucetCooldown caddy.Duration `json:"faucet_cooldown,omitempty"`
	// How many faucet requests one client address may make per
	// faucet_cooldown. Default: 3.
	FaucetPerClient int `json:"faucet_per_client,omitempty"`
	// How many faucet requests all callers together may make per UTC day.
	// Default: 100.
	FaucetDaily int `json:"faucet_daily,omitempty"`
	// How many requests one API key may make per minute. Default: 10.
	KeyRate int `json:"key_rate,omitempty"`
	// What one API key may make the wallet spend per UTC day, in ETH (value
	// plus gas). Default: 1.
	KeyDailyBudget string `json:"key_daily_budget,omitempty"`
	// What all API keys together may make the wallet spend per UTC day, in
	// ETH. Default: 5.
	DailyBudget string `json:"daily_budget,omitempty"`

	service  serviceHandler[*txapi.Service, txapiTunables]
	wallet   common.Address // resolved, for Validate
	settler  common.Address // the x402 app's, for Validate
	devnet   bool           // whether the x402 app runs the devnet, for Validate
	decimals uint8          // the faucet token's; 0 for the default, 6
}

// CaddyModule returns the Caddy module information.
func (*TxAPIHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_txapi", New: func() caddy.Module { return new(TxAPIHandler) }}
}

// DevTxAPIKey is the /api/v1 key the devnet demo accepts, with the
// txapi:send scope. It is public, known only to a devnet's txapi, and never
// written to a store.
const DevTxAPIKey = "txk_devnet_demo_key_public_do_not_use_elsewhere"

// txapiFixed are the options of x402_txapi that a reload cannot change in
// the running service.
type txapiFixed struct {
	// Token is TxAPIHandler.Token with its default, checksummed.
	Token string `json:"token"`
}

// txapiTunables are the options of x402_txapi that a reload puts in force
// in the running service: all but wallet_key (its identity) and token.
type txapiTunables struct{ h *TxAPIHandler }

// MarshalJSON is the handler's JSON without wallet_key and token, for
// changedOptions.
func (t txapiTunables) MarshalJSON() ([]byte, error) {
	c := *t.h
	c.WalletKey, c.Token = "", ""
	return json.Marshal(&c)
}

// apply puts t in force in the running service.
func (t txapiTunables) apply(svc *txapi.Service, _ txapiTunables) error {
	cfg, err := t.limits()
	if err != nil {
		return err
	}
	return svc.SetLimits(cfg)
}

// limits is a txapi.Config with the limits of t.
func (t txapiTunables) limits() (txapi.Config, error) {
	h := t.h
	cfg := txapi.Config{
		MaxMessage: h.MaxMessage, FaucetCooldown: time.Duration(h.FaucetCooldown),
		FaucetPerClient: h.FaucetPerClient, FaucetDaily: h.FaucetDaily, KeyRate: h.KeyRate,
	}
	var err error
	for _, a := range []struct {
		dst      **big.Int
		field, v string
		decimals uint8
	}{
		{&cfg.MaxValue, "max_value", h.MaxValue, 18},
		{&cfg.KeyDailyBudget, "key_daily_budget", h.KeyDailyBudget, 18},
		{&cfg.DailyBudget, "daily_budget", h.DailyBudget, 18},
		{&cfg.FaucetMaxAmount, "faucet_max_amount", h.FaucetMaxAmount, cmp.Or(h.decimals, 6)},
		{&cfg.FaucetMaxGasPrice, "faucet_max_gas_price", h.FaucetMaxGasPrice, 9},
		{&cfg.FaucetNative, "faucet_native", h.FaucetNative, 18},
	} {
		if *a.dst, err = units("x402_txapi "+a.field, a.v, a.decimals); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// Provision takes a hold on the service of the wallet, which the x402 app
// starts.
func (h *TxAPIHandler) Provision(ctx caddy.Context) error {
	app, err := embeddedApp(ctx, "x402_txapi")
	if err != nil {
		return err
	}
	h.devnet = app.chain.plan.devnet
	h.settler = crypto.PubkeyToAddress(app.chain.plan.settler.PublicKey)
	if err := expand(configValue{"x402_txapi token", &h.Token}); err != nil {
		return err
	}
	var wallet *ecdsa.PrivateKey
	switch {
	case h.WalletKey != "" && isPlaceholder(h.WalletKey):
		if wallet, err = secretKey("x402_txapi wallet_key", h.WalletKey); err != nil {
			return err
		}
	case h.WalletKey == "" && h.devnet:
		if wallet, err = wellknown.DeriveKey(wellknown.TestMnemonic, 9); err != nil {
			return err
		}
	}
	if wallet != nil {
		h.wallet = crypto.PubkeyToAddress(wallet.PublicKey)
	}
	// The faucet's token: the app's first asset, or the named one.
	token := h.Token
	for _, a := range app.assets() {
		if token == "" || strings.EqualFold(a.Address, token) {
			token, h.decimals = a.Address, a.Decimals
			break
		}
	}
	if err := h.Validate(); err != nil {
		return err
	}
	key := strings.Join([]string{"x402_txapi", app.chainKeys[0], h.wallet.Hex()}, "|")
	cfg := txapi.Config{
		Token: common.HexToAddress(token), TokenDecimals: cmp.Or(h.decimals, 6),
		ClientIP: clientIP, Logger: ctx.Logger(),
	}
	chainID := app.chain.plan.chainID()
	return h.service.provision(ctx, app, "x402_txapi", key, txapiFixed{Token: cfg.Token.Hex()}, txapiTunables{h}, func(run *chainRun, t txapiTunables) (*txapi.Service, func() error, error) {
		return openTxAPI(run, cfg, wallet, chainID, t)
	})
}

// Validate checks the configuration. It has no side effects.
func (h *TxAPIHandler) Validate() error {
	errs := []error{
		checkSecrets(configValue{"x402_txapi wallet_key", &h.WalletKey}),
		checkAddresses(configValue{"x402_txapi token", &h.Token}),
	}
	if h.WalletKey == "" && !h.devnet {
		errs = append(errs, errors.New("x402_txapi: wallet_key is required outside the devnet"))
	}
	if h.wallet != (common.Address{}) && h.wallet == h.settler {
		errs = append(errs, errors.New("x402_txapi: the wallet must not be the settler key; their nonces would collide"))
	}
	if h.MaxMessage < 0 || h.FaucetCooldown < 0 || h.FaucetPerClient < 0 || h.FaucetDaily < 0 || h.KeyRate < 0 {
		errs = append(errs, errors.New("x402_txapi: limits must not be negative"))
	}
	if _, err := (txapiTunables{h}).limits(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// openTxAPI opens the service on the running chain: cfg with its chain,
// store, keys and limits, sending from wallet through a Sender of its own.
// In a fleet (a store with a journal) the Sender shares the wallet's nonces
// with the other replicas through the store's journal. Closing the service
// closes the Sender.
func openTxAPI(run *chainRun, cfg txapi.Config, wallet *ecdsa.PrivateKey, chainID *big.Int, t txapiTunables) (*txapi.Service, func() error, error) {
	limits, err := t.limits()
	if err != nil {
		return nil, nil, err
	}
	cfg.MaxValue, cfg.MaxMessage, cfg.KeyDailyBudget, cfg.DailyBudget = limits.MaxValue, limits.MaxMessage, limits.KeyDailyBudget, limits.DailyBudget
	cfg.FaucetMaxAmount, cfg.FaucetMaxGasPrice, cfg.FaucetNative = limits.FaucetMaxAmount, limits.FaucetMaxGasPrice, limits.FaucetNative
	cfg.FaucetCooldown, cfg.FaucetPerClient, cfg.FaucetDaily, cfg.KeyRate = limits.FaucetCooldown, limits.FaucetPerClient, limits.FaucetDaily, limits.KeyRate
	devnetOn := run.devnet != nil
	cfg.Authorize = func(secret string) (string, error) {
		if devnetOn && secret == DevTxAPIKey {
			return "devnet", nil // in memory only, never stored
		}
		k, err := run.keys.Authorize(secret, paymaster.ScopeTxAPI)
		if errors.Is(err, paymaster.ErrScope) {
			return "", fmt.Errorf("%w: %w", txapi.ErrForbidden, err)
		}
		if err != nil {
			return "", err
		}
		return k.ID, nil
	}
	eth := ethclient.NewClient(run.chain)
	sc := sender.Config{Backend: eth, Batcher: run.chain, Key: wallet, ChainID: chainID, Logger: cfg.Logger}
	if j, ok := run.store.(store.Journal); ok {
		sc.Journal = j // a fleet: the replicas share the wallet
	}
	snd, err := sender.New(sc)
	if err != nil {
		return nil, nil, fmt.Errorf("x402_txapi: %w", err)
	}
	cfg.Chain, cfg.Sender, cfg.Store = eth, snd, run.store
	svc, err := txapi.New(cfg)
	if err != nil {
		snd.Close()
		return nil, nil, err
	}
	return svc, snd.Close, nil
}

// ServeHTTP serves /api/v1. Requests are logged with their API key
// (X-API-Key) shown as REDACTED.
func (h *TxAPIHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, _ caddyhttp.Handler) error {
	return h.service.serve(w, r)
}

// Cleanup releases this config's hold on the pooled service.
func (h *TxAPIHandler) Cleanup() error { return h.service.cleanup() }

// Interface guards.
var (
	_ caddy.Provisioner           = (*TxAPIHandler)(nil)
	_ caddy.Validator             = (*TxAPIHandler)(nil)
	_ caddy.CleanerUpper          = (*TxAPIHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*TxAPIHandler)(nil)
)
