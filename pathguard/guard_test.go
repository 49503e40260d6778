package pathguard

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// TestGuardHandler runs the guard as plain net/http middleware in front of
// a handler, over a real connection, and checks what reaches the handler
// and what the client is answered.
func TestGuardHandler(t *testing.T) {
	t.Parallel()
	var reached atomic.Int32
	var refused atomic.Int32
	g := &Guard{
		Resources: func(origin string) []string { return []string{origin + "/paid/report"} },
		Refused:   func(*http.Request, Refusal) { refused.Add(1) },
	}
	srv := httptest.NewServer(g.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reached.Add(1)
		io.WriteString(w, "upstream")
	})))
	t.Cleanup(srv.Close)

	tests := []struct {
		method, target string
		status         int
		reason         Refusal
		upstream       bool
	}{
		{"GET", "/paid/report?x=;", http.StatusOK, "", true},
		{"GET", "/paid;x/report", http.StatusBadRequest, PathParameter, false},
		{"GET", "/paid%255Creport", http.StatusBadRequest, Backslash, false},
		{"GET", "/free/%2e%2e/paid/report", http.StatusBadRequest, DotSegment, false},
		{"GET", "/paid%ff", http.StatusBadRequest, BadEncoding, false},
		{"GET", "/.well-known/oauth-protected-resource/paid", http.StatusOK, "", false},
		{"POST", "/.well-known/oauth-protected-resource", http.StatusMethodNotAllowed, "", false},
		{"GET", "/.well-known/oauth-protected-resourcex", http.StatusOK, "", true},
	}
	for _, tc := range tests {
		before, refusedBefore := reached.Load(), refused.Load()
		status, header, body := rawRequest(t, srv.Listener.Addr().String(), tc.method, tc.target)
		if status != tc.status {
			t.Errorf("%s %s: status %d, want %d (%s)", tc.method, tc.target, status, tc.status, body)
			continue
		}
		if got := reached.Load() > before; got != tc.upstream {
			t.Errorf("%s %s: upstream reached %v, want %v", tc.method, tc.target, got, tc.upstream)
		}
		if tc.upstream {
			continue
		}
		if ct := header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("%s %s: Content-Type %q", tc.method, tc.target, ct)
		}
		if tc.reason != "" {
			var b Body
			if err := json.Unmarshal([]byte(body), &b); err != nil || b.Error != "path_refused" || b.Reason != tc.reason || b.Message != tc.reason.Message() {
				t.Errorf("%s %s: body %q (%v), want reason %s", tc.method, tc.target, body, err, tc.reason)
			}
			if refused.Load() != refusedBefore+1 {
				t.Errorf("%s %s: Refused not called", tc.method, tc.target)
			}
		}
		if tc.status == http.StatusOK {
			var md struct {
				Resource  string   `json:"resource"`
				Resources []string `json:"x402_resources"`
			}
			if err := json.Unmarshal([]byte(body), &md); err != nil {
				t.Fatalf("metadata %q: %v", body, err)
			}
			origin := "http://" + srv.Listener.Addr().String()
			if md.Resource != origin+"/paid" || len(md.Resources) != 1 || md.Resources[0] != origin+"/paid/report" {
				t.Errorf("metadata %+v", md)
			}
		}
	}
}

// rawRequest sends target as written (no client-side cleaning) and reads
// the answer.
func rawRequest(t *testing.T, addr, method, target string) (int, http.Header, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, method+" "+target+" HTTP/1.1\r\nHost: "+addr+"\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, strings.TrimSpace(string(body))
}
