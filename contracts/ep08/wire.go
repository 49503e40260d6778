package ep08

import (
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/holiman/uint256"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// UserOperationHex is the ERC-7769 wire form of a v0.8 UserOperation:
// v0.7's fields, and the sender's EIP-7702 authorization (eip7702Auth:
// chainId, address, nonce, yParity, r, s as 0x hex), which a bundler
// carries in its set-code transaction. An EIP-7702 sender's factory is
// the marker, written "0x7702" or padded to an address.
type UserOperationHex struct {
	ep07.UserOperationHex
	EIP7702Auth *AuthorizationHex `json:"eip7702Auth,omitempty"`
}

// AuthorizationHex is an EIP-7702 authorization as ERC-7769 and viem write
// it: 0x hex strings, r and s as 32-byte words or as quantities (leading
// zeros allowed, which go-ethereum's own JSON form refuses).
type AuthorizationHex struct {
	ChainID string `json:"chainId"`
	Address string `json:"address"`
	Nonce   string `json:"nonce"`
	YParity string `json:"yParity"`
	R       string `json:"r"`
	S       string `json:"s"`
}

// Decode is the authorization, naming every malformed field.
func (h *AuthorizationHex) Decode() (*types.SetCodeAuthorization, error) {
	var f contracts.HexFields
	word := func(name, v string, bits int) *uint256.Int {
		b, err := hexutil.Decode(padEven(v))
		if !strings.HasPrefix(v, "0x") || len(v) < 3 || err != nil {
			f.Fail(fmt.Sprintf("eip7702Auth.%s %q: want a 0x hex number", name, v))
			return new(uint256.Int)
		}
		n := new(big.Int).SetBytes(b) // leading zeros allowed
		if n.BitLen() > bits {
			f.Fail(fmt.Sprintf("eip7702Auth.%s does not fit %d bits", name, bits))
			return new(uint256.Int)
		}
		return uint256.MustFromBig(n)
	}
	a := &types.SetCodeAuthorization{
		ChainID: *word("chainId", h.ChainID, 256),
		Address: f.Address("eip7702Auth.address", h.Address, false),
		Nonce:   word("nonce", h.Nonce, 64).Uint64(),
		V:       uint8(word("yParity", h.YParity, 8).Uint64()),
		R:       *word("r", h.R, 256),
		S:       *word("s", h.S, 256),
	}
	return a, f.Err()
}

// authHex is a's wire form: quantities, r and s as 32-byte words.
func authHex(a *types.SetCodeAuthorization) *AuthorizationHex {
	if a == nil {
		return nil
	}
	return &AuthorizationHex{
		ChainID: hexutil.EncodeBig(a.ChainID.ToBig()), Address: a.Address.Hex(), Nonce: hexutil.EncodeUint64(a.Nonce),
		YParity: hexutil.EncodeUint64(uint64(a.V)), R: hexutil.Encode(a.R.PaddedBytes(32)), S: hexutil.Encode(a.S.PaddedBytes(32)),
	}
}

// padEven is 0x hex with an even number of digits.
func padEven(v string) string {
	if strings.HasPrefix(v, "0x") && len(v)%2 == 1 {
		return "0x0" + v[2:]
	}
	return v
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
	if h.EIP7702Auth == nil {
		return op, nil, nil
	}
	if !marked {
		return op, nil, errors.New("eip7702Auth needs the 0x7702 factory marker")
	}
	auth, err := h.EIP7702Auth.Decode()
	if err != nil {
		return op, nil, err
	}
	return op, auth, nil
}

// Hex returns the wire form of op and its authorization (nil for none).
func Hex(op *ep07.UserOperation, auth *types.SetCodeAuthorization) UserOperationHex {
	h := UserOperationHex{UserOperationHex: op.Hex(), EIP7702Auth: authHex(auth)}
	if op.Factory == EIP7702Marker {
		// "0x7702", as viem and bundlers (alto) write it: alto refuses
		// the marker padded to an address.
		h.Factory, h.FactoryData = "0x7702", hexutil.Encode(append([]byte{}, op.FactoryData...))
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
