package bundler

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

func TestDecodeEntryPoints(t *testing.T) {
	t.Parallel()
	v06 := common.HexToAddress("0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789")
	v07 := common.HexToAddress("0x0000000071727De22E5E9d8BAf0edAc6f37da032")
	for _, tc := range []struct {
		name string
		raw  string
		want []common.Address // nil: refused
	}{
		{"both", `["0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789","0x0000000071727De22E5E9d8BAf0edAc6f37da032"]`, []common.Address{v06, v07}},
		{"lowercase", `["0x0000000071727de22e5e9d8baf0edac6f37da032"]`, []common.Address{v07}},
		{"none", `[]`, []common.Address{}},
		{"null", `null`, nil},
		{"a string", `"0x0000000071727De22E5E9d8BAf0edAc6f37da032"`, nil},
		{"numbers", `[1]`, nil},
		{"no 0x", `["0000000071727De22E5E9d8BAf0edAc6f37da032"]`, nil},
		{"short", `["0x71727De22E5E9d8BAf0edAc6f37da032"]`, nil},
		{"a hash", `["0x` + strings.Repeat("ab", 32) + `"]`, nil},
		{"not hex", `["0x0000000071727De22E5E9d8BAf0edAc6f37da03g"]`, nil},
		{"an object", `{"entryPoints":[]}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := decodeEntryPoints([]byte(tc.raw))
			if tc.want == nil {
				if err == nil {
					t.Fatalf("decoded %v, want a refusal", got)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("decoded %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestHost(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string]string{
		"https://api.pimlico.io/v2/8453/rpc?apikey=SECRET": "api.pimlico.io",
		"http://127.0.0.1:4337/rpc":                        "127.0.0.1:4337",
		"http://user:SECRET@bundler.example/":              "bundler.example",
		"::":                                               "(an unparsable URL)",
	} {
		if got := Host(raw); got != want {
			t.Errorf("Host(%q) = %q, want %q", raw, got, want)
		}
	}
}

// FuzzDecodeEntryPoints: any answer decodes to addresses or is refused,
// never panics, and what decodes is what the answer spelled.
func FuzzDecodeEntryPoints(f *testing.F) {
	for _, seed := range []string{
		`["0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789","0x0000000071727De22E5E9d8BAf0edAc6f37da032"]`,
		`[]`, `null`, `[1]`, `["0x"]`, `"x"`, `[["0x0000000071727De22E5E9d8BAf0edAc6f37da032"]]`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		eps, err := decodeEntryPoints(raw)
		if err != nil {
			if eps != nil || errors.Is(err, ErrNoAnswer) {
				t.Fatalf("refused with addresses %v, or as no answer: %v", eps, err)
			}
			return
		}
		var list []string
		if json.Unmarshal(raw, &list) != nil || len(list) != len(eps) {
			t.Fatalf("decoded %d addresses from %q", len(eps), raw)
		}
		for i, s := range list {
			if !strings.EqualFold(s, eps[i].Hex()) {
				t.Fatalf("entry %d %q decoded as %s", i, s, eps[i])
			}
		}
	})
}
