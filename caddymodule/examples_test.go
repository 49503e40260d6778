package caddymodule

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"go.yaml.in/yaml/v3"
)

// TestExampleCaddyfilesFormatted: the demo's Caddyfile and the
// Caddyfiles of the Kubernetes ConfigMaps are as `caddy fmt` writes them,
// so that a merchant who copies one and runs caddy fmt sees no change.
func TestExampleCaddyfilesFormatted(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	demo, err := os.ReadFile(filepath.Join("..", "Caddyfile.example"))
	if err != nil {
		t.Fatal(err)
	}
	files["Caddyfile.example"] = string(demo)
	for _, manifest := range []string{"kubernetes/sidecar.yaml", "kubernetes/fleet/fleet.yaml"} {
		raw, err := os.ReadFile(filepath.Join("..", "examples", manifest))
		if err != nil {
			t.Fatal(err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		for {
			var doc struct {
				Kind string            `yaml:"kind"`
				Data map[string]string `yaml:"data"`
			}
			if err := dec.Decode(&doc); err != nil {
				break
			}
			if cf, ok := doc.Data["Caddyfile"]; ok && doc.Kind == "ConfigMap" {
				files[manifest] = cf
			}
		}
		if files[manifest] == "" {
			t.Fatalf("%s has no ConfigMap with a Caddyfile", manifest)
		}
	}
	for name, cf := range files {
		if got := string(caddyfile.Format([]byte(cf))); got != cf {
			t.Errorf("%s's Caddyfile is not as caddy fmt writes it; caddy fmt gives:\n%s", name, got)
		}
	}
}
