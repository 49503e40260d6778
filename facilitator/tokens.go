package facilitator

import (
	"context"
	"errors"
	"math/big"
	"sync"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/facilitator/exact"
	"github.com/caddy-x402/caddy-x402/x402"
)

// tokenChecks holds what the chain said of each allowlisted token (see
// exact.CheckTokens). New checks them all; a token the chain could not be
// read for then is checked before its first payment is verified, and a
// token that disagrees with its configuration has its payments refused.
type tokenChecks struct {
	chain   exact.Chain
	chainID *big.Int
	log     *zap.Logger

	mu     sync.Mutex // guards byAddr's entries' done and err
	byAddr map[common.Address]*tokenCheck
}

// tokenCheck is one token's check.
type tokenCheck struct {
	asset Asset
	read  sync.Mutex // one read of the chain at a time
	done  bool       // the chain answered
	err   error      // a *exact.TokenMismatch, once done
}

func newTokenChecks(chain exact.Chain, chainID *big.Int, assets []Asset, log *zap.Logger) *tokenChecks {
	t := &tokenChecks{chain: chain, chainID: chainID, log: log, byAddr: make(map[common.Address]*tokenCheck, len(assets))}
	for _, a := range assets {
		t.byAddr[a.Address] = &tokenCheck{asset: a}
	}
	return t
}

// checkAll reads every token not checked yet, in one batch.
func (t *tokenChecks) checkAll(ctx context.Context) {
	var todo []*tokenCheck
	t.mu.Lock()
	for _, c := range t.byAddr {
		if !c.done {
			todo = append(todo, c)
		}
	}
	t.mu.Unlock()
	assets := make([]Asset, len(todo))
	for i, c := range todo {
		assets[i] = c.asset
	}
	for i, err := range exact.CheckTokens(ctx, t.chain, t.chainID, assets) {
		t.record(todo[i], err)
	}
}

// record notes the answer of c's check, and logs it.
func (t *tokenChecks) record(c *tokenCheck, err error) {
	if err != nil && !errors.Is(err, exact.ErrTokenMismatch) {
		t.log.Warn("could not check the token against the chain; checking it again before its first payment", zap.Stringer("asset", c.asset.Address), zap.Error(err))
		return
	}
	t.mu.Lock()
	c.done, c.err = true, err
	t.mu.Unlock()
	if err != nil {
		t.log.Error("the token on chain disagrees with its configuration: its payments are refused until the configuration is corrected", zap.Stringer("asset", c.asset.Address), zap.Error(err))
	}
}

// ready checks asset before a payment in it is verified: nil once the
// chain confirmed its configuration, a refusal (asset_not_allowed) if the
// chain contradicted it, or an error if the chain could not be read. An
// asset that is not allowlisted is for the scheme to refuse.
func (t *tokenChecks) ready(ctx context.Context, asset common.Address) error {
	c, ok := t.byAddr[asset]
	if !ok {
		return nil
	}
	t.mu.Lock()
	done, err := c.done, c.err
	t.mu.Unlock()
	if !done {
		c.read.Lock()
		t.mu.Lock()
		done = c.done
		t.mu.Unlock()
		if !done {
			t.record(c, exact.CheckTokens(ctx, t.chain, t.chainID, []Asset{c.asset})[0])
		}
		c.read.Unlock()
		t.mu.Lock()
		done, err = c.done, c.err
		t.mu.Unlock()
		if !done {
			return errors.New("the token could not be checked against the chain")
		}
	}
	if err != nil {
		return x402.Invalid(x402.ReasonAssetNotAllowed, "asset %s is refused: this server's configuration of it disagrees with the token on chain", asset)
	}
	return nil
}

// mismatches are the tokens found to disagree with their configuration.
func (t *tokenChecks) mismatches() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	var errs []error
	for _, c := range t.byAddr {
		errs = append(errs, c.err)
	}
	return errors.Join(errs...)
}

// TokenMismatches returns the allowlisted tokens whose contract on chain
// disagrees with their configuration (a wrong EIP-712 name or version,
// wrong decimals, no token at the address), each a *exact.TokenMismatch
// naming the right values, as far as the chain has been read: New reads
// every token, and one the chain could not be read for then is read
// before its first payment. The payments in such a token are refused; a
// caller that starts the service for a configuration should refuse that
// configuration instead.
func (s *Service) TokenMismatches() error { return s.table().tokens.mismatches() }
