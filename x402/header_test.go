package x402

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func samplePayload() PaymentPayload {
	return PaymentPayload{
		X402Version: Version,
		Accepted: PaymentRequirements{
			Scheme: SchemeExact, Network: "eip155:31337", Amount: "10000",
			Asset:             "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707",
			PayTo:             "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
			MaxTimeoutSeconds: 60,
			Extra:             &Extra{Name: "Devnet USD", Version: "1"},
		},
		// Chosen so that its base64 contains '+' and '/' in the standard
		// alphabet, which tells the two alphabets apart.
		Payload: json.RawMessage(`{"signature":"0x??>>??","k":"~~~~"}`),
	}
}

func TestEncodeHeaderIsPaddedStandardBase64(t *testing.T) {
	t.Parallel()
	s, err := EncodeHeader(samplePayload())
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(s, "-_") {
		t.Fatalf("encoded value uses the URL alphabet: %s", s)
	}
	if len(s)%4 != 0 {
		t.Fatalf("encoded value is not padded: len %d", len(s))
	}
	if _, err := base64.StdEncoding.DecodeString(s); err != nil {
		t.Fatalf("atob-compatible decoding fails: %v", err)
	}
}

func TestDecodeHeaderAlphabets(t *testing.T) {
	t.Parallel()
	want := samplePayload()
	raw, _ := json.Marshal(want)
	if !strings.ContainsAny(base64.StdEncoding.EncodeToString(raw), "+/") {
		t.Fatal("sample does not exercise the alphabet difference")
	}
	tests := []struct {
		name  string
		value string
	}{
		{"std padded", base64.StdEncoding.EncodeToString(raw)},
		{"std raw", base64.RawStdEncoding.EncodeToString(raw)},
		{"url padded", base64.URLEncoding.EncodeToString(raw)},
		{"url raw", base64.RawURLEncoding.EncodeToString(raw)},
		{"surrounding space", "  " + base64.StdEncoding.EncodeToString(raw) + " "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := DecodePaymentPayload(tc.value)
			if err != nil {
				t.Fatalf("DecodePaymentPayload: %v", err)
			}
			ga, wa := got.Accepted, want.Accepted
			if *ga.Extra != *wa.Extra {
				t.Fatalf("extra = %+v, want %+v", *ga.Extra, *wa.Extra)
			}
			ga.Extra, wa.Extra = nil, nil
			if ga != wa {
				t.Fatalf("accepted = %+v, want %+v", ga, wa)
			}
			var gp, wp map[string]string
			if err := json.Unmarshal(got.Payload, &gp); err != nil {
				t.Fatal(err)
			}
			_ = json.Unmarshal(want.Payload, &wp)
			if gp["signature"] != wp["signature"] || gp["k"] != wp["k"] {
				t.Fatalf("payload = %v, want %v", gp, wp)
			}
		})
	}
}

