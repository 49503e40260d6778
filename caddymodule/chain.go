package caddymodule

import (
	"cmp"
	"context"
	"crypto/ecdsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/channels"
	"github.com/caddy-x402/caddy-x402/channels/claimer"
	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/paywall"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/store/postgres"
	"github.com/caddy-x402/caddy-x402/tokens"
	"github.com/caddy-x402/caddy-x402/x402"
)

// sharedChain is what the x402 app shares across config reloads: the chain
// connection and the embedded facilitator (and the devnet, if used), the
// offers of the paid routes and the guard on payments in use. It is kept
// in the usage pool under its identity: the network, the store and the
// settler, which must never run twice.
//
// It is also the facilitator of the paid routes and of x402_facilitator:
// each call waits until a config has started it.
type sharedChain struct {
	*pooled[*chainRun, chainTunables]
	plan   *chainPlan
	offers facilitator.OfferSet // what the paywall routes ask for
	guard  paywall.Guard        // payments in use, across every route
	payIDs chainPaymentIDs      // the payment-identifier index, in the store
	inUse  chainInUse           // upto payments in use, across a fleet (guard.Shared)
	kept   keptStore            // the store, kept open while the chain does not start
}

// Destruct closes the running chain, if it was opened, and the store
// kept open while it did not start, once the last config that holds it
// is cleaned up.
func (c *sharedChain) Destruct() error {
	err := c.pooled.Destruct()
	return errors.Join(err, c.kept.close())
}

// assetsInForce is the allowlist the running facilitator has, or the first
// config's before it started.
func (c *sharedChain) assetsInForce() []AssetConfig {
	if run, err := c.running(); err == nil {
		return *run.assets.Load()
	}
	return c.plan.assets
}

func newSharedChain(plan *chainPlan) *sharedChain {
	c := &sharedChain{pooled: newPooled[*chainRun, chainTunables]("the x402 facilitator", plan.fixed), plan: plan}
	c.payIDs.chain, c.inUse.chain = c, c
	c.guard.Shared = &c.inUse
	return c
}

// chainPlan is what the x402 app's configuration resolves to, known before
// anything runs.
type chainPlan struct {
	network   string // CAIP-2
	devnet    bool
	settler   *ecdsa.PrivateKey
	storePath string        // empty on the devnet (a temporary file) and with database
	rpc       string        // the RPC's URL; empty on the devnet (a tunable)
	assets    []AssetConfig // the allowlist, resolved (a tunable)
	database  string        // the PostgreSQL URL of a fleet's store, resolved; never shown
	schema    string        // its schema, or empty for the connection's search_path
	// aa is the aa-native configuration without its sponsor limits (a
	// tunable), or nil when aa-native is off.
	aa *facilitator.AANative
	// batch is the network's payment channels, nil when off.
	batch *batchPlan
	fixed chainFixed
}

// batchPlan is a network's batch-settlement configuration, resolved.
type batchPlan struct {
	authorizer    *ecdsa.PrivateKey // the receiver authorizer; never shown
	settlement    common.Address
	withdrawDelay time.Duration
	claimEvery    time.Duration // 0: no periodic claim
	claimAbove    string        // whole units of a token; "" for no threshold
	minDeposit    string        // whole units of a token; "" for ten times a route's price
	sponsored     store.SponsoredLimits
}

// receiverAuthorizer is the address the offers name.
func (b *batchPlan) receiverAuthorizer() common.Address {
	return crypto.PubkeyToAddress(b.authorizer.PublicKey)
}

// fixedEntryPoint is one EntryPoint of chainFixed.
type fixedEntryPoint struct {
	Version                                                      string
	Address, AccountFactory, Paymaster, TokenPaymaster, Delegate common.Address
	BundlerURL                                                   string
}

