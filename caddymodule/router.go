package caddymodule

import (
	"context"
	"encoding/json"
	"errors"
	"math/big"
	"slices"
	"sync"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/facilitator"
	"github.com/caddy-x402/caddy-x402/x402"
)

// networkRouter is the facilitator of an x402 app of several networks: it
// sends each verify and settle to the facilitator of the payment's
// network, so that one network's outage (its RPC down, its settler out of
// gas) answers 503 on that network's payments only, while the others keep
// settling. What is not a payment's (/supported, /health) it gathers from
// every network.
type networkRouter struct {
	chains []*sharedChain // chains[0] is the primary network
}

// of is the facilitator of network, or the primary one, which refuses a
// payment on a network it does not serve.
func (r *networkRouter) of(network string) *sharedChain {
	for _, c := range r.chains {
		if c.plan.network == network {
			return c
		}
	}
	return r.chains[0]
}

// Verify verifies with the facilitator of the requirements' network.
func (r *networkRouter) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	return r.of(req.PaymentRequirements.Network).Verify(ctx, req)
}

// Settle settles with the facilitator of the requirements' network.
func (r *networkRouter) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	return r.of(req.PaymentRequirements.Network).Settle(ctx, req)
}

// SettleCredential asks the facilitator of network whether a settlement
// of the scheme named needs the caller's credential.
func (r *networkRouter) SettleCredential(ctx context.Context, network, name string) string {
	return r.of(network).SettleCredential(ctx, network, name)
}

// Served tells the facilitator of the requirements' network that a paid
// response was written.
func (r *networkRouter) Served(ctx context.Context, req *x402.SettleRequest) error {
	return r.of(req.PaymentRequirements.Network).Served(ctx, req)
}

// SponsorOperationAt sponsors with the primary network's facilitator,
// the only one that serves aa-native (App.Validate).
func (r *networkRouter) SponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error) {
	return r.chains[0].SponsorOperationAt(ctx, entryPoint, op, gas, client)
}

// Supported lists every network's schemes and kinds, in the order of the
// config, and the settlers of all.
func (r *networkRouter) Supported(ctx context.Context) (*x402.Supported, error) {
	all := &x402.Supported{X402Version: x402.Version, Schemes: []x402.SupportedScheme{}, Kinds: []x402.SupportedKind{}, Extensions: []string{}, Signers: map[string][]string{}}
	for _, c := range r.chains {
		sup, err := c.Supported(ctx)
		if err != nil {
			return nil, err
		}
		all.Schemes = append(all.Schemes, sup.Schemes...)
		all.Kinds = append(all.Kinds, sup.Kinds...)
		for _, e := range sup.Extensions {
			if !slices.Contains(all.Extensions, e) {
				all.Extensions = append(all.Extensions, e)
			}
		}
		for family, signers := range sup.Signers {
			for _, s := range signers {
				if !slices.Contains(all.Signers[family], s) {
					all.Signers[family] = append(all.Signers[family], s)
				}
			}
		}
	}
	return all, nil
}

// Health asks every network's facilitator at once. The answer is ok when
// all are; otherwise degraded (200 while one network works, 503 when none
// does), with each network's chain (and database)
// named "chain <network>" in the dependencies, so a monitor sees which
// network is down while the others keep taking payments. A network whose
// facilitator has not started is unreachable.
func (r *networkRouter) Health(ctx context.Context) (*x402.Health, error) {
	res := make([]*x402.Health, len(r.chains))
	var wg sync.WaitGroup
	for i, c := range r.chains {
		wg.Go(func() {
			h, err := c.Health(ctx)
			if h == nil {
				h = &x402.Health{Status: "degraded", Dependencies: map[string]string{"chain": "unreachable"}}
			}
			if err != nil {
				h.Status = "degraded"
			}
			res[i] = h
		})
	}
	wg.Wait()
	all := &x402.Health{Status: "ok", Network: r.chains[0].plan.network, Service: facilitator.ServiceName, Version: facilitator.Version, Dependencies: map[string]string{}}
	up := 0
	for i, h := range res {
		if h.Status != "ok" {
			all.Status = "degraded"
		} else {
			up++
		}
		for dep, state := range h.Dependencies {
			all.Dependencies[dep+" "+r.chains[i].plan.network] = state
		}
	}
	if up == 0 {
		// Nothing can be paid: 503, so that a readiness probe takes the
		// instance out. While one network works, /health answers 200.
		return all, errors.New("no network's facilitator is healthy")
	}
	return all, nil
}

// Issued reports whether some network's routes offer this payment; the
// facilitator's handler asks IssuedOn, which names the network.
func (r *networkRouter) Issued(scheme string, payTo, asset common.Address, amount *big.Int) bool {
	return slices.ContainsFunc(r.chains, func(c *sharedChain) bool { return c.offers.Issued(scheme, payTo, asset, amount) })
}

// IssuedOn reports whether the routes offer this payment on network: an
// anonymous caller settles a payment on the network its route offers it
// on, never the same price on another network whose token shares the
// address.
func (r *networkRouter) IssuedOn(network, scheme string, payTo, asset common.Address, amount *big.Int) bool {
	for _, c := range r.chains {
		if c.plan.network == network {
			return c.offers.Issued(scheme, payTo, asset, amount)
		}
	}
	return false
}

// Interface guards.
var (
	_ facilitator.Facilitator      = (*networkRouter)(nil)
	_ facilitator.Sponsorer        = (*networkRouter)(nil)
	_ facilitator.NetworkOffers    = (*networkRouter)(nil)
	_ facilitator.CredentialPolicy = (*networkRouter)(nil)
)
