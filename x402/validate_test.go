package x402

import (
	"encoding/hex"
	"strings"
	"testing"
)

func TestParseAmount(t *testing.T) {
	t.Parallel()
	max := "115792089237316195423570985008687907853269984665640564039457584007913129639935"
	tests := []struct {
		in string
		ok bool
	}{
		{"0", true}, {"1", true}, {"10000", true}, {max, true},
		{"115792089237316195423570985008687907853269984665640564039457584007913129639936", false},
		{"", false}, {"01", false}, {"-1", false}, {"+1", false}, {"1.5", false},
		{"0x10", false}, {"1e6", false}, {" 1", false}, {"１", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			v, err := ParseAmount(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseAmount(%q) err = %v, want ok=%v", tc.in, err, tc.ok)
			}
			if tc.ok && v.String() != tc.in {
				t.Fatalf("ParseAmount(%q) = %s", tc.in, v)
			}
			if SameAmount(tc.in, tc.in) != tc.ok {
				t.Fatalf("SameAmount(%q, %q) = %v", tc.in, tc.in, !tc.ok)
			}
		})
	}
}

func TestParseAddress(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in string
		ok bool
	}{
		{"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", true},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc", true},
		{"3c44cdddb6a900fa2b585dd299e03d12fa4293bc", false},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa4293b", false},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa4293bcd", false},
		{"0X3c44cdddb6a900fa2b585dd299e03d12fa4293bc", false},
		{"0xzz44cdddb6a900fa2b585dd299e03d12fa4293bc", false},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa4293bg", false},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa4293b\x00", false},
		{"0x3c44cdddb6a900fa2b585dd299e03d12fa429é", false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			a, err := ParseAddress(tc.in)
			if (err == nil) != tc.ok {
				t.Fatalf("ParseAddress(%q) err = %v, want ok=%v", tc.in, err, tc.ok)
			}
			if want, _ := hex.DecodeString(tc.in[2:]); tc.ok && string(a[:]) != string(want) {
				t.Fatalf("ParseAddress(%q) = %x, want %x", tc.in, a, want)
			}
		})
	}
}

func TestRequirementsValidate(t *testing.T) {
	t.Parallel()
	good := samplePayload().Accepted
	tests := []struct {
		name    string
		mutate  func(*PaymentRequirements)
		wantErr string
	}{
		{"valid", func(*PaymentRequirements) {}, ""},
		{"no scheme", func(r *PaymentRequirements) { r.Scheme = "" }, "scheme is missing"},
		{"bad network", func(r *PaymentRequirements) { r.Network = "base" }, "not a CAIP-2 id"},
		{"zero amount", func(r *PaymentRequirements) { r.Amount = "0" }, "greater than zero"},
		{"decimal amount", func(r *PaymentRequirements) { r.Amount = "0.01" }, "atomic units"},
		{"bad asset", func(r *PaymentRequirements) { r.Asset = "usdc" }, "asset:"},
		{"bad payTo", func(r *PaymentRequirements) { r.PayTo = "" }, "payTo:"},
		{"negative timeout", func(r *PaymentRequirements) { r.MaxTimeoutSeconds = -1 }, "maxTimeoutSeconds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			r := good
			tc.mutate(&r)
			err := r.Validate()
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestVerifyRequestValidate(t *testing.T) {
	t.Parallel()
	p := samplePayload()
	req := VerifyRequest{PaymentPayload: p, PaymentRequirements: p.Accepted}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	req.X402Version = 1
	if err := req.Validate(); err == nil {
		t.Fatal("x402Version 1 accepted")
	}
	req.X402Version = 2
	req.PaymentRequirements.Asset = "x"
	if err := req.Validate(); err == nil || !strings.Contains(err.Error(), "paymentRequirements: asset") {
		t.Fatalf("err = %v", err)
	}
}

func TestErrorResponse(t *testing.T) {
	t.Parallel()
	err := Invalid(ReasonAmountMismatch, "accepted.amount %s differs from the required %s", "5", "10")
	if err.Error() != "amount_mismatch: accepted.amount 5 differs from the required 10" {
		t.Fatalf("Error() = %q", err.Error())
	}
	r := err.Response("0xabc")
	if r.IsValid || r.InvalidReason != ReasonAmountMismatch || r.Payer != "0xabc" || !strings.Contains(r.InvalidMessage, "differs") {
		t.Fatalf("Response = %+v", r)
	}
}

// TestSameAmount: amounts are the same only when both are valid and
// equal; one amount has one spelling.
func TestSameAmount(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b string
		same bool
	}{
		{"10000", "10000", true}, {"0", "0", true}, {"10000", "10001", false},
		{"010000", "10000", false}, {"010000", "010000", false}, {"", "", false}, {"1.0", "1.0", false},
	}
	for _, tc := range tests {
		t.Run(tc.a+"="+tc.b, func(t *testing.T) {
			t.Parallel()
			if got := SameAmount(tc.a, tc.b); got != tc.same {
				t.Fatalf("SameAmount(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
			}
		})
	}
}