// chainFixed are the options of the x402 app that the running facilitator
// cannot change: a reload that changes them is refused, and Caddy must be
// restarted. The fields are compared by changedOptions and named by their
// json tags.
type chainFixed struct {
	// DevnetAddr is App.DevnetAddr with its default; empty off the devnet.
	DevnetAddr string `json:"devnet_addr"`
	// ChainID is NetworkConfig.ChainID with its default; zero off the
	// devnet.
	ChainID uint64 `json:"chain_id"`
	// EntryPoints are the network's aa-native EntryPoints with the
	// devnet's defaults, none when aa-native is off; Settlement is its
	// X402Settlement.
	EntryPoints []fixedEntryPoint `json:"entry_points"`
	Settlement  common.Address    `json:"settlement"`
	// PaymasterURL is App.PaymasterURL.
	PaymasterURL string `json:"paymaster_url"`
	// PaymasterKey is App.PaymasterKey resolved, with the devnet's default:
	// compared, never shown.
	PaymasterKey string `json:"paymaster_key"`
	// BundlerURL is App.BundlerURL.
	BundlerURL string `json:"bundler_url"`
	// DatabaseMaxConns is App.DatabaseMaxConns with its default; zero
	// without a database.
	DatabaseMaxConns int `json:"database_max_conns"`
	// ClaimTakeover is App.ClaimTakeover; zero for the default.
	ClaimTakeover caddy.Duration `json:"claim_takeover"`
	// Confirmations is App.Confirmations.
	Confirmations int `json:"confirmations"`
	// WalletGas is NetworkConfig.WalletGas.
	WalletGas int `json:"wallet_gas"`
	// WalletReverts is NetworkConfig.WalletReverts.
	WalletReverts int `json:"wallet_reverts"`
	// Batch is NetworkConfig.Batch with the devnet's contract as default,
	// checksummed; nil when batching is off.
	Batch *BatchConfig `json:"batch"`
	// BatchSettlement is the batch-settlement contract, zero when payment
	// channels are off.
	BatchSettlement common.Address `json:"batch_settlement"`
}

// batching is the facilitator's Batch of f, nil when batching is off.
func (f *chainFixed) batching() *facilitator.Batching {
	if f.Batch == nil {
		return nil
	}
	return &facilitator.Batching{
		Contract: common.HexToAddress(f.Batch.Contract), MaxPayments: f.Batch.MaxPayments,
		MaxWait: time.Duration(f.Batch.MaxWait), MaxGas: f.Batch.MaxGas,
	}
}

// key is the plan's key in the usage pool: its identity.
func (p *chainPlan) key() string {
	return "x402|" + p.storeNetwork() + "|" + p.network + "|" + p.storeName() + "|" + crypto.PubkeyToAddress(p.settler.PublicKey).Hex()
}

// storeName names the plan's store in keys and messages: the bbolt file's
// path, or the PostgreSQL database's host and name (its password masked),
// with a digest of the whole URL so two URLs that differ only in what is
// masked stay apart.
func (p *chainPlan) storeName() string {
	if p.database == "" {
		return p.storePath
	}
	sum := sha256.Sum256([]byte(p.database))
	return fmt.Sprintf("%s#%x schema %q", postgres.Config{URL: p.database}, sum[:6], p.schema)
}

// storeNetwork is the network the store records: "devnet" or the CAIP-2
// id of a real chain.
func (p *chainPlan) storeNetwork() string {
	if p.devnet {
		return NetworkDevnet
	}
	return p.network
}

// chainTunables are the options of the x402 app that a reload puts in
// force in the running facilitator.
type chainTunables struct {
	// RPC is the network's rpc; empty on the devnet. A reload moves the
	// connection over HTTP to it (see chainRun.moveRPC).
	RPC string `json:"rpc"`
	// Assets are the network's assets with the devnet's default, their
	// addresses checksummed (see facilitator.Service.SetAssets).
	Assets []AssetConfig `json:"assets"`
	// ReceiptTimeout is App.ReceiptTimeout.
	ReceiptTimeout caddy.Duration `json:"receipt_timeout"`
	// SponsorLimits are App.SponsorLimits, zero when unset.
	SponsorLimits SponsorLimitsConfig `json:"sponsor_limits"`
	// SettlementRetention is App.SettlementRetention with its default;
	// negative keeps records for ever.
	SettlementRetention caddy.Duration `json:"settlement_retention"`
}

// defaultSettlementRetention is App.SettlementRetention's default.
const defaultSettlementRetention = 30 * 24 * time.Hour

