package facilitator

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
)

// bundlerRoutes are the external bundlers that aa-native operations go to,
// by EntryPoint version: a bundler's URL, or "" for the built-in bundler
// of that EntryPoint.
type bundlerRoutes struct {
	v06, v07 string
}

// routeBundlers decides, once at start, which bundler submits the
// operations of each EntryPoint the configuration settles, from the
// external bundlers' answers to eth_supportedEntryPoints:
//
//   - v0.7's go to BundlerURLV07 when it is set; otherwise to BundlerURL
//     when that bundler lists EntryPointV07; otherwise to the built-in
//     bundler.
//   - v0.6's go to BundlerURL when that bundler lists EntryPoint;
//     otherwise (a bundler of v0.7 alone) to the built-in bundler.
//   - A bundler that lists none of the EntryPoints it would serve is
//     refused, with an error that names what it serves: BundlerURLV07's
//     must list EntryPointV07, and BundlerURL's at least one of
//     EntryPoint and EntryPointV07.
//   - A bundler that gives no answer (bundler.ErrNoAnswer: unreachable at
//     start, or older than the method) is taken at its word, as before the
//     question was asked: BundlerURL for v0.6, BundlerURLV07 for v0.7. A
//     warning is logged; a wrong bundler then refuses operations at
//     settlement, and one that is down answers bundler_unreachable.
//
// The EntryPoints settled, and so the offers and /supported, are the
// configuration's whatever the answers: every one of them has a bundler,
// since the built-in one takes what no external bundler serves.
func routeBundlers(ctx context.Context, a *AANative, timeout time.Duration, log *zap.Logger) (bundlerRoutes, error) {
	var r bundlerRoutes
	v07 := a.EntryPointV07 != (common.Address{})
	answers := map[string][]common.Address{} // by URL; nil: no answer
	ask := func(url string) ([]common.Address, bool, error) {
		if eps, ok := answers[url]; ok {
			return eps, eps != nil, nil
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		eps, err := bundler.SupportedEntryPoints(cctx, url)
		cancel()
		switch {
		case errors.Is(err, bundler.ErrNoAnswer):
			log.Warn("the external bundler did not say which EntryPoints it serves; it is taken to serve the one it is configured for",
				zap.String("bundler", bundler.Host(url)), zap.Error(err))
		case err != nil:
			return nil, false, err
		case eps == nil:
			eps = []common.Address{}
		}
		answers[url] = eps
		return eps, eps != nil, nil
	}
	if v07 && a.BundlerURLV07 != "" {
		eps, answered, err := ask(a.BundlerURLV07)
		if err != nil {
			return r, fmt.Errorf("bundler_url_v07: %w", err)
		}
		if answered && !slices.Contains(eps, a.EntryPointV07) {
			return r, fmt.Errorf("the v0.7 bundler at %s (bundler_url_v07) serves %s, not this network's v0.7 EntryPoint %s",
				bundler.Host(a.BundlerURLV07), entryPointList(eps), a.EntryPointV07)
		}
		r.v07 = a.BundlerURLV07
	}
	if a.BundlerURL == "" {
		return r, nil
	}
	eps, answered, err := ask(a.BundlerURL)
	switch {
	case err != nil:
		return r, fmt.Errorf("bundler_url: %w", err)
	case !answered:
		r.v06 = a.BundlerURL
		return r, nil
	}
	if v07 && r.v07 == "" && slices.Contains(eps, a.EntryPointV07) {
		r.v07 = a.BundlerURL
	}
	switch {
	case slices.Contains(eps, a.EntryPoint):
		r.v06 = a.BundlerURL
	case r.v07 == a.BundlerURL:
		log.Warn("the external bundler serves EntryPoint v0.7 but not v0.6: v0.6 operations go to the built-in bundler, from the settler key",
			zap.String("bundler", bundler.Host(a.BundlerURL)), zap.Stringer("entry_point", a.EntryPoint))
	case v07 && slices.Contains(eps, a.EntryPointV07):
		return r, fmt.Errorf("the bundler at %s (bundler_url) serves %s, not this network's v0.6 EntryPoint %s, and v0.7's operations go to bundler_url_v07: it would submit nothing",
			bundler.Host(a.BundlerURL), entryPointList(eps), a.EntryPoint)
	default:
		mine := a.EntryPoint.Hex()
		if v07 {
			mine += " (v0.6) or " + a.EntryPointV07.Hex() + " (v0.7)"
		}
		msg := fmt.Sprintf("the bundler at %s (bundler_url) serves %s, not this network's EntryPoint %s", bundler.Host(a.BundlerURL), entryPointList(eps), mine)
		if !v07 && slices.Contains(eps, ep07.Address) {
			msg += fmt.Sprintf("; to settle EntryPoint v0.7 through it, set entry_point_v07 %s (with account_factory_v07 and paymaster_v07 outside the devnet)", ep07.Address)
		}
		return r, errors.New(msg)
	}
	return r, nil
}

// entryPointList names the EntryPoints a bundler answered with.
func entryPointList(eps []common.Address) string {
	switch len(eps) {
	case 0:
		return "no EntryPoint"
	case 1:
		return "EntryPoint " + eps[0].Hex() + " only"
	}
	names := make([]string, len(eps))
	for i, ep := range eps {
		names[i] = ep.Hex()
	}
	return "EntryPoints " + strings.Join(names, ", ")
}

// dialBundlers connects the external bundlers that routeBundlers chooses
// for a's EntryPoints, and logs where each EntryPoint's operations go.
func (s *Service) dialBundlers(ctx context.Context, a *AANative) error {
	r, err := routeBundlers(ctx, a, s.cfg.RPCTimeout, s.log)
	if err != nil {
		return err
	}
	s.externals = map[common.Address]*bundler.External{}
	for i, ep := range a.entryPoints() {
		if i >= len(a.entryPoints())-len(a.EntryPoints) {
			break // EntryPoints' go to built-in bundlers
		}
		url := [...]string{r.v06, r.v07}[i]
		if url == "" {
			continue
		}
		if s.externals[ep.Address()], err = bundler.Dial(ctx, url, ep); err != nil {
			return err
		}
	}
	fields := []zap.Field{zap.String("v0.6", bundlerName(r.v06))}
	if a.EntryPointV07 != (common.Address{}) {
		fields = append(fields, zap.String("v0.7", bundlerName(r.v07)))
	}
	s.log.Info("aa-native bundlers", fields...)
	return nil
}

// entryPoints are the EntryPoints a settles on: v0.6's, then v0.7's if
// set, then EntryPoints'.
func (a *AANative) entryPoints() []entrypoint.EntryPoint {
	eps := []entrypoint.EntryPoint{entrypoint.NewV06(a.EntryPoint)}
	if a.EntryPointV07 != (common.Address{}) {
		eps = append(eps, entrypoint.NewV07(a.EntryPointV07))
	}
	for _, d := range a.EntryPoints {
		eps = append(eps, d.EntryPoint)
	}
	return eps
}

// configs is the scheme's list of EntryPoints when a names further ones
// (EntryPoints): the per-version fields' first, then those; nil leaves
// the scheme to read the per-version fields.
func (a *AANative) configs() []aanative.EntryPointConfig {
	if len(a.EntryPoints) == 0 {
		return nil
	}
	out := []aanative.EntryPointConfig{{EntryPoint: entrypoint.NewV06(a.EntryPoint), Factory: a.Factory, Paymaster: a.Paymaster, TokenPaymaster: a.TokenPaymaster}}
	if a.EntryPointV07 != (common.Address{}) {
		out = append(out, aanative.EntryPointConfig{EntryPoint: entrypoint.NewV07(a.EntryPointV07), Factory: a.FactoryV07, Paymaster: a.PaymasterV07, TokenPaymaster: a.TokenPaymasterV07})
	}
	return append(out, a.EntryPoints...)
}

// builtInBundlers are the built-in bundlers of a's EntryPoints, by
// address, all sending from snd: "bundler" logs the first's, "bundler07"
// v0.7's, and so on.
func (a *AANative) builtInBundlers(snd *sender.Sender, eth *ethclient.Client, client *rpc.Client, now func() time.Time, log *zap.Logger) map[common.Address]*bundler.BuiltIn {
	out := map[common.Address]*bundler.BuiltIn{}
	for i, ep := range a.entryPoints() {
		name := "bundler"
		if i > 0 {
			name += strings.ReplaceAll(ep.Version(), ".", "")
		}
		out[ep.Address()] = &bundler.BuiltIn{EntryPoint: ep, Sender: snd, Chain: eth, RPC: client, MaxBundle: a.MaxBundle, MaxWait: a.BundleWait, Now: now, Logger: log.Named(name)}
	}
	return out
}

// bundlerName names a route's bundler in the log: an external bundler's
// host, or "built-in".
func bundlerName(url string) string {
	if url == "" {
		return "built-in"
	}
	return bundler.Host(url)
}
