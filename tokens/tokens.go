// Package tokens is the table of well-known tokens that a configuration
// may name by symbol, such as `asset usdc` on Base: for each network, the
// issuer's published contract address, the token's EIP-712 domain (the
// name and version EIP-3009 signatures are made in), its decimals, and
// whether it is pegged 1:1 to the US dollar (so that a price may be
// written in dollars, "$0.01").
//
// The addresses and domains are the issuers' (Circle's, for USDC) and
// agree with upstream x402's table of default assets
// (typescript/packages/mechanisms/evm/src/shared/defaultAssets.ts); the
// facilitator still reads each token's domain from the chain when it
// starts and refuses one that disagrees, so the table is a convenience,
// never the last word. It needs no chain and no network access.
package tokens

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/devnet/wellknown"
)

// PegUSD is the Peg of a token pegged 1:1 to the US dollar.
const PegUSD = "USD"

// Token is a well-known token on one network.
type Token struct {
	// Network is the CAIP-2 id of the chain, such as "eip155:8453".
	Network string
	// Symbol is how people write the token, such as "USDC"; a
	// configuration names it case-insensitively.
	Symbol string
	// Address is the token contract, as its issuer publishes it.
	Address common.Address
	// Name and Version are the token's EIP-712 domain, for EIP-3009
	// (exact) payments.
	Name, Version string
	// Decimals converts whole tokens to atomic units.
	Decimals uint8
	// Peg is the currency the token is pegged to 1:1 (PegUSD), or empty
	// for a token whose price floats.
	Peg string
	// Chain names the network for people, such as "Base Sepolia".
	Chain string
}

// USDPegged reports whether t is pegged 1:1 to the US dollar, so that a
// price in dollars is a price in whole tokens.
func (t Token) USDPegged() bool { return t.Peg == PegUSD }

// known is the table. Circle publishes USDC's addresses at
// developers.circle.com/stablecoins/usdc-contract-addresses; the EIP-712
// names are what each contract's DOMAIN_SEPARATOR was built with ("USDC"
// on Base Sepolia, "USD Coin" elsewhere), version "2" for FiatToken v2.
//
// NERO (689 testnet, 1689 mainnet) is not in it: NERO documents no
// EIP-3009 stablecoin (its testnet's DEMO-USDT,
// 0x9a2eabdecda3eae051bca75fbe71a3dbdb35f9d4, 6 decimals, has none), so
// its tokens are given by address, without a domain, and paid with
// aa-native.
var known = []Token{
	usdc("eip155:1", "Ethereum", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USD Coin"),
	usdc("eip155:10", "OP Mainnet", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", "USD Coin"),
	usdc("eip155:137", "Polygon PoS", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", "USD Coin"),
	usdc("eip155:8453", "Base", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "USD Coin"),
	usdc("eip155:42161", "Arbitrum One", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "USD Coin"),
	usdc("eip155:84532", "Base Sepolia", "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "USDC"),
}

// usdc is Circle's USDC (FiatToken v2) on a network.
func usdc(network, chain, address, name string) Token {
	return Token{
		Network: network, Chain: chain, Symbol: "USDC", Address: common.HexToAddress(address),
		Name: name, Version: "2", Decimals: 6, Peg: PegUSD,
	}
}

// All returns the table, ordered by chain id.
func All() []Token { return slices.Clone(known) }

// Lookup returns the token that symbol names on network (a CAIP-2 id),
// case-insensitively. Its error lists the symbols the network has, or
// the networks that have a table entry.
func Lookup(network, symbol string) (Token, error) {
	var have []string
	for _, t := range known {
		if t.Network != network {
			continue
		}
		if strings.EqualFold(t.Symbol, symbol) {
			return t, nil
		}
		have = append(have, strings.ToLower(t.Symbol))
	}
	if len(have) == 0 {
		return Token{}, fmt.Errorf("no token is known by name on network %s (known on %s); give the token's address, EIP-712 name and version, and decimals", network, strings.Join(Networks(), ", "))
	}
	return Token{}, fmt.Errorf("%q is not a token known on network %s (known: %s); give the token's address, EIP-712 name and version, and decimals", symbol, network, strings.Join(have, ", "))
}

// ByAddress returns the table's token at address on network, if any.
func ByAddress(network string, address common.Address) (Token, bool) {
	for _, t := range known {
		if t.Network == network && t.Address == address {
			return t, true
		}
	}
	return Token{}, false
}

// ElsewhereThan returns the table's tokens at address on networks other
// than network: an address given on a network where the table does not
// have it, but another network does, is most likely that network's token
// (issuers' addresses differ from chain to chain).
func ElsewhereThan(network string, address common.Address) []Token {
	var out []Token
	for _, t := range known {
		if t.Network != network && t.Address == address {
			out = append(out, t)
		}
	}
	return out
}

// Networks are the CAIP-2 ids that have a token in the table, in its
// order.
func Networks() []string {
	var out []string
	for _, t := range known {
		if !slices.Contains(out, t.Network) {
			out = append(out, t.Network)
		}
	}
	return out
}

// DevUSDSymbol is the name of the embedded dev chain's stablecoin in a
// configuration: `asset dusd`.
const DevUSDSymbol = "dusd"

// DevUSD is the embedded dev chain's stablecoin on network (its CAIP-2
// id, which follows the dev chain's chain id): a demo token anyone can
// mint, pegged to nothing in fact, but priced in dollars like the USDC it
// stands in for. It is named dusd, never usdc, so that a configuration
// that asks for USDC is never satisfied by a token that is free to mint.
func DevUSD(network string) Token {
	return Token{
		Network: network, Chain: "devnet", Symbol: wellknown.TokenSymbol, Address: wellknown.GenesisContracts().Token,
		Name: wellknown.TokenName, Version: wellknown.TokenVersion, Decimals: wellknown.TokenDecimals, Peg: PegUSD,
	}
}
