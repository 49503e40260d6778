package ep08

import (
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"

	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// UserOperationHex is the ERC-7769 wire form of a v0.8 UserOperation:
// v0.7's fields, and the sender's EIP-7702 authorization (eip7702Auth:
// chainId, address, nonce, yParity, r, s as 0x hex), which a bundler
// carries in its set-code transaction. An EIP-7702 sender's factory is
// the marker, written "0x7702" or padded to an address.
type UserOperationHex struct {
	ep07.UserOperationHex
	EIP7702Auth *types.SetCodeAuthorization `json:"eip7702Auth,omitempty"`
}

// Decode parses the operation as ep07's Decode does, with an EIP-7702
// sender's marker as its factory (factoryData then optional) and its
// authorization, nil when absent. An authorization without the marker is
// refused: the EntryPoint would not read the delegation.
func (h UserOperationHex) Decode(unfilled bool) (ep07.UserOperation, *types.SetCodeAuthorization, error) {
	w := h.UserOperationHex
	marked := isMarker(w.Factory)
	var data []byte
	if marked {
		var err error
		if data, err = decodeOptional(w.FactoryData); err != nil {
			return ep07.UserOperation{}, nil, errors.New("factoryData: want 0x hex bytes")
		}
		w.Factory, w.FactoryData = "", ""
	}
	op, err := w.Decode(unfilled)
	if err != nil {
		return op, nil, err
	}
	if marked {
		op.Factory, op.FactoryData = EIP7702Marker, data
	}
	if h.EIP7702Auth != nil && !marked {
		return op, nil, errors.New("eip7702Auth needs the 0x7702 factory marker")
	}
	return op, h.EIP7702Auth, nil
}

// Hex returns the wire form of op and its authorization (nil for none).
func Hex(op *ep07.UserOperation, auth *types.SetCodeAuthorization) UserOperationHex {
	h := UserOperationHex{UserOperationHex: op.Hex(), EIP7702Auth: auth}
	if op.Factory == EIP7702Marker {
		h.Factory, h.FactoryData = EIP7702Marker.Hex(), hexutil.Encode(append([]byte{}, op.FactoryData...))
	}
	return h
}

// isMarker reports whether a wire factory is the EIP-7702 marker.
func isMarker(factory string) bool {
	f := strings.ToLower(factory)
	return f == "0x7702" || (common.IsHexAddress(f) && common.HexToAddress(f) == EIP7702Marker)
}

// decodeOptional is 0x hex bytes, "" and "0x" being none.
func decodeOptional(s string) ([]byte, error) {
	if s == "" || s == "0x" {
		return nil, nil
	}
	return hexutil.Decode(s)
}
