package dashboard

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"math/big"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

// raw makes an admin API request with Content-Type ct (none if empty), as
// "tester", and returns the recorder.
func (f *fixture) raw(method, path, body, ct string) *httptest.ResponseRecorder {
	f.t.Helper()
	r := httptest.NewRequest(method, "/x402"+path, strings.NewReader(body))
	if ct != "" {
		r.Header.Set("Content-Type", ct)
	}
	r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, "tester"))
	w := httptest.NewRecorder()
	f.api.ServeHTTP(w, r)
	return w
}

// TestAdminAPIWantsJSON: every state-changing call of the admin API, with
// a body or without one, is refused with 415 unless it declares
// application/json, and changes nothing: a web page can make a browser
// send a cross-site POST without a preflight only with a form's or plain
// text's content type (or none).
func TestAdminAPIWantsJSON(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	limits := `"limits":{"txPerMinute":5,"maxInFlight":3,"dailyGasCap":"1000"}`
	if code := f.call("POST", "/projects", `{"name":"shop","network":"testnet",`+limits+`}`, nil); code != http.StatusCreated {
		t.Fatalf("creating a project: %d", code)
	}
	var nk NewKeyView
	if code := f.call("POST", "/keys", `{"project":"shop","scopes":["paymaster:read"]}`, &nk); code != http.StatusCreated {
		t.Fatalf("creating a key: %d", code)
	}
	var audit struct{ Entries []Entry }
	f.call("GET", "/audit", "", &audit)
	logged := len(audit.Entries)

	routes := []struct{ method, path, body string }{
		{"POST", "/projects", `{"name":"forged","network":"testnet",` + limits + `}`},
		{"PATCH", "/projects/shop", `{"limits":{"txPerMinute":1,"maxInFlight":1,"dailyGasCap":"1"}}`},
		{"POST", "/projects/shop/topups", `{"amount":"1000"}`},
		{"POST", "/keys", `{"project":"shop","scopes":["paymaster:sponsor"]}`},
		{"POST", "/keys/" + nk.Record.ID + "/rotate", ``},
		{"POST", "/keys/" + nk.Record.ID + "/disable", ``},
		{"POST", "/keys/" + nk.Record.ID + "/disable", `{}`},
	}
	types := []string{
		"", // none: what fetch sends for a body-less no-cors POST
		"text/plain", "text/plain;charset=UTF-8",
		"application/x-www-form-urlencoded",
		"multipart/form-data; boundary=x",
		"application/jsonx", "text/json", "application/json-patch+json",
		"application/json;;", // does not parse
	}
	for _, rt := range routes {
		for _, ct := range types {
			t.Run(rt.method+" "+rt.path+" as "+ct, func(t *testing.T) {
				w := f.raw(rt.method, rt.path, rt.body, ct)
				var e apiError
				if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || w.Code != http.StatusUnsupportedMediaType || e.Code != "unsupported_media_type" ||
					!strings.Contains(e.Message, "application/json") || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
					t.Fatalf("%d %s %q: %v", w.Code, w.Header().Get("Content-Type"), w.Body, err)
				}
			})
		}
	}

	// Nothing changed: no entry in the audit log, no project, the key
	// alive and not rotated, the limits and the balance as they were.
	f.call("GET", "/audit", "", &audit)
	if len(audit.Entries) != logged {
		t.Fatalf("refused calls wrote the audit log: %+v", audit.Entries[:len(audit.Entries)-logged])
	}
	if code := f.call("GET", "/projects/forged", "", nil); code != http.StatusNotFound {
		t.Fatalf("a refused call made a project: %d", code)
	}
	var keys struct{ Keys []KeyView }
	f.call("GET", "/keys?project=shop", "", &keys)
	if len(keys.Keys) != 1 || keys.Keys[0].ID != nk.Record.ID || keys.Keys[0].Disabled {
		t.Fatalf("a refused call changed the keys: %+v", keys.Keys)
	}
	var p ProjectView
	f.call("GET", "/projects/shop", "", &p)
	if p.Funded != "0" || p.Limits.TxPerMinute != 5 {
		t.Fatalf("a refused call changed the project: %+v", p)
	}

	// JSON with parameters, in any letter case, is JSON; a call without
	// arguments takes no body or {}.
	if w := f.raw("POST", "/projects/shop/topups", `{"amount":"1000"}`, "Application/JSON; charset=utf-8"); w.Code != http.StatusOK {
		t.Fatalf("top-up declared JSON with a charset: %d %s", w.Code, w.Body)
	}
	if w := f.raw("POST", "/keys/"+nk.Record.ID+"/disable", ``, "application/json"); w.Code != http.StatusOK {
		t.Fatalf("disable with no body: %d %s", w.Code, w.Body)
	}
	f.call("GET", "/keys?project=shop", "", &keys)
	if len(keys.Keys) != 1 || !keys.Keys[0].Disabled {
		t.Fatalf("the key was not disabled: %+v", keys.Keys)
	}
}

