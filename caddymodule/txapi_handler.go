package caddymodule

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/caddy/v2/caddyconfig/httpcaddyfile"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/txapi"
	"github.com/caddy-x402/caddy-x402/x402"
)

func init() {
	caddy.RegisterModule(new(TxAPIHandler))
	httpcaddyfile.RegisterHandlerDirective("x402_txapi", parseTxAPI)
	httpcaddyfile.RegisterDirectiveOrder("x402_txapi", httpcaddyfile.Before, "respond")
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
type TxAPIHandler struct {
	// WalletKey is the service wallet, an {env.*} or {file.*} placeholder.
	// On the devnet it defaults to test account #9. It must not be the
	// settler key.
	WalletKey string `json:"wallet_key,omitempty"`
	// Token is the faucet's token; default the x402 app's first asset. It
	// may be an {env.*} or {file.*} placeholder; a mixed-case address must
	// carry a valid EIP-55 checksum.
	Token string `json:"token,omitempty"`
	// MaxValue is the largest transaction value in ETH; default 0.1.
	MaxValue string `json:"max_value,omitempty"`
	// MaxMessage is the largest message in bytes; default 1024.
	MaxMessage int `json:"max_message,omitempty"`
	// FaucetMaxAmount in whole tokens; default 100.
	FaucetMaxAmount string `json:"faucet_max_amount,omitempty"`
	// FaucetMaxGasPrice in gwei; default 100.
	FaucetMaxGasPrice string `json:"faucet_max_gas_price,omitempty"`
	// FaucetNative is the ETH sent along for gas; default 0.01.
	FaucetNative string `json:"faucet_native,omitempty"`
	// FaucetCooldown between requests per address; default 3h.
	FaucetCooldown caddy.Duration `json:"faucet_cooldown,omitempty"`
	// FaucetPerClient is the faucet requests one client address may make
	// per faucet_cooldown; default 3.
	FaucetPerClient int `json:"faucet_per_client,omitempty"`
	// FaucetDaily is the faucet requests of all callers per UTC day;
	// default 100.
	FaucetDaily int `json:"faucet_daily,omitempty"`
	// KeyRate is the requests one API key may make per minute; default 10.
	KeyRate int `json:"key_rate,omitempty"`
	// KeyDailyBudget is what one key may make the wallet spend per UTC
	// day, in ETH (value plus gas); default 1.
	KeyDailyBudget string `json:"key_daily_budget,omitempty"`
	// DailyBudget is the same for all keys together, in ETH; default 5.
	DailyBudget string `json:"daily_budget,omitempty"`

	svc     *txapi.Service
	poolKey string
	access  accessLog
}

// CaddyModule returns the Caddy module information.
func (*TxAPIHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_txapi", New: func() caddy.Module { return new(TxAPIHandler) }}
}

// DevTxAPIKey is the /api/v1 key the devnet demo accepts, with the
// txapi:send scope. It is public, known only to a devnet's txapi, and never
// written to a store.
const DevTxAPIKey = "txk_devnet_demo_key_public_do_not_use_elsewhere"

type pooledTxAPI struct {
	svc *txapi.Service
	eth *ethclient.Client
}

func (p *pooledTxAPI) Destruct() error {
	p.eth.Close()
	return nil
}

// Provision starts, or reuses, the service.
func (h *TxAPIHandler) Provision(ctx caddy.Context) error {
	h.access = newAccessLog(ctx)
	app, err := embeddedApp(ctx, "x402_txapi")
	if err != nil {
		return err
	}
	if h.WalletKey != "" && !isPlaceholder(h.WalletKey) {
		return errors.New("x402_txapi: wallet_key must be an {env.*} or {file.*} placeholder")
	}
	if err := expand(configValue{"x402_txapi token", &h.Token}); err != nil {
		return err
	}
	if h.Token != "" {
		if _, err := configAddress("x402_txapi token", h.Token); err != nil {
			return err
		}
	}
	h.poolKey = app.poolKey("x402-txapi", h)
	v, _, err := pool.LoadOrNew(h.poolKey, func() (caddy.Destructor, error) { return h.start(app) })
	if err != nil {
		return err
	}
	h.svc = v.(*pooledTxAPI).svc
	return nil
}

func (h *TxAPIHandler) start(app *App) (*pooledTxAPI, error) {
	var wallet *ecdsa.PrivateKey
	if h.WalletKey != "" {
		key, err := crypto.HexToECDSA(strings.TrimPrefix(strings.TrimSpace(caddy.NewReplacer().ReplaceKnown(h.WalletKey, "")), "0x"))
		if err != nil {
			return nil, fmt.Errorf("x402_txapi: wallet_key %s is not a hex private key", h.WalletKey)
		}
		wallet = key
	} else if app.shared.devnet != nil {
		wallet = app.shared.devnet.Accounts[9].Key
	} else {
		return nil, errors.New("x402_txapi: wallet_key is required outside the devnet")
	}
	if crypto.PubkeyToAddress(wallet.PublicKey) == app.shared.settler {
		return nil, errors.New("x402_txapi: the wallet must not be the settler key; their nonces would collide")
	}
	assets := app.assets()
	token, decimals := h.Token, uint8(6)
	for _, a := range assets {
		if token == "" || strings.EqualFold(a.Address, token) {
			token = a.Address
			if a.Decimals != 0 {
				decimals = a.Decimals
			}
			break
		}
	}
	if !common.IsHexAddress(token) {
		return nil, errors.New("x402_txapi: a token is required")
	}
	amount := func(field, v string, d uint8) (*big.Int, error) {
		if v == "" {
			return nil, nil
		}
		s, err := paywall.ParsePrice(v, d)
		if err != nil {
			return nil, fmt.Errorf("x402_txapi %s: %w", field, err)
		}
		n, _ := new(big.Int).SetString(s, 10)
		return n, nil
	}
	keysBucket, err := app.shared.fac.Store().Bucket("paymaster_keys")
	if err != nil {
		return nil, err
	}
	keys := &paymaster.Keys{Store: keysBucket}
	devnet := app.shared.devnet != nil
	cfg := txapi.Config{
		Wallet: wallet, Store: app.shared.fac.Store(), Token: common.HexToAddress(token), TokenDecimals: decimals,
		MaxMessage: h.MaxMessage, FaucetCooldown: time.Duration(h.FaucetCooldown),
		FaucetPerClient: h.FaucetPerClient, FaucetDaily: h.FaucetDaily, KeyRate: h.KeyRate, ClientIP: clientIP,
		Authorize: func(secret string) (string, error) {
			if devnet && secret == DevTxAPIKey {
				return "devnet", nil // in memory only, never stored
			}
			k, err := keys.Authorize(secret, paymaster.ScopeTxAPI)
			if errors.Is(err, paymaster.ErrScope) {
				return "", fmt.Errorf("%w: %w", txapi.ErrForbidden, err)
			}
			if err != nil {
				return "", err
			}
			return k.ID, nil
		},
	}
	if cfg.MaxValue, err = amount("max_value", h.MaxValue, 18); err != nil {
		return nil, err
	}
	if cfg.KeyDailyBudget, err = amount("key_daily_budget", h.KeyDailyBudget, 18); err != nil {
		return nil, err
	}
	if cfg.DailyBudget, err = amount("daily_budget", h.DailyBudget, 18); err != nil {
		return nil, err
	}
	if cfg.FaucetMaxAmount, err = amount("faucet_max_amount", h.FaucetMaxAmount, decimals); err != nil {
		return nil, err
	}
	if cfg.FaucetMaxGasPrice, err = amount("faucet_max_gas_price", h.FaucetMaxGasPrice, 9); err != nil {
		return nil, err
	}
	if cfg.FaucetNative, err = amount("faucet_native", h.FaucetNative, 18); err != nil {
		return nil, err
	}
	eth, err := ethclient.Dial(app.shared.chainURL)
	if err != nil {
		return nil, err
	}
	id, err := x402.ParseNetwork(app.shared.network)
	if err != nil {
		eth.Close()
		return nil, err
	}
	cfg.Chain, cfg.ChainID = eth, new(big.Int).SetUint64(id)
	svc, err := txapi.New(cfg)
	if err != nil {
		eth.Close()
		return nil, err
	}
	return &pooledTxAPI{svc: svc, eth: eth}, nil
}

// ServeHTTP serves /api/v1. Requests are logged with their API key
// (X-API-Key) shown as REDACTED.
func (h *TxAPIHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, _ caddyhttp.Handler) error {
	return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		h.svc.ServeHTTP(w, r)
		return nil
	})
}