func TestDecodeHeaderRejects(t *testing.T) {
	t.Parallel()
	valid, _ := EncodeHeader(samplePayload())
	wrongVersion := samplePayload()
	wrongVersion.X402Version = 1
	v1, _ := EncodeHeader(wrongVersion)
	noPayload := samplePayload()
	noPayload.Payload = json.RawMessage(`"text"`)
	np, _ := EncodeHeader(noPayload)

	tests := []struct {
		name      string
		value     string
		tooLarge  bool
		malformed bool
	}{
		{"empty", "", false, true},
		{"not base64", "!!!not-base64!!!", false, true},
		{"mixed alphabets", strings.Replace(valid, valid[4:5], "+", 1)[:len(valid)-2] + "-_", false, true},
		{"base64 of garbage", base64.StdEncoding.EncodeToString([]byte("\x00\xffgarbage")), false, true},
		{"json array", base64.StdEncoding.EncodeToString([]byte(`[1,2]`)), false, true},
		{"trailing json", base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2} {}`)), false, true},
		{"version 1", v1, false, true},
		{"payload not object", np, false, true},
		{"truncated", valid[:len(valid)/2], false, true},
		{"over limit", strings.Repeat("A", MaxHeaderSize+1), true, false},
		{"at limit but garbage", strings.Repeat("A", MaxHeaderSize), false, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := DecodePaymentPayload(tc.value)
			if err == nil {
				t.Fatal("decoded; want an error")
			}
			var tl *HeaderTooLargeError
			if got := errors.As(err, &tl); got != tc.tooLarge {
				t.Errorf("HeaderTooLargeError = %v, want %v (%v)", got, tc.tooLarge, err)
			}
			if got := errors.Is(err, ErrMalformedHeader); got != tc.malformed {
				t.Errorf("ErrMalformedHeader = %v, want %v (%v)", got, tc.malformed, err)
			}
		})
	}
}

func TestEncodeHeaderTooLarge(t *testing.T) {
	t.Parallel()
	p := samplePayload()
	p.Payload = json.RawMessage(`{"pad":"` + strings.Repeat("x", MaxHeaderSize) + `"}`)
	_, err := EncodeHeader(p)
	var tl *HeaderTooLargeError
	if !errors.As(err, &tl) || tl.Size <= MaxHeaderSize {
		t.Fatalf("err = %v, want HeaderTooLargeError over the limit", err)
	}
}

func TestDecodePaymentResponse(t *testing.T) {
	t.Parallel()
	ours := SettleResponse{Success: true, X402Version: 2, Network: "eip155:31337", TransactionHash: "0x01", Scheme: SchemeExact}
	for _, tc := range []struct {
		name  string
		value any // encoded with EncodeHeader
		want  *SettleResponse
	}{
		{"ours", ours, &ours},
		{
			// What @x402/express 2.27.0 sends after a settle.
			"upstream express",
			map[string]any{"success": true, "payer": "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", "transaction": "0xabcd", "network": "eip155:84532", "amount": "1000"},
			&SettleResponse{Success: true, X402Version: 2, Payer: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", TransactionHash: "0xabcd", Network: "eip155:84532", Amount: "1000"},
		},
		{
			"upstream failure",
			map[string]any{"success": false, "errorReason": "insufficient_funds", "transaction": "", "network": "eip155:84532"},
			&SettleResponse{X402Version: 2, ErrorCode: "insufficient_funds", Network: "eip155:84532"},
		},
		{"another version", map[string]any{"success": true, "x402Version": 1, "transaction": "0xabcd", "network": "base-sepolia"}, nil},
		{"no network", map[string]any{"success": true, "transaction": "0xabcd"}, nil},
		{"empty object", map[string]any{}, nil},
		{"null", nil, nil},
		{"an array", []int{1}, nil},
		{"a string", "0xabcd", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s, err := EncodeHeader(tc.value)
			if err != nil {
				t.Fatal(err)
			}
			got, err := DecodePaymentResponse(s)
			if tc.want == nil {
				if !errors.Is(err, ErrMalformedHeader) {
					t.Fatalf("decoded %+v, %v; want ErrMalformedHeader", got, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if *got != *tc.want {
				t.Fatalf("got %+v, want %+v", *got, *tc.want)
			}
		})
	}
}

func TestDecodePaymentRequired(t *testing.T) {
	t.Parallel()
	pr := PaymentRequired{X402Version: 2, Resource: &Resource{URL: "http://x/paid"}, Accepts: []PaymentRequirements{samplePayload().Accepted}}
	s, err := EncodeHeader(pr)
	if err != nil {
		t.Fatal(err)
	}
	got, err := DecodePaymentRequired(s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Accepts[0].Amount != "10000" || got.Resource.URL != "http://x/paid" {
		t.Fatalf("got %+v", got)
	}
	pr.Accepts = nil
	empty, _ := EncodeHeader(pr)
	if _, err := DecodePaymentRequired(empty); !errors.Is(err, ErrMalformedHeader) {
		t.Fatalf("no offers: err = %v", err)
	}
}
