package bundler

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// ErrUnreachable means the external bundler could not be reached: the
// operation was certainly not delivered.
var ErrUnreachable = errors.New("bundler unreachable")

// External is an ERC-4337 bundler reached over ERC-7769 JSON-RPC.
type External struct {
	client     *rpc.Client
	entryPoint common.Address
}

// Dial returns an External for the bundler at url (HTTP connects lazily).
func Dial(ctx context.Context, url string, entryPoint common.Address) (*External, error) {
	c, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("dialing the bundler at %s: %w", Host(url), withoutURL(err))
	}
	return &External{client: c, entryPoint: entryPoint}, nil
}

// Close closes the connection.
func (x *External) Close() { x.client.Close() }

// Send calls eth_sendUserOperation. The bundler's own refusal is
// ErrRejected with its message; a bundler that cannot be reached is
// ErrUnreachable; any other error leaves delivery unknown.
func (x *External) Send(ctx context.Context, op contracts.UserOperation) (common.Hash, error) {
	return x.send(ctx, op.Hex())
}

func (x *External) send(ctx context.Context, wire any) (common.Hash, error) {
	var hash common.Hash
	err := x.client.CallContext(ctx, &hash, "eth_sendUserOperation", wire, x.entryPoint)
	if err == nil {
		return hash, nil
	}
	var rerr rpc.Error
	if errors.As(err, &rerr) {
		return hash, fmt.Errorf("%w: %v", ErrRejected, err)
	}
	var op2 *net.OpError
	if errors.As(err, &op2) && op2.Op == "dial" {
		return hash, fmt.Errorf("%w: %v", ErrUnreachable, err)
	}
	return hash, err
}

// SendV07 is Send of a v0.7 operation, in ERC-7769's v0.7 form, to the
// bundler's entry point (which must then be a v0.7 EntryPoint).
func (x *External) SendV07(ctx context.Context, op ep07.UserOperation) (common.Hash, error) {
	return x.send(ctx, op.Hex())
}

// Receipt calls eth_getUserOperationReceipt and returns the transaction
// that included the operation, once there is one.
func (x *External) Receipt(ctx context.Context, userOpHash common.Hash) (common.Hash, bool, error) {
	var res *struct {
		Receipt struct {
			TransactionHash common.Hash `json:"transactionHash"`
		} `json:"receipt"`
	}
	if err := x.client.CallContext(ctx, &res, "eth_getUserOperationReceipt", userOpHash); err != nil {
		return common.Hash{}, false, err
	}
	if res == nil || res.Receipt.TransactionHash == (common.Hash{}) {
		return common.Hash{}, false, nil
	}
	return res.Receipt.TransactionHash, true, nil
}