// Cleanup releases this config's hold on the pooled service.
func (h *TxAPIHandler) Cleanup() error {
	if h.poolKey == "" {
		return nil
	}
	_, err := pool.Delete(h.poolKey)
	return err
}

func parseTxAPI(h httpcaddyfile.Helper) (caddyhttp.MiddlewareHandler, error) {
	m := new(TxAPIHandler)
	err := m.UnmarshalCaddyfile(h.Dispenser)
	return m, err
}

// UnmarshalCaddyfile sets up the API from Caddyfile tokens:
//
//	x402_txapi {
//		wallet_key           {env.NAME} | {file.PATH}
//		token                <address>
//		max_value            <ETH>
//		max_message          <bytes>
//		faucet_max_amount    <tokens>
//		faucet_max_gas_price <gwei>
//		faucet_native        <ETH>
//		faucet_cooldown      <duration>
//		faucet_per_client    <n>
//		faucet_daily         <n>
//		key_rate             <n per minute>
//		key_daily_budget     <ETH>
//		daily_budget         <ETH>
//	}
func (h *TxAPIHandler) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next()
	if d.NextArg() {
		return d.ArgErr()
	}
	for d.NextBlock(0) {
		var err error
		switch opt := d.Val(); opt {
		case "wallet_key":
			err = oneArg(d, &h.WalletKey)
		case "token":
			err = oneArg(d, &h.Token)
		case "max_value":
			err = oneArg(d, &h.MaxValue)
		case "faucet_max_amount":
			err = oneArg(d, &h.FaucetMaxAmount)
		case "faucet_max_gas_price":
			err = oneArg(d, &h.FaucetMaxGasPrice)
		case "faucet_native":
			err = oneArg(d, &h.FaucetNative)
		case "max_message":
			var v string
			if err = oneArg(d, &v); err == nil {
				if _, scanErr := fmt.Sscanf(v, "%d", &h.MaxMessage); scanErr != nil || h.MaxMessage <= 0 {
					return d.Errf("max_message %q: want a positive number of bytes", v)
				}
			}
		case "faucet_cooldown":
			err = durationArg(d, &h.FaucetCooldown)
		case "faucet_per_client":
			err = countArg(d, &h.FaucetPerClient)
		case "faucet_daily":
			err = countArg(d, &h.FaucetDaily)
		case "key_rate":
			err = countArg(d, &h.KeyRate)
		case "key_daily_budget":
			err = oneArg(d, &h.KeyDailyBudget)
		case "daily_budget":
			err = oneArg(d, &h.DailyBudget)
		default:
			return d.Errf("unknown x402_txapi option %q", opt)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*TxAPIHandler)(nil)
	_ caddy.CleanerUpper          = (*TxAPIHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*TxAPIHandler)(nil)
	_ caddyfile.Unmarshaler       = (*TxAPIHandler)(nil)
)
