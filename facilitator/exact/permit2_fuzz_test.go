package exact

import (
	"encoding/json"
	"testing"
)

// FuzzIsPermit2 checks isPermit2's shortcut against encoding/json: for
// any payload, it says what decoding the key would say.
func FuzzIsPermit2(f *testing.F) {
	for _, s := range []string{
		`{"signature":"0x01","authorization":{"from":"0x01"}}`,
		`{"permit2Authorization":{"from":"0x01"},"signature":"0x02"}`,
		`{"PERMIT2AUTHORIZATION":{}}`,
		`{"permit2\u0041uthorization":{}}`,
		`{"permit2Authorization":null}`,
		`{"permit2Authorization":1`,
		`[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var shape struct {
			Authorization json.RawMessage `json:"permit2Authorization"`
		}
		want := json.Unmarshal(payload, &shape) == nil && shape.Authorization != nil
		if got := isPermit2(payload); got != want {
			t.Fatalf("isPermit2(%q) = %v, encoding/json says %v", payload, got, want)
		}
	})
}