// apply puts t in force in the running facilitator. A new rpc or
// allowlist is checked against the chain first, and refused (the old one
// staying in force) if the chain disagrees or does not answer.
func (t chainTunables) apply(run *chainRun, old chainTunables) error {
	if t.RPC != old.RPC {
		if err := run.moveRPC(t.RPC); err != nil {
			return err
		}
	}
	if changedOptions(chainTunables{Assets: t.Assets}, chainTunables{Assets: old.Assets}) != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err := run.fac.SetAssets(ctx, facilitatorAssets(t.Assets))
		cancel()
		if err != nil {
			return err
		}
		run.assets.Store(&t.Assets)
		run.log.Info("the allowlist changed", zap.Int("assets", len(t.Assets)))
	}
	if t.ReceiptTimeout != old.ReceiptTimeout {
		run.fac.SetReceiptTimeout(time.Duration(t.ReceiptTimeout))
	}
	if t.SponsorLimits != old.SponsorLimits {
		run.fac.SetSponsorLimits(t.SponsorLimits.limits())
	}
	if t.SettlementRetention != old.SettlementRetention {
		return run.prune(time.Duration(t.SettlementRetention))
	}
	return nil
}

// prune deletes the store's final records once they are retention old,
// in the background, in place of the pruner running; a negative
// retention stops pruning.
func (r *chainRun) prune(retention time.Duration) error {
	if r.pruner != nil {
		r.pruner.Close()
		r.pruner = nil
	}
	if retention < 0 {
		r.log.Info("keeping final settlement records for ever (settlement_retention off)")
		return nil
	}
	p, err := store.NewPruner(store.PrunerConfig{Store: r.store, Retention: retention, Logger: r.log.Named("retention")})
	if err != nil {
		return err
	}
	p.Start()
	r.pruner = p
	return nil
}

// limits is l for the facilitator.
func (l SponsorLimitsConfig) limits() facilitator.SponsorLimits {
	return facilitator.SponsorLimits{
		PerClient: l.PerClient, PerClientOutstanding: l.PerClientOutstanding, PerSender: l.PerSender,
		MaxOutstanding: l.MaxOutstanding, Validity: time.Duration(l.Validity),
	}
}

// chainRun is the running chain connection, store and facilitator. The
// app owns the store and the connection: the facilitator, the paymaster and
// the transaction API of this chain share them, and they close after all
// three.
type chainRun struct {
	fac     *facilitator.Service
	devnet  *devChain
	rpcURL  string
	chain   *rpc.Client                   // the one JSON-RPC connection of the chain's services
	target  *rpcTarget                    // where chain sends its calls, over HTTP; nil otherwise
	assets  atomic.Pointer[[]AssetConfig] // the allowlist in force
	store   store.Backend                 // the one store of the chain's services
	tempDir string
	keys    *paymaster.Keys // the API keys in the store
	pruner  *store.Pruner   // deletes old final records; nil when off
	log     *zap.Logger
	sponsor sponsorSlot // the paymaster running on this chain, if any
	// channels keeps the network's batch-settlement channels; nil when
	// they are off.
	channels *channels.Server
	claimer  *claimer.Claimer // claims and sweeps them; nil when they are off

	adminMu sync.Mutex   // guards admin
	admin   http.Handler // the admin API over this run, made on first use
	kept    *keptStore   // where store came from, told when it closes
}

// close stops what open started, in reverse.
func (r *chainRun) close() error {
	var errs []error
	if r.pruner != nil {
		errs = append(errs, r.pruner.Close())
	}
	if r.channels != nil {
		// The charges of the last served requests, committed after their
		// handlers returned, before the store closes.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		errs = append(errs, r.channels.Close(ctx))
		cancel()
	}
	if r.claimer != nil {
		errs = append(errs, r.claimer.Close()) // before the facilitator it settles through
	}
	if r.fac != nil {
		errs = append(errs, r.fac.Close())
	}
	if r.chain != nil {
		r.chain.Close()
	}
	if r.store != nil {
		if r.kept != nil {
			r.kept.drop(r.store)
		}
		errs = append(errs, r.store.Close())
	}
	if r.devnet != nil {
		errs = append(errs, r.devnet.close())
	}
	if r.tempDir != "" {
		errs = append(errs, os.RemoveAll(r.tempDir))
	}
	return errors.Join(errs...)
}

// start opens the chain and the facilitator, if no config has yet, and
// puts t in force.
func (c *sharedChain) start(t chainTunables, log *zap.Logger) error {
	return c.pooled.start(t, c.opener(log))
}

