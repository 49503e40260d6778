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
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/x402"
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
// with `caddy x402 key`. Its counters are kept across config reloads.
type PaymasterHandler struct {
	// SignerKey is the VerifyingPaymaster's signer, an {env.*} or {file.*}
	// placeholder. On the devnet it defaults to the devnet's signer.
	SignerKey string `json:"signer_key,omitempty"`
	// EntryPoint is the ERC-4337 v0.6 EntryPoint; on the devnet it
	// defaults to the predeployed one. It may be an {env.*} or {file.*}
	// placeholder; a mixed-case address must carry a valid EIP-55 checksum.
	EntryPoint string `json:"entry_point,omitempty"`
	// Paymaster is the VerifyingPaymaster contract whose signer this is;
	// on the devnet it defaults to the predeployed one. Placeholders and
	// checksums as for EntryPoint.
	Paymaster string `json:"paymaster,omitempty"`
	// Projects are the sponsorship accounts and their limits.
	Projects []ProjectConfig `json:"projects,omitempty"`
	// DevKey, on the devnet only, is an API key for the first project with
	// both scopes; default DevPaymasterKey. It is held in memory, never
	// written to the store.
	DevKey string `json:"dev_key,omitempty"`
	// Validity is how long a sponsorship stays valid; default 10m.
	Validity caddy.Duration `json:"validity,omitempty"`

	svc     *paymaster.Service
	poolKey string
	access  accessLog
}

// ProjectConfig is a project in the config. Amounts of ETH are decimal
// strings such as "10" or "0.5"; fees are in gwei.
type ProjectConfig struct {
	// Name is the project's name, which its API keys belong to. Required.
	Name string `json:"name"`
	// Balance is the funded sponsorship balance in ETH. Required.
	Balance string `json:"balance"`
	// DailyGasCap in ETH; default the balance.
	DailyGasCap string `json:"daily_gas_cap,omitempty"`
	// TxPerMinute per sender; default 30.
	TxPerMinute int `json:"tx_per_minute,omitempty"`
	// MaxInFlight operations; default 50.
	MaxInFlight int `json:"max_in_flight,omitempty"`
	// MaxFeePerGas ceiling in gwei; default derived from the base fee.
	MaxFeePerGas string `json:"max_fee_per_gas,omitempty"`
}

// CaddyModule returns the Caddy module information.
func (*PaymasterHandler) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.handlers.x402_paymaster", New: func() caddy.Module { return new(PaymasterHandler) }}
}

type pooledPaymaster struct {
	svc *paymaster.Service
	rpc *rpc.Client
}

func (p *pooledPaymaster) Destruct() error {
	p.rpc.Close()
	return nil
}

// Provision starts, or reuses, the paymaster service.
func (h *PaymasterHandler) Provision(ctx caddy.Context) error {
	h.access = newAccessLog(ctx)
	app, err := embeddedApp(ctx, "x402_paymaster")
	if err != nil {
		return err
	}
	if h.SignerKey != "" && !isPlaceholder(h.SignerKey) {
		return errors.New("x402_paymaster: signer_key must be an {env.*} or {file.*} placeholder")
	}
	if len(h.Projects) == 0 {
		return errors.New("x402_paymaster: at least one project is required")
	}
	if err := expand(configValue{"x402_paymaster entry_point", &h.EntryPoint}, configValue{"x402_paymaster paymaster", &h.Paymaster}); err != nil {
		return err
	}
	for _, c := range []struct{ field, v string }{{"x402_paymaster entry_point", h.EntryPoint}, {"x402_paymaster paymaster", h.Paymaster}} {
		if c.v == "" {
			continue
		}
		if _, err := configAddress(c.field, c.v); err != nil {
			return err
		}
	}
	if h.DevKey != "" && app.shared.devnet == nil {
		return errors.New("x402_paymaster: dev_key is for the devnet only")
	}
	h.poolKey = app.poolKey("x402-paymaster", h)
	v, _, err := pool.LoadOrNew(h.poolKey, func() (caddy.Destructor, error) { return h.start(app, ctx.Logger()) })
	if err != nil {
		return err
	}
	h.svc = v.(*pooledPaymaster).svc
	return nil
}

