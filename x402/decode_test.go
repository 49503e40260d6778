package x402

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestFastFieldNames holds fastJSON's field lists to the wire types' JSON
// tags: a field added to a type must be decoded by fastJSON too.
func TestFastFieldNames(t *testing.T) {
	t.Parallel()
	cases := []struct {
		typ    any
		fields []string
	}{
		{VerifyRequest{}, verifyRequestFields},
		{PaymentPayload{}, paymentPayloadFields},
		{Resource{}, resourceFields},
		{PaymentRequirements{}, paymentRequirementsFields},
		{Extra{}, extraFields},
		{ExactPayload{}, exactPayloadFields},
		{ExactAuthorization{}, exactAuthorizationFields},
	}
	for _, tc := range cases {
		typ := reflect.TypeOf(tc.typ)
		t.Run(typ.Name(), func(t *testing.T) {
			t.Parallel()
			var tags []string
			for f := range typ.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				tags = append(tags, name)
			}
			if !slices.Equal(tags, tc.fields) {
				t.Fatalf("JSON names %q, fastJSON decodes %q", tags, tc.fields)
			}
		})
	}
}

// golden reads a golden input of testdata.
func golden(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".input.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exactBody is a verify request as bench/verify and upstream clients write
// it.
const exactBody = `{"x402Version":2,"paymentPayload":{"x402Version":2,"resource":{"url":"http://127.0.0.1/paid/bench"},"accepted":{"scheme":"exact","network":"eip155:31337","amount":"10000","asset":"0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9","payTo":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","maxTimeoutSeconds":3600,"extra":{"name":"Devnet USD","version":"1"}},"payload":{"signature":"0xbeedbf29d72248e9b983d169a4dbe1735f47853265d032b70cae5c1c9d0e4c0e103ff3a7fc62e1d24334768c1fee55f4d83f6728ab5dc85443c32bcbf3dd8f681b","authorization":{"from":"0x70997970C51812dc3A010C7d01b50e0d17dc79C8","to":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","value":"10000","validAfter":"1795377527","validBefore":"1795381727","nonce":"0xe37a76a85db5094e3aec178618ecce7b29cb948bc4244fd86c17d2f2683d77db"}}},"paymentRequirements":{"scheme":"exact","network":"eip155:31337","amount":"10000","asset":"0xCf7Ed3AccA5a467e9e704C703E8D87F634fB0Fc9","payTo":"0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC","maxTimeoutSeconds":3600,"extra":{"name":"Devnet USD","version":"1"}}}`

// TestParseVerifyRequest checks that ParseVerifyRequest decodes as
// json.Unmarshal does, and which inputs take the fast path.
func TestParseVerifyRequest(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		body string
		fast bool
	}{
		{"client body", exactBody, true},
		{"golden, with unknown fields and null extra", string(golden(t, "verify_request")), true},
		{"white space", " {\n\t\"x402Version\" : 2 ,\r\n \"paymentRequirements\" : { \"scheme\" : \"exact\" } }\n", true},
		{"nulls", `{"x402Version":null,"paymentPayload":{"resource":null,"accepted":null,"payload":null,"extensions":null},"paymentRequirements":{"scheme":null,"extra":null}}`, true},
		{"null then a value", `{"paymentRequirements":{"extra":{"name":"a"},"extra":null}}`, true},
		{"the merchant's resource", `{"resource":{"url":"http://shop.test/paid/report","description":"a report","mimeType":"application/json"},"paymentPayload":{"resource":{"url":"https://evil.example/other"}}}`, true},
		{"null merchant's resource", `{"resource":null}`, true},
		{"duplicate objects merge", `{"paymentRequirements":{"extra":{"name":"a"},"extra":{"version":"1"}}}`, true},
		{"duplicate strings: the last wins", `{"paymentRequirements":{"scheme":"a","scheme":"b"}}`, true},
		{"negative and zero numbers", `{"x402Version":-0,"paymentRequirements":{"maxTimeoutSeconds":-12}}`, true},
		{"unknown values of every kind", `{"u":[1,-2.5e+3,true,false,null,{"a":[]},"s"],"v":{},"w":0.1E-2}`, true},
		{"empty", ``, false},
		{"null document", `null`, false},
		{"an array", `[]`, false},
		{"trailing value", `{} {}`, false},
		{"escaped string", `{"paymentRequirements":{"scheme":"ex\u0061ct"}}`, false},
		{"non-ASCII string", `{"paymentRequirements":{"scheme":"exäct"}}`, false},
		{"key in another case", `{"paymentRequirements":{"Scheme":"exact"}}`, false},
		{"fraction in an int", `{"x402Version":2.0}`, false},
		{"exponent in an int", `{"x402Version":2e0}`, false},
		{"leading zero", `{"x402Version":02}`, false},
		{"int too large", `{"x402Version":99999999999999999999}`, false},
		{"string for an int", `{"x402Version":"2"}`, false},
		{"number for a string", `{"paymentRequirements":{"scheme":1}}`, false},
		{"unterminated", `{"paymentRequirements":{"scheme":"exact"`, false},
		{"bad literal", `{"paymentPayload":{"payload":nul}}`, false},
		{"bad number", `{"u":-}`, false},
		{"missing colon", `{"x402Version" 2}`, false},
		{"trailing comma", `{"x402Version":2,}`, false},
		{"control character", "{\"paymentRequirements\":{\"scheme\":\"a\tb\"}}", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newFastJSON([]byte(tc.body))
			var fast VerifyRequest
			if got := d.document(func() bool { return d.verifyRequest(&fast) }); got != tc.fast {
				t.Errorf("fast path taken: %v, want %v", got, tc.fast)
			}
			checkLikeUnmarshal(t, []byte(tc.body))
		})
	}
}

