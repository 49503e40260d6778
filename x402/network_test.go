package x402

import (
	"strconv"
	"strings"
	"testing"
)

func FuzzParseNetworkFastPath(f *testing.F) {
	for _, s := range []string{"eip155:1", "eip155:8453", "eip155:+1", "eip155:01", "eip155:1_0", "eip155:18446744073709551616", "solana:x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, network string) {
		// The fast path answers as the regular expression does.
		got, err := ParseNetwork(network)
		var want uint64
		var wantErr bool
		if m := caip2.FindStringSubmatch(network); m == nil || m[1] != "eip155" || m[2][0] == '0' {
			wantErr = true
		} else if v, perr := strconv.ParseUint(m[2], 10, 64); perr != nil {
			wantErr = true
		} else {
			want = v
		}
		if (err != nil) != wantErr || got != want {
			t.Fatalf("ParseNetwork(%q) = %d, %v; the CAIP-2 syntax says %d, error %v", network, got, err, want, wantErr)
		}
	})
}

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
		{"eip155:1000000000000000000", 1000000000000000000, ""},
		{"eip155:+1", 0, "not a CAIP-2 id"},
		{"eip155:1_0", 0, "positive decimal"},
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
