package batchsettlement

import (
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/common"
)

// TestCheckContracts: the devnet's contracts pass the start-up check; a
// settlement address with no code, or with another contract's, fails it
// with a message that says what is wrong.
func TestCheckContracts(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, tc := range []struct {
		name       string
		settlement common.Address
		want       string
	}{
		{"the canonical contracts", common.Address{}, ""},
		{"no contract", common.HexToAddress("0x00000000000000000000000000000000000000b5"), "no code at"},
		{"another contract", e.d.Token.Address, "EIP-712 domain is (\"Devnet USD\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := e.s.cfg
			cfg.Settlement = tc.settlement
			if tc.settlement == (common.Address{}) {
				cfg.Settlement = e.d.Contracts.BatchSettlement
			}
			s, err := New(cfg)
			if err != nil {
				t.Fatal(err)
			}
			err = s.CheckContracts(e.ctx())
			if tc.want == "" {
				if err != nil {
					t.Fatalf("the devnet's contracts failed the check: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("check: %v, want an error saying %q", err, tc.want)
			}
			t.Logf("refused: %v", err)
		})
	}
}
