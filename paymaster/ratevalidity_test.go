package paymaster

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
)

// A token's RateValidity is derived from its markup at
// VolatilityBpsPerMinute, within [MinRateValidity, MaxRateValidity], unless
// it is configured; a configured one outside those bounds is refused.
func TestRateValidity(t *testing.T) {
	t.Parallel()
	bps := func(n int) *int { return &n }
	tok := common.HexToAddress("0x1000000000000000000000000000000000000001")
	tests := []struct {
		name    string
		token   Token
		want    time.Duration
		wantErr string
	}{
		{"default markup", Token{}, 5 * time.Minute, ""},
		{"no markup", Token{MarkupBps: bps(0)}, MinRateValidity, ""},
		{"1.5%", Token{MarkupBps: bps(150)}, MinRateValidity, ""},
		{"2.5%", Token{MarkupBps: bps(250)}, 150 * time.Second, ""},
		{"10%", Token{MarkupBps: bps(1000)}, 10 * time.Minute, ""},
		{"1000%", Token{MarkupBps: bps(100_000)}, MaxRateValidity, ""},
		{"configured", Token{RateValidity: 2 * time.Minute}, 2 * time.Minute, ""},
		{"configured past the markup", Token{MarkupBps: bps(100), RateValidity: 30 * time.Minute}, 30 * time.Minute, ""},
		{"too short", Token{RateValidity: time.Minute}, 0, "rate validity 1m0s must be from 2m0s to 1h0m0s"},
		{"too long", Token{RateValidity: 2 * time.Hour}, 0, "rate validity 2h0m0s must be from"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.token.Address, tc.token.Price = tok, big.NewRat(3000, 1)
			err := validateTokens([]Token{tc.token}, []EntryPointConfig{{TokenPaymaster: tok}})
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("validateTokens: %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := tc.token.withDefaults().RateValidity; got != tc.want {
				t.Fatalf("RateValidity %s, want %s", got, tc.want)
			}
		})
	}
}