// checkLikeUnmarshal checks that ParseVerifyRequest and ParseExactPayload
// give what json.Unmarshal gives for data.
func checkLikeUnmarshal(t *testing.T, data []byte) {
	t.Helper()
	var want VerifyRequest
	wantErr := json.Unmarshal(data, &want)
	got, err := ParseVerifyRequest(data)
	switch {
	case (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error():
		t.Fatalf("ParseVerifyRequest error %v, json.Unmarshal %v", err, wantErr)
	case err == nil && !reflect.DeepEqual(*got, want):
		t.Fatalf("ParseVerifyRequest %+v, json.Unmarshal %+v", *got, want)
	}
	owned, err := ParseVerifyRequestOwning(bytes.Clone(data))
	switch {
	case (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error():
		t.Fatalf("ParseVerifyRequestOwning error %v, json.Unmarshal %v", err, wantErr)
	case err == nil && !reflect.DeepEqual(*owned, want):
		t.Fatalf("ParseVerifyRequestOwning %+v, json.Unmarshal %+v", *owned, want)
	}
	var wantExact ExactPayload
	wantErr = json.Unmarshal(data, &wantExact)
	gotExact, err := ParseExactPayload(data)
	switch {
	case (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error():
		t.Fatalf("ParseExactPayload error %v, json.Unmarshal %v", err, wantErr)
	case err == nil && !reflect.DeepEqual(*gotExact, wantExact):
		t.Fatalf("ParseExactPayload %+v, json.Unmarshal %+v", *gotExact, wantExact)
	}
}

// TestParseVerifyRequestOwning: a request decoded from a body it keeps
// reads its strings from the body, and appending to its raw fields never
// writes into the body.
func TestParseVerifyRequestOwning(t *testing.T) {
	t.Parallel()
	body := []byte(exactBody)
	r, err := ParseVerifyRequestOwning(body)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ParseVerifyRequest([]byte(exactBody))
	if err != nil {
		t.Fatal(err)
	}
	_ = append(r.PaymentPayload.Payload, "garbage"...)
	if string(body) != exactBody {
		t.Fatal("appending to a raw field wrote into the body")
	}
	if !reflect.DeepEqual(r, want) {
		t.Fatalf("owning %+v, copying %+v", r, want)
	}
}

// TestParseExactPayload checks the exact payload's fast path.
func TestParseExactPayload(t *testing.T) {
	t.Parallel()
	var r VerifyRequest
	if err := json.Unmarshal([]byte(exactBody), &r); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		body string
		fast bool
	}{
		{"client payload", string(r.PaymentPayload.Payload), true},
		{"null authorization", `{"signature":"0x00","authorization":null}`, true},
		{"unknown fields", `{"signature":"0x00","authorization":{"from":"0x01","extra":[1]},"x":1}`, true},
		{"key in another case", `{"Signature":"0x00"}`, false},
		{"number for a string", `{"authorization":{"value":10000}}`, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			d := newFastJSON([]byte(tc.body))
			var fast ExactPayload
			if got := d.document(func() bool { return d.exactPayload(&fast) }); got != tc.fast {
				t.Errorf("fast path taken: %v, want %v", got, tc.fast)
			}
			checkLikeUnmarshal(t, []byte(tc.body))
		})
	}
}

// FuzzParseVerifyRequest holds ParseVerifyRequest and ParseExactPayload to
// json.Unmarshal: the same values and the same errors for any input.
func FuzzParseVerifyRequest(f *testing.F) {
	f.Add([]byte(exactBody))
	for _, n := range []string{"verify_request", "payment_payload_exact", "payment_payload_aanative", "payment_required"} {
		f.Add(golden(f, n))
	}
	f.Add([]byte(`{"signature":"0x00","authorization":{"from":"0x01","value":"1"}}`))
	f.Add([]byte(`{"paymentRequirements":{"extra":{"name":"a"},"extra":null,"EXTRA":{}}}`))
	f.Add([]byte(`{"u":[1,-2.5e+3,true,false,null,{"a":[]},"s"]}`))
	f.Add([]byte(`{"paymentRequirements":{"scheme":"batch-settlement","extra":{"receiverAuthorizer":"0x01","withdrawDelay":900,"name":"USDC","version":"2"}}}`))
	f.Add([]byte(`{"paymentRequirements":{"extra":{"withdrawDelay":9e2,"channelState":{"channelId":"0x01","balance":"5"},"voucherState":{}}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		checkLikeUnmarshal(t, data)
	})
}

func BenchmarkParseVerifyRequest(b *testing.B) {
	body := []byte(exactBody)
	b.Run("Parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			r, err := ParseVerifyRequest(body)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := ParseExactPayload(r.PaymentPayload.Payload); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Unmarshal", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r VerifyRequest
			if err := json.Unmarshal(body, &r); err != nil {
				b.Fatal(err)
			}
			var p ExactPayload
			if err := json.Unmarshal(r.PaymentPayload.Payload, &p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
