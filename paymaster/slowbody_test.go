package paymaster

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A body trickled slower than BodyTimeout is answered 408 in JSON.
func TestSlowBodyIsCutOff(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.svc.cfg.BodyTimeout = 300 * time.Millisecond // before any request
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(string(body), `"jsonrpc":"2.0"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
