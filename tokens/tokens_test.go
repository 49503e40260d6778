package tokens

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestLookup: `usdc` names Circle's USDC on each listed network, with
// its published address and EIP-712 domain, whatever its case; a network
// without a table entry, or a symbol the network lacks, is refused with
// what is known.
func TestLookup(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		network, symbol, address, name string
	}{
		{"eip155:8453", "usdc", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "USD Coin"},
		{"eip155:84532", "USDC", "0x036CbD53842c5426634e7929541eC2318f3dCF7e", "USDC"},
		{"eip155:1", "Usdc", "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "USD Coin"},
		{"eip155:10", "usdc", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", "USD Coin"},
		{"eip155:42161", "usdc", "0xaf88d065e77c8cC2239327C5EDb3A432268e5831", "USD Coin"},
		{"eip155:137", "usdc", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", "USD Coin"},
	} {
		t.Run(tc.network, func(t *testing.T) {
			t.Parallel()
			tok, err := Lookup(tc.network, tc.symbol)
			if err != nil {
				t.Fatal(err)
			}
			if tok.Address != common.HexToAddress(tc.address) || tok.Name != tc.name || tok.Version != "2" || tok.Decimals != 6 || !tok.USDPegged() || tok.Symbol != "USDC" {
				t.Fatalf("%+v", tok)
			}
			if got, ok := ByAddress(tc.network, tok.Address); !ok || got != tok {
				t.Fatalf("ByAddress: %+v %v", got, ok)
			}
		})
	}
	for _, tc := range []struct{ network, symbol, want string }{
		{"eip155:689", "usdc", "no token is known by name on network eip155:689"},
		{"eip155:1689", "usdt", "no token is known by name on network eip155:1689"},
		{"eip155:8453", "usdt", `"usdt" is not a token known on network eip155:8453 (known: usdc)`},
		{"eip155:8453", "dusd", "not a token known"},
	} {
		if _, err := Lookup(tc.network, tc.symbol); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Lookup(%s, %s): %v, want %q", tc.network, tc.symbol, err, tc.want)
		}
	}
}

// TestTable: every entry is whole, and no network lists a symbol or an
// address twice.
func TestTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, tok := range All() {
		if tok.Network == "" || tok.Symbol == "" || tok.Address == (common.Address{}) || tok.Name == "" || tok.Version == "" || tok.Decimals == 0 || tok.Chain == "" {
			t.Errorf("incomplete: %+v", tok)
		}
		for _, k := range []string{tok.Network + "|" + strings.ToLower(tok.Symbol), tok.Network + "|" + tok.Address.Hex()} {
			if seen[k] {
				t.Errorf("%s twice", k)
			}
			seen[k] = true
		}
	}
	if d := DevUSD("eip155:31337"); d.Symbol != "dUSD" || !d.USDPegged() || d.Name != "Devnet USD" {
		t.Errorf("DevUSD: %+v", d)
	}
}
