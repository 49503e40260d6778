package paymaster

import (
	"bytes"
	"context"
	"testing"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// cutShort is a node whose simulateValidation reverts with a known
// EntryPoint error's selector and its data cut short.
type cutShort struct {
	Chain
	revert []byte
}

type revertError struct{ data []byte }

func (e revertError) Error() string  { return "execution reverted" }
func (e revertError) ErrorCode() int { return 3 }
func (e revertError) ErrorData() any { return hexutil.Encode(e.data) }

var _ rpc.DataError = revertError{}

func (c cutShort) CallContext(ctx context.Context, result any, method string, args ...any) error {
	if method == "eth_call" && len(args) > 0 {
		if msg, ok := args[0].(map[string]any); ok {
			if data, ok := msg["data"].(hexutil.Bytes); ok && bytes.HasPrefix(data, simulateValidationID) {
				return revertError{c.revert}
			}
		}
	}
	return c.Chain.CallContext(ctx, result, method, args...)
}

var simulateValidationID = func() []byte {
	a, _ := contracts.EntryPointMetaData.ParseABI()
	return a.Methods["simulateValidation"].ID
}()

// A node whose simulateValidation answers ValidationResult or FailedOp
// with the data cut short gets the operation refused with -32500 and a
// message, never a panic.
func TestSimulationCutShort(t *testing.T) {
	t.Parallel()
	a, _ := contracts.EntryPointMetaData.ParseABI()
	for _, name := range []string{"ValidationResult", "FailedOp"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.stop()
			e.start(func(c *Config) {
				c.Chain = cutShort{Chain: c.Chain, revert: append(a.Errors[name].ID.Bytes()[:4:4], make([]byte, 40)...)}
			})
			acct := e.newAccount()
			res, resp := e.call(e.sponsor, "pm_sponsor_userop", unsigned(acct, 0, true, e.settleCall(e.chain.Token.Address, 5)), e.chain.Contracts.EntryPoint.Hex())
			if res.Error == nil || res.Error.Code != codeSimulation || resp.StatusCode != 200 {
				t.Fatalf("sponsorship simulated on a node that cut its answer short: %d %+v", resp.StatusCode, res.Error)
			}
		})
	}
}