func (h *PaymasterHandler) start(app *App, log *zap.Logger) (*pooledPaymaster, error) {
	d := app.shared.devnet
	entryPoint, pmAddr := h.EntryPoint, h.Paymaster
	var signer *ecdsa.PrivateKey
	if d != nil {
		signer = d.PaymasterSigner.Key
		if entryPoint == "" {
			entryPoint = d.Contracts.EntryPoint.Hex()
		}
		if pmAddr == "" {
			pmAddr = d.Contracts.Paymaster.Hex()
		}
	}
	if h.SignerKey != "" {
		raw := strings.TrimSpace(caddy.NewReplacer().ReplaceKnown(h.SignerKey, ""))
		key, err := crypto.HexToECDSA(strings.TrimPrefix(raw, "0x"))
		if err != nil {
			return nil, fmt.Errorf("x402_paymaster: signer_key %s is not a hex private key", h.SignerKey)
		}
		signer = key
	}
	if signer == nil || entryPoint == "" || pmAddr == "" {
		return nil, errors.New("x402_paymaster: signer_key, entry_point and paymaster are required outside the devnet")
	}
	projects := make([]paymaster.Project, len(h.Projects))
	for i, pc := range h.Projects {
		p, err := pc.project()
		if err != nil {
			return nil, err
		}
		projects[i] = p
	}
	bucket, err := app.shared.fac.Store().Bucket(paymasterKeysBucket)
	if err != nil {
		return nil, err
	}
	var keys paymaster.KeyStore = bucket
	if d != nil {
		// The dev key is public: it is answered from memory, never stored,
		// so it does not outlive the devnet in a store_path that later
		// serves a real chain.
		dev := h.DevKey
		if dev == "" {
			dev = DevPaymasterKey
		}
		if _, err := removeKeyRecord(bucket, dev); err != nil { // stored by earlier versions
			return nil, err
		}
		if keys, err = newDevKeyStore(bucket, dev, projects[0].Name, []string{paymaster.ScopeRead, paymaster.ScopeSponsor}); err != nil {
			return nil, err
		}
		log.Info("devnet paymaster key in memory", zap.String("project", projects[0].Name), zap.String("key_id", dev[:min(len(dev), 12)]))
	}
	client, err := rpc.Dial(app.shared.chainURL)
	if err != nil {
		return nil, err
	}
	id, err := x402.ParseNetwork(app.shared.network)
	if err != nil {
		client.Close()
		return nil, err
	}
	chainID := new(big.Int).SetUint64(id)
	svc, err := paymaster.New(paymaster.Config{
		ChainID: chainID, EntryPoint: common.HexToAddress(entryPoint), Paymaster: common.HexToAddress(pmAddr),
		Signer: signer, Chain: client, Keys: keys, Projects: projects,
		Validity: time.Duration(h.Validity), Logger: log,
	})
	if err != nil {
		client.Close()
		return nil, err
	}
	return &pooledPaymaster{svc: svc, rpc: client}, nil
}

func (pc ProjectConfig) project() (paymaster.Project, error) {
	p := paymaster.Project{Name: pc.Name, TxPerMinute: pc.TxPerMinute, MaxInFlight: pc.MaxInFlight}
	wei := func(field, v string, decimals uint8) (*big.Int, error) {
		s, err := paywall.ParsePrice(v, decimals)
		if err != nil {
			return nil, fmt.Errorf("x402_paymaster project %s %s: %w", pc.Name, field, err)
		}
		n, _ := new(big.Int).SetString(s, 10)
		return n, nil
	}
	var err error
	if pc.Balance == "" {
		return p, fmt.Errorf("x402_paymaster project %s: a balance (ETH) is required", pc.Name)
	}
	if p.Balance, err = wei("balance", pc.Balance, 18); err != nil {
		return p, err
	}
	if pc.DailyGasCap != "" {
		if p.DailyGasCap, err = wei("daily_gas_cap", pc.DailyGasCap, 18); err != nil {
			return p, err
		}
	}
	if pc.MaxFeePerGas != "" {
		if p.MaxFeePerGas, err = wei("max_fee_per_gas", pc.MaxFeePerGas, 9); err != nil {
			return p, err
		}
	}
	return p, nil
}

// ServeHTTP serves the paymaster. Requests are logged with their API key
// (X-API-Key, X-Paymaster-Api-Key) shown as REDACTED.
func (h *PaymasterHandler) ServeHTTP(w http.ResponseWriter, r *http.Request, _ caddyhttp.Handler) error {
	return h.access.serve(w, r, func(w http.ResponseWriter, r *http.Request) error {
		h.svc.ServeHTTP(w, r)
		return nil
	})
}

// Cleanup releases this config's hold on the pooled service.
func (h *PaymasterHandler) Cleanup() error {
	if h.poolKey == "" {
		return nil
	}
	_, err := pool.Delete(h.poolKey)
	return err
}

// Interface guards.
var (
	_ caddy.Provisioner           = (*PaymasterHandler)(nil)
	_ caddy.CleanerUpper          = (*PaymasterHandler)(nil)
	_ caddyhttp.MiddlewareHandler = (*PaymasterHandler)(nil)
)