// opener opens c's chain run for the pool.
func (c *sharedChain) opener(log *zap.Logger) func(chainTunables) (*chainRun, func() error, error) {
	return func(t chainTunables) (*chainRun, func() error, error) {
		if err := c.clash(); err != nil {
			return nil, nil, err
		}
		run, err := c.plan.open(log, &c.offers, t, &c.kept)
		if err != nil {
			c.kept.failed(err, t.RPC)
			return nil, nil, err
		}
		c.kept.started()
		return run, run.close, nil
	}
}

// startClosed starts c with t if no config has, and reports whether it
// did (see pooled.startClosed).
func (c *sharedChain) startClosed(t chainTunables, log *zap.Logger) (bool, error) {
	return c.pooled.startClosed(t, c.opener(log))
}

// clash refuses to open a second facilitator with the settler of a running
// one, whose nonces it would race, or a second devnet on its port. Reached
// by a reload that changes the store, network or settler: Caddy starts the
// new config before it stops the old one.
func (c *sharedChain) clash() error {
	settler := crypto.PubkeyToAddress(c.plan.settler.PublicKey)
	var err error
	pool.Range(func(_, v any) bool {
		other, ok := v.(*sharedChain)
		if !ok || other == c || !other.opened.Load() {
			return true
		}
		switch {
		case other.plan.network == c.plan.network && crypto.PubkeyToAddress(other.plan.settler.PublicKey) == settler:
			store := cmp.Or(other.plan.storeName(), "(a temporary file)")
			err = fmt.Errorf("the settler %s already settles on %s for the running facilitator of store %s: a reload cannot move it to another store; restart Caddy to apply the change", settler, c.plan.network, store)
		case other.plan.devnet && c.plan.devnet && other.plan.fixed.DevnetAddr == c.plan.fixed.DevnetAddr && !anyPort(c.plan.fixed.DevnetAddr):
			err = fmt.Errorf("the running devnet already serves %s: a reload cannot start a second one there (with another store or settler); restart Caddy to apply the change", c.plan.fixed.DevnetAddr)
		}
		return err == nil
	})
	return err
}

// anyPort reports whether addr asks for any free port.
func anyPort(addr string) bool {
	_, port, err := net.SplitHostPort(addr)
	return err == nil && port == "0"
}

