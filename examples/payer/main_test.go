package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestPayerSays: what the payer prints when the server is busy (503: retry,
// never "no payment was needed"), and that a key given with -key draws a
// warning, since ps shows it.
func TestPayerSays(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		goCmd = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	bin := filepath.Join(t.TempDir(), "payer")
	if out, err := exec.Command(goCmd, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer busy.Close()
	tests := []struct {
		name string
		args []string
		env  string
		want []string
	}{
		{"busy", []string{"-url", busy.URL}, "", []string{"the server is busy (503): retry after 2 s"}},
		{"wallet not an address", []string{"-url", busy.URL, "-wallet", "wallet"}, "", []string{"-wallet and -wallet-factory take 0x addresses"}},
		{"wallet through a busy server", []string{"-url", busy.URL, "-wallet", "0x000000000000000000000000000000000000a11e"}, "", []string{"wallet 0x000000000000000000000000000000000000A11E, signed for by", "the server is busy (503)"}},
		{"key on the command line", []string{"-url", busy.URL, "-key", "59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"}, "", []string{"warning: -key puts the private key where ps", "the server is busy (503)"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(os.Environ(), "X402_KEY="+tc.env)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Errorf("the payer exited 0 on a 503:\n%s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("the payer printed\n%s\nwithout %q", out, w)
				}
			}
			if strings.Contains(string(out), "no payment was needed") {
				t.Errorf("the payer says no payment was needed after a 503:\n%s", out)
			}
		})
	}
}