// csvFormula are the characters that make a spreadsheet read a cell as a
// formula (OWASP's list).
const csvFormula = "=+-@\t\r"

// unneutralise undoes csvCell: it drops the apostrophe put at each place a
// cell could start (the start, and after each separator).
func unneutralise(s string) string {
	var b strings.Builder
	start := true
	for i := 0; i < len(s); i++ {
		if start && s[i] == '\'' {
			start = false
			continue
		}
		b.WriteByte(s[i])
		start = strings.IndexByte(",;\t\r\n", s[i]) >= 0
	}
	return b.String()
}

// formulaCell reports whether a spreadsheet cell would be a formula: its
// first character after spaces (and quotes, which a parser that ignores
// quoting leaves in) is a formula character.
func formulaCell(cell string) bool {
	c := strings.TrimLeft(cell, ` "`)
	return c != "" && strings.IndexByte(csvFormula, c[0]) >= 0
}

// TestCSVSafeForSpreadsheets: hostile text in every text column of the CSV
// export reads back exactly (apart from the apostrophes that neutralise
// it), and however a spreadsheet splits the file, on commas, semicolons,
// tabs or line breaks, with or without honouring quotes, no cell it makes
// starts with a formula character.
func TestCSVSafeForSpreadsheets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	hostile := []string{
		`https://x/;=2+5;@SUM(1+9)`,
		`=HYPERLINK("http://evil","x")`,
		`+1+1`, `-2+3`, `@SUM(A1:A2)`,
		"\t=1+1", "\r=1+1", " =1+1", "  @x",
		`https://x/a,=1`, "a\t=1", "a\t\t-1", "a\n=1", "a\r\n+1", "a;\t=1",
		`'=1`, `a;'b`, `a; '@b`, `"quoted";=1`, `x;;=1`, `a;`, `;`, `=`, `'`,
		`=cmd|' /C calc'!A0`,
	}
	// Text that needs no neutralising is left as it is.
	plain := []string{`https://shop.example/paid/report?day=1&x=2`, `a report; 50% off, today`, `exact`, ``}
	symbol := `=cmd|' /C calc'!A0;+x`
	cfg := f.d.cfg
	cfg.Assets = []Asset{{Address: f.token, Symbol: symbol, Decimals: 6}}
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}

	// One failed record per string, with the string in every text field
	// a record has: resource, description, scheme, network and error code.
	want := map[string]string{} // transaction → the string
	base := time.Now().UTC().Add(-time.Hour)
	for i, s := range append(append([]string{}, hostile...), plain...) {
		var key common.Hash
		key[0], key[31] = 0xcc, byte(i+1)
		created := base.Add(time.Duration(i) * time.Second)
		rec := store.Record{
			Key: key, State: store.StateClaimed, Scheme: s, Network: s, Payer: common.HexToAddress("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
			PayTo: common.HexToAddress("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"), Asset: f.token, Amount: big.NewInt(-5),
			Resource: s, Description: s, Created: created, Updated: created,
		}
		if _, ok, err := f.st.Claim(rec); err != nil || !ok {
			t.Fatalf("claim: %v %v", ok, err)
		}
		rec.State, rec.TxHash, rec.RawTx, rec.Updated = store.StateSubmitted, key, []byte{1}, created.Add(time.Millisecond)
		if err := f.st.Submit(&rec); err != nil {
			t.Fatal(err)
		}
		rec.State, rec.Updated = store.StateFailed, created.Add(2*time.Millisecond)
		rec.Response = &x402.SettleResponse{Network: s, ErrorCode: x402.ErrorCode(s)}
		if err := f.st.Finish(&rec); err != nil {
			t.Fatal(err)
		}
		want[key.Hex()] = s
	}

	w := httptest.NewRecorder()
	d.API("/x402/").ServeHTTP(w, httptest.NewRequest("GET", "/x402/payments.csv", nil))
	raw := w.Body.String()
	rd := csv.NewReader(strings.NewReader(raw))
	rows, err := rd.ReadAll()
	if err != nil || len(rows) != len(want)+1 {
		t.Fatalf("CSV: %v, %d rows for %d records:\n%s", err, len(rows), len(want), raw)
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, name := range []string{"resource", "description", "scheme", "network", "error", "amount", "amount_display", "transaction"} {
		if _, ok := col[name]; !ok {
			t.Fatalf("no %s column in %q", name, rows[0])
		}
	}
	for _, row := range rows[1:] {
		s, ok := want[row[col["transaction"]]]
		if !ok {
			t.Fatalf("a row of no record: %q", row)
		}
		for _, name := range []string{"resource", "description", "scheme", "network", "error"} {
			cell := row[col[name]]
			// encoding/csv reads a quoted CR LF as LF.
			if got := unneutralise(cell); got != strings.ReplaceAll(s, "\r\n", "\n") {
				t.Errorf("%s of %q reads back as %q (cell %q)", name, s, got, cell)
			}
			if formulaCell(cell) {
				t.Errorf("%s of %q is the formula cell %q", name, s, cell)
			}
			if strings.IndexAny(s, csvFormula+"'") < 0 && cell != s {
				t.Errorf("%s: harmless %q was changed to %q", name, s, cell)
			}
		}
		if got := row[col["amount"]]; got != "'-5" {
			t.Errorf("a negative amount is the cell %q, want '-5", got)
		}
		if got := unneutralise(row[col["amount_display"]]); got != "-0.000005 "+symbol {
			t.Errorf("amount_display reads back as %q", got)
		}
		for i, cell := range row {
			if formulaCell(cell) {
				t.Errorf("column %s is the formula cell %q", rows[0][i], cell)
			}
		}
	}

	// Every cell is quoted.
	if !strings.HasPrefix(raw, `"time","resource",`) {
		t.Fatalf("the header is not quoted: %q", raw[:40])
	}

	// A spreadsheet that splits without honouring quotes, on any
	// separator and on any line break, makes no formula cell.
	for _, sep := range []string{",", ";", "\t"} {
		for _, line := range strings.FieldsFunc(raw, func(r rune) bool { return r == '\n' || r == '\r' }) {
			for _, cell := range strings.Split(line, sep) {
				if formulaCell(cell) {
					t.Errorf("split on %q: the formula cell %q", sep, cell)
				}
			}
		}
		// And one that honours quotes but splits on sep.
		qr := csv.NewReader(strings.NewReader(raw))
		qr.Comma, qr.LazyQuotes, qr.FieldsPerRecord = rune(sep[0]), true, -1
		if sep == "," {
			continue // the reader above
		}
		all, err := qr.ReadAll()
		if err != nil {
			t.Fatalf("reading with %q: %v", sep, err)
		}
		for _, row := range all {
			for _, cell := range row {
				if formulaCell(cell) {
					t.Errorf("read with %q: the formula cell %q", sep, cell)
				}
			}
		}
	}
}

// TestCSVCell pins csvCell on single values.
func TestCSVCell(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{``, ``},
		{`https://x/paid/report`, `https://x/paid/report`},
		{`https://x/;=2+5;@SUM(1+9)`, `https://x/;'=2+5;'@SUM(1+9)`},
		{`=1`, `'=1`},
		{` -1`, `' -1`},
		{"\t=1", "'\t'=1"},
		{"a\n@b", "a\n'@b"},
		{`'x`, `''x`},
		{`a'b`, `a'b`},
		{`a;b`, `a;b`},
		{`a;`, `a;`},
	}
	for _, tc := range tests {
		if got := csvCell(tc.in); got != tc.want {
			t.Errorf("csvCell(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := unneutralise(csvCell(tc.in)); got != tc.in {
			t.Errorf("csvCell(%q) does not undo: %q", tc.in, got)
		}
	}
}

// formPost posts form to web's path as user, from the site's own page.
func formPost(web http.Handler, user, path string, form url.Values) *httptest.ResponseRecorder {
	r := httptest.NewRequest("POST", "http://dash.test"+path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, user))
	w := httptest.NewRecorder()
	web.ServeHTTP(w, r)
	return w
}