// open starts the devnet, if used, and the facilitator, and claims the
// store for the network.
//
// The store comes from kept: opened at the first start, and left open by
// a start that fails once the store is claimed (the chain does not
// answer), so that the dashboard reads it meanwhile; the next start takes
// it up. A devnet's temporary store is not kept: its directory goes with
// the failed start.
func (p *chainPlan) open(log *zap.Logger, offers facilitator.Offers, t chainTunables, kept *keptStore) (_ *chainRun, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	run := &chainRun{rpcURL: t.RPC, log: log}
	run.assets.Store(&t.Assets)
	claimed := false
	defer func() {
		if err != nil {
			if claimed && run.tempDir == "" {
				run.store = nil // kept for the dashboard until the next start
			}
			run.close()
		}
	}()
	storePath := p.storePath
	if p.devnet {
		d, derr := startDevnet(ctx, p.fixed.DevnetAddr, p.fixed.ChainID, log.Named("devnet"))
		if derr != nil {
			return nil, fmt.Errorf("starting the devnet: %w", derr)
		}
		run.devnet, run.rpcURL = d, d.url
		if storePath == "" {
			dir, derr := os.MkdirTemp("", "caddy-x402-devnet-")
			if derr != nil {
				return nil, fmt.Errorf("creating the devnet's store: %w", derr)
			}
			run.tempDir, storePath = dir, filepath.Join(dir, "facilitator.db")
		}
	}
	var aa *facilitator.AANative
	if p.aa != nil {
		c := *p.aa
		c.SponsorLimits = t.SponsorLimits.limits()
		aa = &c
	}
	assets := facilitatorAssets(t.Assets)
	st, journal, storePath, err := kept.open(func() (store.Backend, store.Journal, string, error) {
		if p.database != "" {
			pg, err := postgres.Open(ctx, postgres.Config{URL: p.database, MaxConns: int32(p.fixed.DatabaseMaxConns), Schema: p.schema, Logger: log.Named("store")})
			if err != nil {
				return nil, nil, "", err
			}
			return pg, pg, p.storeName(), nil
		}
		st, err := store.Open(store.Config{Path: storePath})
		return st, nil, storePath, err
	})
	if err != nil {
		return nil, err
	}
	run.store, run.kept = st, kept
	if err := claimFacilitatorStore(st, storePath, p.storeNetwork(), p.network, log); err != nil {
		kept.drop(st)
		return nil, err
	}
	claimed = true
	if run.devnet != nil {
		// In process: no HTTP on the settle path, and new heads are
		// pushed to the receipt watcher instead of polled for.
		run.chain = run.devnet.attach()
	} else if run.chain, run.target, err = dialChain(ctx, run.rpcURL); err != nil {
		return nil, fmt.Errorf("dialing the chain: %w", err)
	}
	var bs *facilitator.BatchSettlement
	if p.batch != nil {
		bs = &facilitator.BatchSettlement{Settlement: p.batch.settlement}
	}
	fac, err := facilitator.New(ctx, facilitator.Config{
		Network: p.network, Chain: run.chain, Records: st, Journal: journal, SettlerKey: p.settler, Assets: assets, AANative: aa, Offers: offers,
		ReceiptTimeout: time.Duration(t.ReceiptTimeout), ClaimTakeover: time.Duration(p.fixed.ClaimTakeover), Logger: log.Named("facilitator"),
		Confirmations: uint64(p.fixed.Confirmations), Batch: p.fixed.batching(), WalletGas: uint64(p.fixed.WalletGas), WalletReverts: p.fixed.WalletReverts,
		BatchSettlement: bs,
	})
	if err != nil {
		return nil, err
	}
	run.fac = fac
	if p.batch != nil {
		if err := p.openChannels(run, log); err != nil {
			return nil, err
		}
	}
	if run.keys, err = paymaster.OpenKeys(st); err != nil {
		return nil, err
	}
	run.keys.Logger = log.Named("keys")
	if err := run.prune(time.Duration(t.SettlementRetention)); err != nil {
		return nil, err
	}
	log.Info("x402 facilitator ready",
		zap.String("network", p.network), zap.String("rpc", run.rpcURL),
		zap.Stringer("settler", crypto.PubkeyToAddress(p.settler.PublicKey)), zap.String("store", storePath))
	return run, nil
}

// claimFacilitatorStore makes sure the store serves network (see
// claimStore) and holds no record of the devnet's public paymaster key,
// which earlier versions stored.
func claimFacilitatorStore(st store.Backend, path, network, caip2 string, log *zap.Logger) error {
	meta, err := st.Bucket(metaBucket)
	if err != nil {
		return err
	}
	if err := claimStore(meta, path, network, caip2); err != nil {
		return err
	}
	pm, err := paymaster.OpenStorage(st)
	if err != nil {
		return err
	}
	removed, err := removeKeyRecord(pm.Keys, DevPaymasterKey)
	if err != nil {
		return fmt.Errorf("removing the devnet's paymaster key from store %s: %w", path, err)
	}
	if removed {
		log.Warn("removed the devnet's public paymaster key from the store; it is held in memory on the devnet only", zap.String("store", path))
	}
	return nil
}

// facilitatorAssets is assets for the facilitator.
func facilitatorAssets(assets []AssetConfig) []facilitator.Asset {
	out := make([]facilitator.Asset, len(assets))
	for i, as := range assets {
		out[i] = facilitator.Asset{Address: common.HexToAddress(as.Address), Name: as.Name, Version: as.Version, Decimals: assetDecimals(as), Permit2: as.Permit2}
	}
	return out
}

// devnetAsset is the devnet's stablecoin, the default asset on the devnet.
func devnetAsset() AssetConfig {
	t := tokens.DevUSD("")
	return AssetConfig{Address: t.Address.Hex(), Name: t.Name, Version: t.Version, Decimals: t.Decimals, known: &t}
}

// devChain is a running embedded dev chain, as startDevnet starts it.
type devChain struct {
	url    string             // its JSON-RPC endpoint over HTTP
	attach func() *rpc.Client // a JSON-RPC client in process
	close  func() error       // stops it
}

