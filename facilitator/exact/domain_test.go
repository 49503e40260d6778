package exact

import (
	"bytes"
	"context"
	"errors"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/devnet"
)

// withoutEIP5267 is the devnet's chain as a token without ERC-5267 shows
// it (USDC's FiatToken has DOMAIN_SEPARATOR(), name() and version(), but
// no eip712Domain()): eip712Domain() reverts, the rest is the chain's.
type withoutEIP5267 struct{ *rpc.Client }

func (c withoutEIP5267) BatchCallContext(ctx context.Context, b []rpc.BatchElem) error {
	var keep []rpc.BatchElem
	var at []int
	for i, e := range b {
		if args, ok := e.Args[0].(callArgs); ok && bytes.Equal(args.Data, selEIP712Domain) {
			b[i].Error = errors.New("execution reverted")
			continue
		}
		keep, at = append(keep, e), append(at, i)
	}
	if err := c.Client.BatchCallContext(ctx, keep); err != nil {
		return err
	}
	for j, i := range at {
		b[i] = keep[j]
	}
	return nil
}

// TestCheckTokens reads the devnet's DevUSD (which has ERC-5267's
// eip712Domain()) and refuses each wrong configuration naming the right
// values; read without eip712Domain(), as USDC is, DOMAIN_SEPARATOR()
// with name() and version() still find the right values. An address
// without a token is refused; a chain that does not answer is an error
// that is no mismatch.
func TestCheckTokens(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := devnet.Start(ctx, devnet.Config{Addr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	ctx = context.Background() // the subtests run after this function returns
	t.Cleanup(func() { d.Close() })
	c, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	tok := d.Token.Address
	right := `give: asset ` + tok.Hex() + ` "Devnet USD" "1" 6`
	cases := []struct {
		name  string
		asset Asset
		want  []string // in the error; none: agrees
	}{
		{"right", Asset{Address: tok, Name: "Devnet USD", Version: "1", Decimals: 6}, nil},
		{"decimals unchecked", Asset{Address: tok, Name: "Devnet USD", Version: "1"}, nil},
		{"aa-native only", Asset{Address: tok, Decimals: 6}, nil},
		{"wrong name", Asset{Address: tok, Name: "Devnet USDX", Version: "1", Decimals: 6}, []string{`name "Devnet USD" version "1", not name "Devnet USDX" version "1"`, right}},
		{"wrong version", Asset{Address: tok, Name: "Devnet USD", Version: "2", Decimals: 6}, []string{`not name "Devnet USD" version "2"`, right}},
		{"wrong decimals", Asset{Address: tok, Name: "Devnet USD", Version: "1", Decimals: 18}, []string{"the token has 6 decimals, not 18", right}},
		{"wrong decimals, aa-native", Asset{Address: tok, Decimals: 18}, []string{"6 decimals, not 18", "give: asset " + tok.Hex() + " 6"}},
		{"no token", Asset{Address: common.HexToAddress("0x00000000000000000000000000000000000000aa"), Name: "USD Coin", Version: "2", Decimals: 6}, []string{"no ERC-20 token answers at that address"}},
		{"not a token", Asset{Address: d.Contracts.EntryPoint, Name: "USD Coin", Version: "2", Decimals: 6}, []string{"no ERC-20 token answers"}},
	}
	for _, chain := range []struct {
		name  string
		chain Chain
	}{{"eip712Domain", c}, {"DOMAIN_SEPARATOR", withoutEIP5267{c}}} {
		t.Run(chain.name, func(t *testing.T) {
			t.Parallel()
			assets := make([]Asset, len(cases))
			for i, tc := range cases {
				assets[i] = tc.asset
			}
			errs := CheckTokens(ctx, chain.chain, d.ChainID, assets)
			for i, tc := range cases {
				err := errs[i]
				if tc.want == nil {
					if err != nil {
						t.Errorf("%s: %v", tc.name, err)
					}
					continue
				}
				var m *TokenMismatch
				if !errors.As(err, &m) || !errors.Is(err, ErrTokenMismatch) {
					t.Errorf("%s: %v, want a TokenMismatch", tc.name, err)
					continue
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: %v, want %q", tc.name, err, w)
					}
				}
			}
		})
	}
	t.Run("other chain id", func(t *testing.T) {
		t.Parallel()
		err := CheckTokens(ctx, c, big.NewInt(8453), []Asset{{Address: tok, Name: "Devnet USD", Version: "1"}})[0]
		if !errors.Is(err, ErrTokenMismatch) || !strings.Contains(err.Error(), "chain 31337") {
			t.Fatalf("%v, want a mismatch of the chain id", err)
		}
	})
	t.Run("chain down", func(t *testing.T) {
		t.Parallel()
		down, err := rpc.Dial("http://127.0.0.1:1")
		if err != nil {
			t.Fatal(err)
		}
		defer down.Close()
		err = CheckTokens(ctx, down, d.ChainID, []Asset{{Address: tok, Name: "Devnet USDX", Version: "1"}})[0]
		if err == nil || errors.Is(err, ErrTokenMismatch) {
			t.Fatalf("%v, want an error that is no mismatch", err)
		}
	})
}

// FuzzTokenAnswers: whatever a token answers to the five reads, decoding
// and comparing it neither panics nor takes an answer that does not name
// the configured domain for one that does.
func FuzzTokenAnswers(f *testing.F) {
	word := func(b byte) []byte { w := make([]byte, 32); w[31] = b; return w }
	f.Add([]byte{}, []byte{}, []byte{}, word(6), word(1))
	f.Add(word(0x0f), append(word(32), word(3)...), []byte("x"), word(255), []byte{1, 2})
	f.Fuzz(func(t *testing.T, domain, name, version, decimals, separator []byte) {
		a := Asset{Address: common.HexToAddress("0x00000000000000000000000000000000000000aa"), Name: "USD Coin", Version: "2", Decimals: 6}
		var st tokenState
		for j, out := range [][]byte{domain, name, version, decimals, separator} {
			st.decode(j, out)
		}
		err := st.compare(a, big.NewInt(8453))
		if err == nil && st.domain == nil && (st.separator == nil || *st.separator != DomainSeparator(a.Name, a.Version, big.NewInt(8453), a.Address)) &&
			(st.name == nil || *st.name != a.Name || st.version == nil || *st.version != a.Version) {
			t.Fatalf("took a token whose answers do not name the domain: %+v", st)
		}
	})
}
