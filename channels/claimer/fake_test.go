package claimer

import (
	"context"
	"math/big"

	"github.com/ethereum/go-ethereum"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fakeStore, fakeSettler and fakeChain stand in where a test needs none.
type (
	fakeStore   struct{ store.Backend }
	fakeSettler struct{}
	fakeChain   struct{}
)

func (fakeSettler) Settle(context.Context, *x402.SettleRequest) (*x402.SettleResponse, error) {
	return nil, context.Canceled
}

func (fakeChain) CallContract(context.Context, ethereum.CallMsg, *big.Int) ([]byte, error) {
	return nil, context.Canceled
}