// Begin holds the channel of a batch-settlement payment for one request
// (paywall.Channels), with the running network's channels.
func (c *sharedChain) Begin(ctx context.Context, req *x402.VerifyRequest, verify func(context.Context) (*x402.VerifyResponse, error)) (paywall.ChannelUse, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return nil, err
	}
	if run.channels == nil {
		return nil, &paywall.ChannelRefusal{Status: http.StatusPaymentRequired, Reason: string(x402.ReasonSchemeMismatch), Message: "this network takes no batch-settlement payments"}
	}
	return run.channels.Begin(ctx, req, verify)
}

// Verify verifies with the running facilitator.
func (c *sharedChain) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return nil, err
	}
	return run.fac.Verify(ctx, req)
}

// Settle settles with the running facilitator.
func (c *sharedChain) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return nil, err
	}
	return run.fac.Settle(ctx, req)
}

// SettleCredential says why a settlement of the scheme named needs the
// caller's credential, as the running facilitator's schemes say; "" when
// it is not running (its settle fails anyway).
func (c *sharedChain) SettleCredential(ctx context.Context, network, name string) string {
	run, err := c.wait(ctx)
	if err != nil {
		return ""
	}
	return run.fac.SettleCredential(ctx, network, name)
}

// Served tells the running facilitator that a paid response was written.
func (c *sharedChain) Served(ctx context.Context, req *x402.SettleRequest) error {
	run, err := c.wait(ctx)
	if err != nil {
		return err
	}
	return run.fac.Served(ctx, req)
}

// Supported is the running facilitator's.
func (c *sharedChain) Supported(ctx context.Context) (*x402.Supported, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return nil, err
	}
	return run.fac.Supported(ctx)
}

// Health is the running facilitator's; a facilitator that has not started
// (its chain did not answer) is degraded, its chain unreachable.
func (c *sharedChain) Health(ctx context.Context) (*x402.Health, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return &x402.Health{Status: "degraded", Network: c.plan.network, Service: facilitator.ServiceName, Version: facilitator.Version,
			Dependencies: map[string]string{"chain": "unreachable"}}, err
	}
	return run.fac.Health(ctx)
}

// SponsorOperationAt sponsors through the running facilitator.
func (c *sharedChain) SponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error) {
	run, err := c.wait(ctx)
	if err != nil {
		return op, err
	}
	return run.fac.SponsorOperationAt(ctx, entryPoint, op, gas, client)
}

// authorizeSettle checks a facilitator:settle key of the store and
// returns its id.
func (c *sharedChain) authorizeSettle(secret string) (string, error) {
	run, err := c.running()
	if err != nil {
		return "", err
	}
	k, err := run.keys.Authorize(secret, paymaster.ScopeSettle)
	if err != nil {
		return "", err
	}
	return k.ID, nil
}

// Interface guards.
var (
	_ facilitator.Facilitator      = (*sharedChain)(nil)
	_ facilitator.Sponsorer        = (*sharedChain)(nil)
	_ facilitator.CredentialPolicy = (*sharedChain)(nil)
	_ caddy.Destructor             = (*sharedChain)(nil)
)

// chainID is the chain id of the plan's network.
func (p *chainPlan) chainID() *big.Int {
	id, _ := x402.ParseNetwork(p.network) // checked by App.Validate
	return new(big.Int).SetUint64(id)
}

// dialChain connects to a chain's JSON-RPC. Over HTTP it uses a pooled
// client: go-ethereum's default keeps 2 idle connections per host and asks
// for gzip, so under load the facilitator spent 7.8% of its CPU re-dialing
// and 4.7% decompressing small JSON answers (issue 14's profile of
// /verify); keeping up to 64 connections alive and taking answers
// uncompressed gave 1.45x the /verify throughput at 32 connections.
func dialChain(ctx context.Context, rawURL string) (*rpc.Client, *rpcTarget, error) {
	if !httpRPC(rawURL) {
		c, err := rpc.DialContext(ctx, rawURL) // WebSocket or IPC: one connection
		return c, nil, err
	}
	target, err := newRPCTarget(rawURL, chainTransport())
	if err != nil {
		return nil, nil, err
	}
	c, err := rpc.DialOptions(ctx, rpcPlaceholder, rpc.WithHTTPClient(&http.Client{Transport: target}))
	return c, target, err
}

// chainTransport is the HTTP transport of a chain connection.
func chainTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true,
	}
}
