package bundler

import (
	"context"
	"errors"
	"fmt"
	"net"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/entrypoint"
)

// ErrUnreachable means the external bundler could not be reached: the
// operation was certainly not delivered.
var ErrUnreachable = errors.New("bundler unreachable")

// External is an ERC-4337 bundler reached over ERC-7769 JSON-RPC, for one
// EntryPoint.
type External struct {
	client     *rpc.Client
	entryPoint entrypoint.EntryPoint
}

// Dial returns an External for the bundler at url (HTTP connects lazily)
// that bundles for entryPoint.
func Dial(ctx context.Context, url string, entryPoint entrypoint.EntryPoint) (*External, error) {
	c, err := rpc.DialContext(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("dialing the bundler at %s: %w", Host(url), withoutURL(err))
	}
	return &External{client: c, entryPoint: entryPoint}, nil
}

// Close closes the connection.
func (x *External) Close() { x.client.Close() }

// Send calls eth_sendUserOperation with op in its EntryPoint's wire form.
// The bundler's own refusal is ErrRejected with its message; a bundler
// that cannot be reached is ErrUnreachable; any other error leaves
// delivery unknown.
func (x *External) Send(ctx context.Context, op entrypoint.UserOperation) (common.Hash, error) {
	var hash common.Hash
	err := x.client.CallContext(ctx, &hash, "eth_sendUserOperation", x.entryPoint.EncodeOp(&op), x.entryPoint.Address())
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
