package x402

import (
	"strings"
	"testing"
)

func TestParseNetwork(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    uint64
		wantErr string
	}{
		{"eip155:1", 1, ""},
		{"eip155:8453", 8453, ""},
		{"eip155:31337", 31337, ""},
		{"eip155:18446744073709551615", 18446744073709551615, ""},
		{"eip155:18446744073709551616", 0, "fits in 64 bits"},
		{"eip155:0", 0, "leading zeros"},
		{"eip155:01", 0, "leading zeros"},
		{"eip155:-1", 0, "positive decimal"},
		{"eip155:abc", 0, "positive decimal"},
		{"solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", 0, "namespace \"solana\" is not supported"},
		{"base-sepolia", 0, "not a CAIP-2 id"},
		{"eip155:", 0, "not a CAIP-2 id"},
		{"EIP155:1", 0, "not a CAIP-2 id"},
		{"eip155:1:2", 0, "not a CAIP-2 id"},
		{"", 0, "not a CAIP-2 id"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			got, err := ParseNetwork(tc.in)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("ParseNetwork(%q) err = %v, want one containing %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("ParseNetwork(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
			}
			if s := FormatNetwork(got); s != tc.in {
				t.Fatalf("FormatNetwork(%d) = %q, want %q", got, s, tc.in)
			}
		})
	}
}
