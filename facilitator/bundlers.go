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

	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/aanative"
	"github.com/caddy-x402/caddy-x402/facilitator/bundler"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
)

// bundlerRoutes are the external bundlers that aa-native operations go to,
// by EntryPoint address: a bundler's URL, or "" (absent) for the built-in
// bundler of that EntryPoint.
type bundlerRoutes map[common.Address]string

// routeBundlers decides, once at start, which bundler submits the
// operations of each EntryPoint the configuration settles, from the
// external bundlers' answers to eth_supportedEntryPoints:
//
//   - An EntryPoint with a bundler of its own (AAEntryPoint.BundlerURL)
//     goes to it; that bundler is refused if it lists other EntryPoints
//     and not this one.
//   - Every other EntryPoint goes to the network's bundler (BundlerURL)
//     when that bundler lists it, and otherwise to the built-in bundler.
//     If the network's bundler serves some EntryPoint but not the first,
//     a warning says the first's operations go to the built-in bundler.
//   - The network's bundler is refused if it would submit nothing: it
//     lists none of the EntryPoints left to it, with an error that names
//     what it serves.
//   - A bundler that gives no answer (bundler.ErrNoAnswer: unreachable at
//     start, or older than the method) is taken at its word, as before the
//     question was asked: an EntryPoint's own bundler for it, the
//     network's for the first EntryPoint. A warning is logged; a wrong
//     bundler then refuses operations at settlement, and one that is down
//     answers bundler_unreachable.
//
// The EntryPoints settled, and so the offers and /supported, are the
// configuration's whatever the answers: every one of them has a bundler,
// since the built-in one takes what no external bundler serves.
func routeBundlers(ctx context.Context, a *AANative, timeout time.Duration, log *zap.Logger) (bundlerRoutes, error) {
	r := bundlerRoutes{}
	eps := a.entryPoints()
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
	for _, ep := range eps {
		if ep.BundlerURL == "" {
			continue
		}
		addr, v := ep.EntryPoint.Address(), ep.EntryPoint.Version()
		listed, answered, err := ask(ep.BundlerURL)
		if err != nil {
			return nil, fmt.Errorf("the bundler_url of EntryPoint v%s: %w", v, err)
		}
		if answered && !slices.Contains(listed, addr) {
			return nil, fmt.Errorf("the v%s bundler at %s (the bundler_url of EntryPoint v%s) serves %s, not this network's v%s EntryPoint %s",
				v, bundler.Host(ep.BundlerURL), v, entryPointList(listed), v, addr)
		}
		r[addr] = ep.BundlerURL
	}
	if a.BundlerURL == "" || len(eps) == 0 {
		return r, nil
	}
	listed, answered, err := ask(a.BundlerURL)
	if err != nil {
		return nil, fmt.Errorf("bundler_url: %w", err)
	}
	first := eps[0].EntryPoint
	if !answered {
		if _, own := r[first.Address()]; !own {
			r[first.Address()] = a.BundlerURL
		}
		return r, nil
	}
	var left []string // the EntryPoints without a bundler of their own
	took := 0
	for _, ep := range eps {
		addr := ep.EntryPoint.Address()
		if _, own := r[addr]; own {
			continue
		}
		left = append(left, addr.Hex()+" (v"+ep.EntryPoint.Version()+")")
		if slices.Contains(listed, addr) {
			r[addr] = a.BundlerURL
			took++
		}
	}
	switch {
	case took > 0:
		if _, ok := r[first.Address()]; !ok {
			log.Warn("the external bundler does not serve the first EntryPoint: its operations go to the built-in bundler, from the settler key",
				zap.String("bundler", bundler.Host(a.BundlerURL)), zap.Stringer("entry_point", first.Address()), zap.String("version", first.Version()))
		}
	case len(left) == 0:
		return nil, fmt.Errorf("the bundler at %s (bundler_url) serves %s, and every EntryPoint of this network has a bundler of its own: it would submit nothing",
			bundler.Host(a.BundlerURL), entryPointList(listed))
	default:
		msg := fmt.Sprintf("the bundler at %s (bundler_url) serves %s, not this network's EntryPoint %s", bundler.Host(a.BundlerURL), entryPointList(listed), strings.Join(left, " or "))
		if slices.ContainsFunc(listed, func(l common.Address) bool {
			return !slices.ContainsFunc(eps, func(ep AAEntryPoint) bool { return ep.EntryPoint.Address() == l })
		}) {
			msg += "; to settle through it, add an entry_point for an EntryPoint it serves"
		}
		return nil, errors.New(msg)
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
	var fields []zap.Field
	for _, ep := range a.entryPoints() {
		url := r[ep.EntryPoint.Address()]
		fields = append(fields, zap.String("v"+ep.EntryPoint.Version(), bundlerName(url)))
		if url == "" {
			continue
		}
		if s.externals[ep.EntryPoint.Address()], err = bundler.Dial(ctx, url, ep.EntryPoint); err != nil {
			return err
		}
	}
	s.log.Info("aa-native bundlers", fields...)
	return nil
}

// entryPoints are the EntryPoints a settles on: EntryPoints, or the one
// (v0.6) its single-EntryPoint fields name.
func (a *AANative) entryPoints() []AAEntryPoint {
	if len(a.EntryPoints) > 0 {
		return a.EntryPoints
	}
	return []AAEntryPoint{{EntryPointConfig: aanative.EntryPointConfig{
		EntryPoint: entrypoint.NewV06(a.EntryPoint), Factory: a.Factory, Paymaster: a.Paymaster, TokenPaymaster: a.TokenPaymaster,
	}}}
}

// builtInBundlers are the built-in bundlers of a's EntryPoints, by
// address, all sending from snd: "bundler" logs the first's, "bundler07"
// v0.7's, and so on.
func (a *AANative) builtInBundlers(snd *sender.Sender, eth *ethclient.Client, client *rpc.Client, now func() time.Time, log *zap.Logger) map[common.Address]*bundler.BuiltIn {
	out := map[common.Address]*bundler.BuiltIn{}
	for i, d := range a.entryPoints() {
		ep := d.EntryPoint
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
