package facilitator

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// trickle sends a POST whose body stops after a few bytes, and returns the
// answer, which must come within a few seconds.
func trickle(t *testing.T, url, path string, header string) (*http.Response, string) {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n%sContent-Length: 1000\r\n\r\n{\"x", path, header)
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("%s: no answer to a stalled body: %v", path, err)
	}
	body, _ := io.ReadAll(resp.Body)
	return resp, string(body)
}

// A body trickled slower than BodyTimeout is answered 408 in JSON: a slow
// client (1 byte every 19 s used to hold /settle open for minutes) cannot
// hold the facilitator's requests open.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	srv := httptest.NewServer(&Handler{Facilitator: e.svc, Network: e.network, BodyTimeout: 300 * time.Millisecond})
	t.Cleanup(srv.Close)
	for _, path := range []string{"/verify", "/settle", "/sponsor"} {
		began := time.Now()
		resp, body := trickle(t, srv.URL, path, "")
		if resp.StatusCode != http.StatusRequestTimeout || resp.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %s", path, resp.StatusCode, body)
		}
		t.Logf("%s answered %d after %v", path, resp.StatusCode, time.Since(began).Round(time.Millisecond))
	}
}
