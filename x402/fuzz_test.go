package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// seedGolden adds the golden inputs, encoded as headers, to a fuzz corpus.
func seedGolden(f *testing.F, names ...string) {
	for _, n := range names {
		raw, err := os.ReadFile(filepath.Join("testdata", "golden", n+".input.json"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(base64.StdEncoding.EncodeToString(raw))
		f.Add(base64.RawURLEncoding.EncodeToString(raw))
	}
	f.Add("")
	f.Add("====")
	f.Add("e30=")
}

// checkDecodeError asserts that every decoding failure is classified.
func checkDecodeError(t *testing.T, err error) {
	var tl *HeaderTooLargeError
	if !errors.Is(err, ErrMalformedHeader) && !errors.As(err, &tl) {
		t.Fatalf("unclassified error: %v", err)
	}
}

func FuzzDecodePaymentPayload(f *testing.F) {
	seedGolden(f, "payment_payload_exact", "payment_payload_aanative")
	f.Fuzz(func(t *testing.T, value string) {
		p, err := DecodePaymentPayload(value)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		// A decoded payload is valid and survives a round trip.
		if err := p.Validate(); err != nil {
			t.Fatalf("decoded but invalid: %v", err)
		}
		s, err := EncodeHeader(p)
		if err != nil {
			var tl *HeaderTooLargeError
			if errors.As(err, &tl) {
				return // re-encoding can grow (escaping)
			}
			t.Fatal(err)
		}
		if _, err := DecodePaymentPayload(s); err != nil {
			t.Fatalf("re-decoding: %v", err)
		}
	})
}

func FuzzDecodePaymentRequired(f *testing.F) {
	seedGolden(f, "payment_required")
	f.Fuzz(func(t *testing.T, value string) {
		p, err := DecodePaymentRequired(value)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if len(p.Accepts) == 0 {
			t.Fatal("decoded a challenge without offers")
		}
	})
}

func FuzzDecodePaymentResponse(f *testing.F) {
	seedGolden(f, "settle_response_success", "settle_response_upstream_failure")
	// @x402/express's receipt: no x402Version.
	f.Add(base64.StdEncoding.EncodeToString([]byte(`{"success":true,"payer":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","transaction":"0xabcd","network":"eip155:84532","amount":"1000"}`)))
	f.Fuzz(func(t *testing.T, value string) {
		r, err := DecodePaymentResponse(value)
		if err != nil {
			checkDecodeError(t, err)
			return
		}
		if r.X402Version != Version || r.Network == "" {
			t.Fatalf("decoded a receipt of version %d on network %q", r.X402Version, r.Network)
		}
		raw, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back SettleResponse
		if err := json.Unmarshal(raw, &back); err != nil || back != *r {
			t.Fatalf("round trip: %+v != %+v (%v)", back, *r, err)
		}
	})
}

func FuzzVerifyRequestJSON(f *testing.F) {
	raw, err := os.ReadFile(filepath.Join("testdata", "golden", "verify_request.input.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(raw)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"paymentPayload":null}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var req VerifyRequest
		if json.Unmarshal(body, &req) != nil {
			return
		}
		_ = req.Validate() // must not panic
	})
}

func FuzzParseNetwork(f *testing.F) {
	for _, s := range []string{"eip155:1", "eip155:31337", "solana:x", "eip155:01", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := ParseNetwork(s)
		if err != nil {
			return
		}
		if FormatNetwork(id) != s {
			t.Fatalf("ParseNetwork(%q) = %d, which formats as %q", s, id, FormatNetwork(id))
		}
	})
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"0", "1", "10000", "01", "-1", "1.5", "9999999999999999999", "18446744073709551615", "18446744073709551616"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseAmount(s)
		if err != nil {
			return
		}
		if v.String() != s || v.Sign() < 0 || v.Cmp(maxUint256) > 0 {
			t.Fatalf("ParseAmount(%q) = %s", s, v)
		}
	})
}

func FuzzParseAddress(f *testing.F) {
	f.Add("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC")
	f.Add("0x")
	f.Fuzz(func(t *testing.T, s string) {
		if _, err := ParseAddress(s); err == nil && len(s) != 42 {
			t.Fatalf("ParseAddress(%q) accepted a %d-byte string", s, len(s))
		}
	})
}
