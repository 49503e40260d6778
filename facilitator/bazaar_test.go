package facilitator

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestBazaarDeclaration checks a declaration without Caddy: what Validate
// refuses, and the extension and discovery entry a valid one makes.
func TestBazaarDeclaration(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		b      Bazaar
		origin string
		want   string // "" for valid
	}{
		{"valid GET", Bazaar{Path: "/weather", InputSchema: json.RawMessage(`{"properties":{"city":{"type":"string"}}}`)}, "https://shop.example", ""},
		{"valid POST by body type", Bazaar{Path: "/echo", BodyType: "text"}, "https://shop.example", ""},
		{"no origin", Bazaar{Path: "/a"}, "", "needs the route's origin"},
		{"a reference", Bazaar{Path: "/a", OutputSchema: json.RawMessage(`{"$ref":"https://evil.example/"}`)}, "https://shop.example", "$ref is not allowed"},
		{"oversized", Bazaar{Path: "/a", InputSchema: json.RawMessage(`{"description":"` + strings.Repeat("a", MaxBazaarSchema) + `"}`)}, "https://shop.example", "allowed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			err := tc.b.Validate(tc.origin)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("Validate = %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			ext, err := tc.b.Extension()
			if err != nil {
				t.Fatal(err)
			}
			var decl struct {
				Info struct {
					Input struct {
						Type, Method string
					}
				}
				Schema map[string]any
			}
			if err := json.Unmarshal(ext, &decl); err != nil || decl.Info.Input.Type != "http" || decl.Schema["type"] != "object" {
				t.Fatalf("extension %s: %v", ext, err)
			}
			if want := map[string]string{"/weather": "GET", "/echo": "POST"}[tc.b.Path]; decl.Info.Input.Method != want {
				t.Errorf("method %q, want %q", decl.Info.Input.Method, want)
			}
			e := tc.b.Entry(tc.origin+"/", "d", "application/json", nil, ext)
			if e.Resource != tc.origin+tc.b.Path || string(e.Extensions["bazaar"]) != string(ext) {
				t.Errorf("entry %+v", e)
			}
		})
	}
}
