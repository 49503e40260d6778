package client

import (
	"context"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Wallet is a contract wallet that the Transport's key signs for: an
// exact payment then comes from the wallet's address, and the token asks
// the wallet (ERC-1271 isValidSignature) whether the key's signature of
// the EIP-712 digest is its own. The devnet's OwnerWallet works this way.
// An EIP-7702 EOA needs no Wallet: it signs with its own key, as an EOA.
type Wallet struct {
	// Address is the wallet's address, deployed or not yet.
	Address common.Address
	// Factory and FactoryData deploy the wallet (the factory's call, such
	// as OwnerWalletFactory.createWallet(owner, salt)). When set, the
	// signature is wrapped in ERC-6492 so that the facilitator deploys the
	// wallet in the transaction that settles the payment, unless the
	// Transport's RPC says the wallet has code already.
	Factory     common.Address
	FactoryData []byte
}

// erc6492Suffix ends an ERC-6492 signature.
var erc6492Suffix = common.FromHex("0x6492649264926492649264926492649264926492649264926492649264926492")

// WrapERC6492 wraps a wallet's signature for a verifier that must deploy
// the wallet first: abi.encode(factory, factoryData, signature) and the
// ERC-6492 magic suffix.
func WrapERC6492(factory common.Address, factoryData, signature []byte) ([]byte, error) {
	typ := func(s string) abi.Type { t, _ := abi.NewType(s, "", nil); return t }
	out, err := abi.Arguments{{Type: typ("address")}, {Type: typ("bytes")}, {Type: typ("bytes")}}.Pack(factory, factoryData, signature)
	if err != nil {
		return nil, fmt.Errorf("wrapping the signature in ERC-6492: %w", err)
	}
	return append(out, erc6492Suffix...), nil
}

// walletSignature is the key's signature as the wallet's: wrapped in
// ERC-6492 when the wallet has a factory and is not known to be deployed.
func (t *Transport) walletSignature(ctx context.Context, sig []byte) ([]byte, error) {
	w := t.Wallet
	if w.Factory == (common.Address{}) || len(w.FactoryData) == 0 {
		return sig, nil
	}
	if t.RPC != "" {
		eth, err := ethclient.DialContext(ctx, t.RPC)
		if err != nil {
			return nil, fmt.Errorf("x402 client: %w", err)
		}
		defer eth.Close()
		code, err := eth.CodeAt(ctx, w.Address, nil)
		if err != nil {
			return nil, fmt.Errorf("x402 client: reading the wallet's code: %w", err)
		}
		if len(code) > 0 {
			return sig, nil
		}
	}
	return WrapERC6492(w.Factory, w.FactoryData, sig)
}
