package x402

import (
	"errors"
	"math/big"
	"testing"
)

func TestDecimal(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in       string
		decimals uint8
		want     string // atomic units, or "" for a refusal
		back     string // FormatDecimal of the result
	}{
		{"0.01", 6, "10000", "0.01"},
		{"25.5", 6, "25500000", "25.5"},
		{"3", 6, "3000000", "3"},
		{".5", 6, "500000", "0.5"},
		{"1.", 6, "1000000", "1"},
		{"0.1", 18, "100000000000000000", "0.1"},
		{"0.000000001", 9, "1", "0.000000001"},
		{"0.0000001", 6, "", ""},
		{"0", 6, "", ""},
		{"-1", 6, "", ""},
		{"1e3", 6, "", ""},
		{"1.2.3", 6, "", ""},
		{"", 6, "", ""},
		{".", 6, "", ""},
	} {
		v, err := ParseDecimal(tc.in, tc.decimals)
		if tc.want == "" {
			if err == nil || !errors.Is(err, ErrDecimal) {
				t.Errorf("ParseDecimal(%q) = %v, %v; want a refusal", tc.in, v, err)
			}
			continue
		}
		if err != nil || v.String() != tc.want {
			t.Errorf("ParseDecimal(%q, %d) = %v, %v; want %s", tc.in, tc.decimals, v, err, tc.want)
			continue
		}
		if got := FormatDecimal(v, tc.decimals); got != tc.back {
			t.Errorf("FormatDecimal(%s, %d) = %q, want %q", v, tc.decimals, got, tc.back)
		}
	}
	if got := FormatDecimal(big.NewInt(-15), 1); got != "-1.5" {
		t.Errorf("negative: %q", got)
	}
}

func FuzzParseDecimal(f *testing.F) {
	f.Add("0.01", uint8(6))
	f.Add("123456789.123456789", uint8(18))
	f.Fuzz(func(t *testing.T, s string, decimals uint8) {
		v, err := ParseDecimal(s, decimals%40)
		if err != nil {
			return
		}
		back, err := ParseDecimal(FormatDecimal(v, decimals%40), decimals%40)
		if err != nil || back.Cmp(v) != 0 {
			t.Fatalf("%q → %s → %q does not round trip: %v", s, v, FormatDecimal(v, decimals%40), err)
		}
	})
}
