package facilitator

import (
	"context"
	"errors"
	"fmt"
	"math/big"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/batchsettlement"
	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
)

// schemeTable is what an allowlist makes of the service: the payment
// schemes, by name and in registration order, and the tokens' checks
// against the chain. It is never changed once in force: SetAssets puts a
// new table in force whole, and what is in flight finishes with the table
// it began with.
type schemeTable struct {
	assets []Asset
	byName map[string]scheme.Scheme
	order  []scheme.Scheme
	// sponsor is the scheme whose operations /sponsor sponsors gas for
	// (also in byName); nil when none does.
	sponsor gasSponsor
	tokens  *tokenChecks
}

// gasSponsor is a scheme whose settlements the facilitator sponsors gas
// for (aa-native's operations, at /sponsor): it says which EntryPoints it
// serves, and reads the settlement an operation's call makes on each.
type gasSponsor interface {
	scheme.Scheme
	Serves(entryPoint common.Address) bool
	EntryPointFor(entryPoint common.Address) entrypoint.EntryPoint
	ParseCallDataAt(entryPoint common.Address, callData []byte) (*aanative.Settlement, error)
}

// newSchemeTable builds the schemes of cfg for assets, with the tokens'
// checks (not yet run).
func newSchemeTable(cfg *Config, chainID *big.Int, client *rpc.Client, assets []Asset, committed func(payer, token common.Address) *big.Int) (*schemeTable, error) {
	t := &schemeTable{assets: assets, byName: make(map[string]scheme.Scheme), tokens: newTokenChecks(client, chainID, assets, cfg.Logger)}
	// exact takes the assets with an EIP-712 domain (EIP-3009 tokens); an
	// asset without one is paid with aa-native only.
	var signed []Asset
	for _, as := range assets {
		if as.Name != "" {
			signed = append(signed, as)
		}
	}
	if len(signed) > 0 || cfg.AANative == nil {
		ex, err := exact.New(exact.Config{ChainID: chainID, Assets: signed, Chain: client, Now: cfg.Now, Committed: committed,
			Settler: crypto.PubkeyToAddress(cfg.SettlerKey.PublicKey), WalletGas: cfg.WalletGas})
		if err != nil {
			return nil, err
		}
		t.register(ex)
		t.register(exact.NewUpto(ex))
	}
	if b := cfg.BatchSettlement; b != nil && len(signed) > 0 {
		bsAssets := make([]batchsettlement.Asset, len(signed))
		for i, as := range signed {
			bsAssets[i] = batchsettlement.Asset{Address: as.Address, Name: as.Name, Version: as.Version}
		}
		bs, err := batchsettlement.New(batchsettlement.Config{
			ChainID: chainID, Assets: bsAssets, Chain: ethclient.NewClient(client), Now: cfg.Now,
			Settlement: b.Settlement, ERC3009Collector: b.ERC3009Collector, Permit2Collector: b.Permit2Collector,
		})
		if err != nil {
			return nil, err
		}
		t.register(bs)
	}
	if a := cfg.AANative; a != nil {
		addrs := make([]common.Address, len(assets))
		for i, as := range assets {
			addrs[i] = as.Address
		}
		eps := a.entryPoints()
		configs := make([]aanative.EntryPointConfig, len(eps))
		for i, ep := range eps {
			configs[i] = ep.EntryPointConfig
		}
		aa, err := aanative.New(aanative.Config{
			ChainID: chainID, Settlement: a.Settlement, EntryPoints: configs,
			Assets: addrs, Chain: client, Committed: committed, Now: cfg.Now,
		})
		if err != nil {
			return nil, err
		}
		t.register(aa)
	}
	return t, nil
}

// contractChecker is a scheme that settles through contracts it can check
// on the chain at start (batch-settlement's escrow and collectors).
type contractChecker interface {
	CheckContracts(ctx context.Context) error
}

// checkContracts runs the check of every scheme that has one: a chain
// whose contracts are not the ones a scheme speaks to would take its
// payments into other code, so the facilitator does not start on it.
func (t *schemeTable) checkContracts(ctx context.Context) error {
	var errs []error
	for _, sch := range t.order {
		if c, ok := sch.(contractChecker); ok {
			if err := c.CheckContracts(ctx); err != nil {
				errs = append(errs, fmt.Errorf("checking the contracts of %s: %w", sch.Name(), err))
			}
		}
	}
	return errors.Join(errs...)
}

// register adds a payment scheme to the table that decode looks schemes
// up in, by the name requirements give; a scheme that sponsors gas is
// also the one /sponsor asks.
func (t *schemeTable) register(sch scheme.Scheme) {
	t.byName[sch.Name()] = sch
	t.order = append(t.order, sch)
	if g, ok := sch.(gasSponsor); ok {
		t.sponsor = g
	}
}

// SettleCredential says why a settlement of the scheme named needs the
// caller's credential (the scheme is scheme.Credentialed), or "" if it
// does not or is not one of this facilitator's schemes (its settle is
// refused anyway). The network is the handler's to route by; a Service
// serves one. It makes *Service a CredentialPolicy.
func (s *Service) SettleCredential(_ context.Context, _, name string) string {
	if c, ok := s.table().byName[name].(scheme.Credentialed); ok {
		return c.CredentialReason()
	}
	return ""
}

// table is the scheme table in force.
func (s *Service) table() *schemeTable { return s.tab.Load() }

// SetAssets puts a new allowlist in force, as a configuration reload that
// adds, removes or changes an asset does, without a restart: the new
// tokens are checked against the chain first (those the old allowlist
// already had, unchanged, keep their check), and a token the chain
// contradicts refuses the whole change, naming the right values, and
// leaves the old allowlist in force. A token the chain does not answer for
// is checked before its first payment, as at New. Payments verified or
// settling meanwhile finish with the allowlist they began with; records of
// a removed asset still settle and are still read.
func (s *Service) SetAssets(ctx context.Context, assets []Asset) error {
	if len(assets) == 0 {
		return errors.New("no assets are allowlisted")
	}
	s.tabMu.Lock()
	defer s.tabMu.Unlock()
	old := s.table()
	t, err := newSchemeTable(&s.cfg, s.chainID, s.rpc, assets, s.payers.committed)
	if err != nil {
		return err
	}
	old.tokens.mu.Lock()
	for addr, c := range t.tokens.byAddr {
		if prev, ok := old.tokens.byAddr[addr]; ok && prev.asset == c.asset && prev.done {
			c.done, c.err = true, prev.err
		}
	}
	old.tokens.mu.Unlock()
	cctx, cancel := context.WithTimeout(ctx, s.cfg.RPCTimeout)
	t.tokens.checkAll(cctx)
	cancel()
	if err := t.tokens.mismatches(); err != nil {
		return fmt.Errorf("the new allowlist is refused: %w", err)
	}
	s.tab.Store(t)
	return nil
}

// ChainID is the id of the chain the service settles on.
func (s *Service) ChainID() *big.Int { return new(big.Int).Set(s.chainID) }

var _ CredentialPolicy = (*Service)(nil)
