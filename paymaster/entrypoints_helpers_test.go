package paymaster

import (
	"encoding/json"
	"math/big"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The paymaster gas limits the Service signs on v0.7, pinned.
const (
	v07PaymasterVerificationGas      = 60_000
	v07TokenPaymasterVerificationGas = 100_000
)

// maxCost is the maximum cost of a v0.6 operation in the binding's form.
func maxCost(op *contracts.UserOperation) *big.Int {
	o, err := entrypoint.FromV06(*op)
	if err != nil {
		panic(err)
	}
	return entrypoint.NewV06(common.Address{}).MaxCost(&o)
}

// maxCostOf7 is the maximum cost of a v0.7 operation.
func maxCostOf7(op *ep07.UserOperation) *big.Int {
	o := entrypoint.FromV07(*op)
	return entrypoint.NewV07(ep07.Address).MaxCost(&o)
}

// decodeWire6 decodes a v0.6 wire operation as a sponsorship request
// does, without its paymasterAndData.
func decodeWire6(w *x402.UserOperation) (contracts.UserOperation, error) {
	op, err := contracts.UserOperationHex(*w).Decode(true)
	op.PaymasterAndData = []byte{}
	return op, err
}

// serviceOn is a Service that parses requests for cfg's EntryPoints, with
// nothing behind it.
func serviceOn(cfg Config) *Service {
	return &Service{cfg: cfg, eps: cfg.entryPoints()}
}

// mustJSON is v encoded.
func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}