// TestFormTokenLifetime: a form's token is good for its user, under this
// dashboard's secret, for FormTokenTTL after its page was served; expired,
// foreign, altered and future tokens are refused and change nothing.
func TestFormTokenLifetime(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	var clock atomic.Int64
	t0 := time.Now().Truncate(time.Second)
	clock.Store(t0.UnixNano())
	at := func(d time.Duration) { clock.Store(t0.Add(d).UnixNano()) }
	cfg := f.d.cfg
	cfg.Now = func() time.Time { return time.Unix(0, clock.Load()) }
	d, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Secret = bytes.Repeat([]byte{9}, 32)
	elsewhere, err := New(other)
	if err != nil {
		t.Fatal(err)
	}
	web := d.Web("/")

	// The token on a page served at t0.
	r := httptest.NewRequest("GET", "http://dash.test/projects", nil)
	r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, "admin"))
	w := httptest.NewRecorder()
	web.ServeHTTP(w, r)
	m := csrfRE.FindStringSubmatch(w.Body.String())
	if w.Code != http.StatusOK || m == nil {
		t.Fatalf("GET /projects: %d, token %v", w.Code, m)
	}
	issued := m[1]
	// The same token with its issue time moved on by a day, MAC kept.
	b, _ := base64.RawURLEncoding.DecodeString(issued)
	moved := append([]byte(nil), b...)
	binary.BigEndian.PutUint64(moved[:8], binary.BigEndian.Uint64(moved[:8])+86400)
	at(2 * time.Minute)
	future := d.token("admin") // issued two minutes after t0
	at(0)

	tests := []struct {
		name   string
		token  func() string
		now    time.Duration
		status int
	}{
		{"fresh", func() string { return issued }, time.Second, http.StatusSeeOther},
		{"near the end of its life", func() string { return issued }, FormTokenTTL - time.Second, http.StatusSeeOther},
		{"expired", func() string { return issued }, FormTokenTTL + time.Second, http.StatusForbidden},
		{"a day old", func() string { return issued }, 24 * time.Hour, http.StatusForbidden},
		{"another user's", func() string { return d.token("mallory") }, 0, http.StatusForbidden},
		{"another dashboard's", func() string { return elsewhere.token("admin") }, 0, http.StatusForbidden},
		{"its time altered", func() string { return base64.RawURLEncoding.EncodeToString(moved) }, 24 * time.Hour, http.StatusForbidden},
		{"issued ahead, within a replica's clock skew", func() string { return future }, time.Minute + 30*time.Second, http.StatusSeeOther},
		{"issued ahead, past the skew", func() string { return future }, 0, http.StatusForbidden},
		{"the old fixed kind", func() string { return oldToken(cfg.Secret, "admin") }, 0, http.StatusForbidden},
		{"cut short", func() string { return issued[:20] }, 0, http.StatusForbidden},
		{"not base64", func() string { return "!!" + issued[2:] }, 0, http.StatusForbidden},
		{"empty", func() string { return "" }, 0, http.StatusForbidden},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			token := tc.token()
			at(tc.now)
			name := "p" + string(rune('a'+i))
			form := url.Values{"csrf": {token}, "name": {name}, "network": {"testnet"}, "tx_per_minute": {"10"}, "max_in_flight": {"5"}, "daily_gas_cap": {"0.5"}}
			w := formPost(web, "admin", "/projects", form)
			if w.Code != tc.status {
				t.Fatalf("%d, want %d:\n%s", w.Code, tc.status, w.Body)
			}
			made := f.call("GET", "/projects/"+name, "", nil) == http.StatusOK
			if made != (tc.status == http.StatusSeeOther) {
				t.Fatalf("answered %d, and the project was made: %v", w.Code, made)
			}
			if tc.status == http.StatusForbidden && !strings.Contains(w.Body.String(), "reload the page") {
				t.Fatalf("the refusal does not say to reload:\n%s", w.Body)
			}
		})
	}
}