// Through the paymaster's JSON-RPC on the devnet: a token operation
// (types 1 and 2, v0.6 and v0.7, pm_sponsor_userop and ERC-7677's
// pm_getPaymasterStubData) that asks for a validUntil further ahead than
// its token's RateValidity (5 minutes for the default 5% markup, 2 minutes
// as configured here) is refused with -32602, its data giving the latest
// validUntil it may ask for; one within it is signed until what it asked;
// one that asks for none is signed for the shorter of the service's
// validity (10 minutes) and the token's RateValidity. Type 0 is not held
// to it.
func TestTokenGasRateValidity(t *testing.T) {
	t.Parallel()
	e := newEnvV07(t)
	e.restart(func(c *Config) {
		c.EntryPoints[0].TokenPaymaster, c.EntryPoints[1].TokenPaymaster = e.chain.Contracts.TokenPaymaster, e.chain.Contracts.TokenPaymasterV07
		c.Tokens = []Token{{Address: e.chain.Token.Address, Price: dUSDPerETH}}
	})
	a := e.tokenAccount(50_000_000, true)
	a7 := e.tokenAccountV07(50_000_000, true)
	tok := e.chain.Token.Address.Hex()
	ep6, ep7 := e.chain.Contracts.EntryPoint.Hex(), e.chain.Contracts.EntryPointV07.Hex()

	res, _ := e.call(e.readOnly, "pm_supported_tokens", map[string]any{}, ep6)
	var st SupportedTokens
	if res.Error != nil || json.Unmarshal(res.Result, &st) != nil || len(st.Tokens) != 1 || st.Tokens[0].RateValidity != 300 {
		t.Fatalf("pm_supported_tokens: %s %+v; want rateValidity 300", res.Result, res.Error)
	}

	// validUntil of a signed answer, v0.6 or v0.7.
	signedUntil := func(t *testing.T, v07 bool, raw json.RawMessage) uint64 {
		t.Helper()
		if v07 {
			var op ep07.UserOperationHex
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatal(err)
			}
			dec, err := op.Decode(false)
			if err != nil {
				t.Fatal(err)
			}
			terms, _, err := ep07.DecodeTokenPaymasterData(dec.PaymasterData)
			if err != nil {
				t.Fatal(err)
			}
			return terms.ValidUntil
		}
		op := decodeOp(t, raw)
		if len(op.PaymasterAndData) != contracts.TokenPaymasterDataLength {
			return 0 // a type 0 operation: the VerifyingPaymaster's
		}
		_, terms, _, err := contracts.DecodeTokenPaymasterAndData(op.PaymasterAndData)
		if err != nil {
			t.Fatal(err)
		}
		return terms.ValidUntil
	}
	// Nothing is bundled: every operation is the account's next, nonce 1.
	const nonce6, nonce7 = 1, 1
	tests := []struct {
		name   string
		method string
		v07    bool
		ty     int
		ahead  time.Duration // validUntil asked for, ahead of now; 0 none
		rateV  time.Duration // the token's RateValidity; 0 the default
		refuse bool
		want   time.Duration // the validity signed, when no validUntil is asked for
	}{
		{"type 1, an hour", "pm_sponsor_userop", false, TypePrepay, time.Hour, 0, true, 0},
		{"type 2, 6 minutes", "pm_sponsor_userop", false, TypePostpay, 6 * time.Minute, 0, true, 0},
		{"type 1, 4 minutes", "pm_sponsor_userop", false, TypePrepay, 4 * time.Minute, 0, false, 0},
		{"type 2, none", "pm_sponsor_userop", false, TypePostpay, 0, 0, false, 5 * time.Minute},
		{"type 0, 30 minutes", "pm_sponsor_userop", false, TypeFree, 30 * time.Minute, 0, false, 0},
		{"v0.7 type 1, an hour", "pm_sponsor_userop", true, TypePrepay, time.Hour, 0, true, 0},
		{"v0.7 type 2, 4 minutes", "pm_sponsor_userop", true, TypePostpay, 4 * time.Minute, 0, false, 0},
		{"stub, type 2, an hour", "pm_getPaymasterStubData", false, TypePostpay, time.Hour, 0, true, 0},
		{"configured 2 minutes, type 1, 3 minutes", "pm_sponsor_userop", false, TypePrepay, 3 * time.Minute, 2 * time.Minute, true, 0},
		{"configured 2 minutes, type 2, none", "pm_sponsor_userop", false, TypePostpay, 0, 2 * time.Minute, false, 2 * time.Minute},
	}
	for _, tc := range tests {
		// Not parallel: one service, whose tokens each case sets.
		t.Run(tc.name, func(t *testing.T) {
			if err := e.svc.SetTokens([]Token{{Address: e.chain.Token.Address, Price: dUSDPerETH, RateValidity: tc.rateV}}); err != nil {
				t.Fatal(err)
			}
			sc := map[string]any{"type": tc.ty, "token": tok}
			before := time.Now().Unix()
			var asked uint64
			if tc.ahead > 0 {
				asked = uint64(before + int64(tc.ahead/time.Second))
				sc["validUntil"] = asked
			}
			var params []any
			switch {
			case tc.v07:
				params = []any{unsignedV07(e, a7, nonce7, false, e.settleCallV07(1)), ep7, sc}
			case tc.method == "pm_getPaymasterStubData":
				params = []any{unsigned(a, nonce6, false, e.settleCall(e.chain.Token.Address, 1)), ep6, "0x7a69", sc}
			default:
				params = []any{unsigned(a, nonce6, false, e.settleCall(e.chain.Token.Address, 1)), ep6, sc}
			}
			res, _ := e.call(e.sponsor, tc.method, params...)
			after := time.Now().Unix()
			if tc.refuse {
				if res.Error == nil || res.Error.Code != codeInvalidParams || !strings.Contains(res.Error.Message, "is signed for at most") {
					t.Fatalf("%s: %s %+v; want -32602", tc.method, res.Result, res.Error)
				}
				data, _ := json.Marshal(res.Error.Data)
				var d struct{ MaxValidUntil, RateValidity int64 }
				rv := tc.rateV
				if rv == 0 {
					rv = 5 * time.Minute
				}
				if json.Unmarshal(data, &d) != nil || d.RateValidity != int64(rv/time.Second) || d.MaxValidUntil < before+d.RateValidity || d.MaxValidUntil > after+d.RateValidity {
					t.Fatalf("error data %s", data)
				}
				return
			}
			if res.Error != nil {
				t.Fatalf("%s: %+v", tc.method, res.Error)
			}
			got := signedUntil(t, tc.v07, res.Result)
			switch {
			case tc.ty == TypeFree:
			case asked != 0 && got != asked:
				t.Fatalf("signed until %d, asked %d", got, asked)
			case asked == 0 && (int64(got) < before+int64(tc.want/time.Second) || int64(got) > after+int64(tc.want/time.Second)):
				t.Fatalf("signed until %d, want %s after the call (%d to %d)", got, tc.want, before, after)
			}
		})
	}
}
