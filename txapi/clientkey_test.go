package txapi

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
)

// The faucet's per-client limit counts an IPv6 client by its /64. Once
// three draws of a /64 are counted, eight more addresses of that /64 are
// refused (keyed by the whole address, each was a new client and drew,
// so one /64 could empty the day's budget), while another /64 still
// draws. IPv4-mapped IPv6 is the IPv4 client it maps. The requests go
// through the real handler with the default client address (RemoteAddr),
// and the tokens of every draw are checked on chain.
func TestFaucetClientLimitIPv6Prefix(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.mutate = func(c *Config) { c.FaucetPerClient, c.ClientIP = 3, nil }
	e.start()
	type draw struct {
		remote string
		status int
		code   string
	}
	draws := []draw{
		{"[2001:db8:5:6::1]:40001", 201, ""},
		{"[2001:db8:5:6::2]:40002", 201, ""},
		{"[2001:db8:5:6:8000::3]:40003", 201, ""},
	}
	for _, host := range []string{"::4", "::5", ":1::6", ":ffff::7", ":ffff:ffff:ffff:ffff", ":abcd:1234::8", "::9", "::a"} {
		draws = append(draws, draw{"[2001:db8:5:6" + host + "]:40100", 429, "faucet_client_limit"})
	}
	draws = append(draws,
		draw{"[2001:db8:5:7::1]:40200", 201, ""}, // another /64
		draw{"10.9.9.9:5000", 201, ""},
		draw{"[::ffff:10.9.9.9]:5001", 201, ""},
		draw{"10.9.9.9:5002", 201, ""},
		draw{"[::ffff:10.9.9.9]:5003", 429, "faucet_client_limit"}, // the IPv4 client's fourth
	)
	tok := contracts.NewDevUSD()
	var served []string
	for i, d := range draws {
		key, _ := crypto.GenerateKey()
		to := crypto.PubkeyToAddress(key.PublicKey)
		req := httptest.NewRequest("POST", "/api/v1/userFaucet", strings.NewReader(`{"name":"dev","address":"`+to.Hex()+`","amount":"2","gasPrice":"1.5"}`))
		req.Header.Set("Content-Type", "application/json")
		req.RemoteAddr = d.remote
		w := httptest.NewRecorder()
		e.svc.ServeHTTP(w, req)
		a, err := readAnswer(w.Result())
		if err != nil {
			t.Fatal(err)
		}
		if a.status != d.status || a.err.Code != d.code {
			t.Fatalf("draw %d from %s: %d %+v, want %d %q", i, d.remote, a.status, a.err, d.status, d.code)
		}
		if a.status == 201 {
			served = append(served, a.rec.ID)
			continue
		}
		out, _ := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &e.chain.Token.Address, Data: tok.PackBalanceOf(to)}, nil)
		if bal, _ := tok.UnpackBalanceOf(out); bal.Sign() != 0 {
			t.Fatalf("a refused draw from %s holds %s tokens", d.remote, bal)
		}
	}
	for _, id := range served {
		rec := e.waitConfirmed(id)
		out, _ := e.eth.CallContract(context.Background(), ethereum.CallMsg{To: &e.chain.Token.Address, Data: tok.PackBalanceOf(common.HexToAddress(rec.To))}, nil)
		if bal, _ := tok.UnpackBalanceOf(out); bal.Int64() != 2_000_000 {
			t.Fatalf("served draw %s: %s tokens at %s, want 2", id, bal, rec.To)
		}
	}
}