// oldToken is the form token as it was: a fixed HMAC of the user's name,
// good forever.
func oldToken(secret []byte, user string) string {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("caddy-x402 dashboard form\x00" + user))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// TestStaticServesFilesOnly: the embedded assets are served by name, and
// the directory itself (or anything not an asset) is the not-found page,
// never a listing.
func TestStaticServesFilesOnly(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	tests := []struct {
		base, path string
		status     int
		ctype      string
	}{
		{"/", "/static/style.css", 200, "text/css"},
		{"/", "/static/app.js", 200, "javascript"},
		{"/", "/static/", 404, "text/html"},
		{"/", "/static", 404, "text/html"},
		{"/", "/static/nope.css", 404, "text/html"},
		{"/", "/static/..%2ftemplates%2flayout.html", 404, "text/html"},
		{"/", "/static/%2e%2e/templates/layout.html", 404, "text/html"},
		{"/dashboard/", "/dashboard/static/", 404, "text/html"},
		{"/dashboard/", "/dashboard/static/style.css", 200, "text/css"},
	}
	for _, tc := range tests {
		t.Run(tc.base+" "+tc.path, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest("GET", "http://dash.test"+tc.path, nil)
			r = r.WithContext(context.WithValue(r.Context(), ActorKey{}, "admin"))
			w := httptest.NewRecorder()
			f.d.Web(tc.base).ServeHTTP(w, r)
			body := w.Body.String()
			if w.Code != tc.status || !strings.Contains(w.Header().Get("Content-Type"), tc.ctype) {
				t.Fatalf("%d %s, want %d %s:\n%.300s", w.Code, w.Header().Get("Content-Type"), tc.status, tc.ctype, body)
			}
			// A listing names the files as relative links.
			if strings.Contains(body, `href="app.js"`) || strings.Contains(body, `href="style.css"`) {
				t.Fatalf("a directory listing:\n%s", body)
			}
		})
	}
}
