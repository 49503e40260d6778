package caddymodule

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/caddyserver/caddy/v2/caddyconfig"
)

// dockerfileEnv is the environment examples/Dockerfile's ENV lines set
// (KEY=value pairs, a value possibly empty).
func dockerfileEnv(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "examples", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	pair := regexp.MustCompile(`([A-Z_][A-Z0-9_]*)=("[^"]*"|\S*)`)
	for _, line := range strings.Split(string(raw), "\n") {
		if !strings.HasPrefix(line, "ENV ") {
			continue
		}
		for _, m := range pair.FindAllStringSubmatch(line, -1) {
			env[m[1]] = strings.Trim(m[2], `"`)
		}
	}
	return env
}

// TestContainerCaddyfile: the demo's Caddyfile as the container image runs
// it, with the environment examples/Dockerfile sets (issue 41). Without a
// password of the user's, the config is refused, naming basic_auth: the
// demo's documented password never guards a port other machines reach.
// With one, the dashboard listens on every interface at its published
// port, 4339, under the user's hash; the paid API, the facilitator and the
// paymaster are on their published ports too. Run as `go run` runs it
// (none of that environment), the dashboard stays on the loopback
// interface under the demo's password.
func TestContainerCaddyfile(t *testing.T) {
	demo, err := os.ReadFile(filepath.Join("..", "Caddyfile.example"))
	if err != nil {
		t.Fatal(err)
	}
	env := dockerfileEnv(t)
	for _, k := range []string{"X402_DASHBOARD_SITE", "X402_DASHBOARD_BIND", "X402_DASHBOARD_HASH"} {
		if _, ok := env[k]; !ok {
			t.Fatalf("examples/Dockerfile sets no %s", k)
		}
	}
	if env["X402_DASHBOARD_HASH"] != "" {
		t.Fatal("examples/Dockerfile gives the dashboard a password; the user must set it")
	}
	listens := func(t *testing.T) map[string][]string {
		t.Helper()
		out, _, err := caddyconfig.GetAdapter("caddyfile").Adapt(demo, map[string]any{"filename": "Caddyfile.example"})
		if err != nil {
			t.Fatalf("adapting: %v", err)
		}
		var cfg struct {
			Apps struct {
				HTTP struct {
					Servers map[string]struct {
						Listen []string          `json:"listen"`
						Routes []json.RawMessage `json:"routes"`
					} `json:"servers"`
				} `json:"http"`
			} `json:"apps"`
		}
		if err := json.Unmarshal(out, &cfg); err != nil {
			t.Fatal(err)
		}
		got := map[string][]string{}
		for _, s := range cfg.Apps.HTTP.Servers {
			routes, _ := json.Marshal(s.Routes)
			for _, l := range s.Listen {
				got[l] = append(got[l], string(routes))
			}
		}
		return got
	}
	const userHash = "$2a$14$Zkx19XLiW6VYouLHR5NmfOFU0z2GTNmpkT/5qqR7hx4IjWJPDhjvG"

	t.Run("no password", func(t *testing.T) {
		for k, v := range env {
			t.Setenv(k, v)
		}
		_, _, err := caddyconfig.GetAdapter("caddyfile").Adapt(demo, map[string]any{"filename": "Caddyfile.example"})
		if err == nil || !strings.Contains(err.Error(), "basic_auth") {
			t.Fatalf("the container's Caddyfile without a password: %v, want basic_auth's refusal", err)
		}
	})
	t.Run("the user's password", func(t *testing.T) {
		for k, v := range env {
			t.Setenv(k, v)
		}
		t.Setenv("X402_DASHBOARD_HASH", userHash)
		got := listens(t)
		dash := got["0.0.0.0:4339"]
		if len(dash) != 1 || !strings.Contains(dash[0], "x402_dashboard") || !strings.Contains(dash[0], userHash) || strings.Contains(dash[0], "aS5sHZZFtGPknBDnhMaU") {
			t.Fatalf("the dashboard's server: %v; want it on 0.0.0.0:4339 under the user's hash alone (listening: %v)", dash, keys(got))
		}
		for _, port := range []string{":8080", ":4021", ":4338"} {
			if _, ok := got[port]; !ok {
				t.Errorf("nothing listens on %s, a port the image publishes (listening: %v)", port, keys(got))
			}
		}
	})
	t.Run("go run", func(t *testing.T) {
		for k := range env {
			if strings.HasPrefix(k, "X402_DASHBOARD_") {
				t.Setenv(k, "")
				os.Unsetenv(k) // restored by t.Setenv's cleanup
			}
		}
		dash := listens(t)["127.0.0.1:4339"]
		if len(dash) != 1 || !strings.Contains(dash[0], "aS5sHZZFtGPknBDnhMaU") {
			t.Fatalf("the demo's dashboard: %v; want it on 127.0.0.1:4339 under the demo's password", dash)
		}
	})
}

// keys is m's keys, sorted.
func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
