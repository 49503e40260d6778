package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/client"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The routes of bench/soak.Caddyfile.
const (
	pathFree   = "/free"
	pathPaid   = "/paid/report"
	pathBroken = "/broken/report" // the upstream answers 500
	paidBody   = `{"paid":"content"}`
)

// op is what a worker does with one tick of the rate.
type op string

const (
	opFree           op = "free"            // GET /free
	opExact          op = "exact"           // challenge, then pay exact
	opAA             op = "aa"              // challenge, then pay aa-native
	opReplay         op = "replay"          // resend a payment that bought a response
	opRace           op = "race"            // two requests at once with one payment
	opFault          op = "fault"           // a valid payment to a route whose upstream fails
	opBadHeader      op = "bad-header"      // a malformed PAYMENT-SIGNATURE
	opBadFacilitator op = "bad-facilitator" // a malformed /verify or /settle
)

var ops = []op{opFree, opExact, opAA, opReplay, opRace, opFault, opBadHeader, opBadFacilitator}

func (o op) valid() bool { return slices.Contains(ops, o) }

func opNames() []string {
	var s []string
	for _, o := range ops {
		s = append(s, string(o))
	}
	return s
}

// The kinds of request the summary counts, with what each may get.
const (
	kindFree           = "free"
	kindChallenge      = "challenge (unpaid)"
	kindExact          = "paid exact"
	kindAA             = "paid aa-native"
	kindReplayExact    = "replay exact"
	kindReplayAA       = "replay aa-native"
	kindRace           = "race (2 requests, 1 payment)"
	kindFault          = "upstream fault (deliberate)"
	kindBadHeader      = "malformed PAYMENT-SIGNATURE"
	kindBadFacilitator = "malformed /verify, /settle"
)

var kinds = []struct{ name, expect string }{
	{kindFree, "200"},
	{kindChallenge, "402 + PAYMENT-REQUIRED"},
	{kindExact, "200 + PAYMENT-RESPONSE"},
	{kindAA, "200 + PAYMENT-RESPONSE"},
	{kindReplayExact, "402 replay"},
	{kindReplayAA, "402 replay"},
	{kindRace, "one 200, one 402 replay"},
	{kindFault, "500, not charged"},
	{kindBadHeader, "4xx JSON (431 text past Caddy's limit)"},
	{kindBadFacilitator, "4xx JSON"},
}

// worker runs operations, one per tick of the shared rate, until ctx ends.
// An operation under way when the load ends is finished, so that no
// payment is left with an unknown outcome by the driver itself.
func (d *driver) worker(ctx context.Context, tick <-chan time.Time) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		if ctx.Err() != nil {
			return // both were ready: the load is over
		}
		octx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		d.do(octx, d.picks[rand.IntN(len(d.picks))])
		cancel()
		d.tally.opDone()
	}
}

func (d *driver) do(ctx context.Context, o op) {
	switch o {
	case opFree:
		d.free(ctx)
	case opExact:
		d.payExact(ctx)
	case opAA:
		d.payAA(ctx)
	case opReplay:
		d.replay(ctx)
	case opRace:
		d.race(ctx)
	case opFault:
		d.fault(ctx)
	case opBadHeader:
		d.badHeader(ctx)
	case opBadFacilitator:
		d.badFacilitator(ctx)
	}
}

// answer is a response, read.
type answer struct {
	status  int // 0: no answer (err)
	header  http.Header
	body    []byte
	retried int // 503s answered before status, each retried with the same payment
	took    time.Duration
	err     error
}

// send makes one request and reads its answer (the first 64 KiB of the
// body).
func (d *driver) send(ctx context.Context, method, url string, header http.Header, body []byte) answer {
	began := time.Now()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return answer{err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return answer{err: err, took: time.Since(began)}
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	io.Copy(io.Discard, resp.Body)
	return answer{status: resp.StatusCode, header: resp.Header, body: b, err: err, took: time.Since(began)}
}

// get is a GET with an optional PAYMENT-SIGNATURE.
func (d *driver) get(ctx context.Context, url, payment string) answer {
	h := http.Header{}
	if payment != "" {
		h.Set(x402.HeaderPaymentSignature, payment)
	}
	return d.send(ctx, http.MethodGet, url, h, nil)
}

// pay sends a payment as the Go client does: a 503 (outcome not known yet)
// is retried with the same payment after Retry-After, at most 8 times.
func (d *driver) pay(ctx context.Context, url, payment string) answer {
	began := time.Now()
	retried := 0
	for {
		a := d.get(ctx, url, payment)
		if a.err != nil || a.status != http.StatusServiceUnavailable || retried == 8 {
			a.retried, a.took = retried, time.Since(began)
			return a
		}
		retried++
		wait := time.Second
		if s, err := strconv.Atoi(a.header.Get("Retry-After")); err == nil && s >= 0 {
			wait = min(time.Duration(s)*time.Second, 5*time.Second)
		}
		select {
		case <-ctx.Done():
			return answer{err: ctx.Err(), retried: retried, took: time.Since(began)}
		case <-time.After(wait):
		}
	}
}

// reason is the refusal an answer carries: PAYMENT-REQUIRED's error, or
// PAYMENT-RESPONSE's code and message.
func reason(a answer) string {
	if a.err != nil {
		return a.err.Error()
	}
	if v := a.header.Get(x402.HeaderPaymentRequired); v != "" {
		if pr, err := x402.DecodePaymentRequired(v); err == nil && pr.Error != "" {
			return pr.Error
		}
	}
	if v := a.header.Get(x402.HeaderPaymentResponse); v != "" {
		if res, err := x402.DecodePaymentResponse(v); err == nil {
			return strings.TrimSpace(string(res.ErrorCode) + " " + res.Message)
		}
	}
	return strings.TrimSpace(string(a.body[:min(len(a.body), 200)]))
}

func (d *driver) free(ctx context.Context) {
	a := d.get(ctx, d.cfg.API+pathFree, "")
	bad := ""
	if a.status != http.StatusOK || string(a.body) != "free content" {
		bad = fmt.Sprintf("%d %q", a.status, reason(a))
	}
	d.tally.record(kindFree, a, bad)
}

// challenge fetches the paid route's 402, as a payer does before each
// payment, and counts it.
func (d *driver) challenge(ctx context.Context, url string) *x402.PaymentRequired {
	a := d.get(ctx, url, "")
	var pr *x402.PaymentRequired
	bad := ""
	if a.status != http.StatusPaymentRequired {
		bad = fmt.Sprintf("%d %q", a.status, reason(a))
	} else if p, err := x402.DecodePaymentRequired(a.header.Get(x402.HeaderPaymentRequired)); err != nil {
		bad = "PAYMENT-REQUIRED does not decode: " + err.Error()
	} else {
		pr = p
	}
	d.tally.record(kindChallenge, a, bad)
	return pr
}

// signExact signs a fresh exact payment for url with a random payer.
func (d *driver) signExact(ctx context.Context, url string) (p *payer, payload *x402.PaymentPayload, header string, ok bool) {
	pr := d.challenge(ctx, url)
	if pr == nil {
		return nil, nil, "", false
	}
	o := offer(pr, x402.SchemeExact)
	p = d.exact[rand.IntN(len(d.exact))]
	payload, err := p.tr.Pay(pr, o)
	if err == nil {
		header, err = x402.EncodeHeader(payload)
	}
	if err != nil {
		d.tally.failed(kindExact, "signing: "+err.Error())
		return nil, nil, "", false
	}
	return p, payload, header, true
}

func (d *driver) payExact(ctx context.Context) {
	p, payload, header, ok := d.signExact(ctx, d.cfg.API+pathPaid)
	if !ok {
		return
	}
	a := d.pay(ctx, d.cfg.API+pathPaid, header)
	d.paid(kindExact, p, payload, header, a, false)
}

func (d *driver) payAA(ctx context.Context) {
	var p *payer
	select {
	case p = <-d.aa:
	case <-ctx.Done():
		return
	}
	defer func() { d.aa <- p }()
	pr := d.challenge(ctx, d.cfg.API+pathPaid)
	if pr == nil {
		return
	}
	// Signing reads the account from the chain and has /sponsor sponsor
	// the operation.
	payload, err := p.tr.PayAANative(ctx, pr, offer(pr, x402.SchemeAANative))
	var header string
	if err == nil {
		header, err = x402.EncodeHeader(payload)
	}
	if err != nil {
		d.tally.failed(kindAA, "signing or sponsoring: "+err.Error())
		return
	}
	a := d.pay(ctx, d.cfg.API+pathPaid, header)
	d.paid(kindAA, p, payload, header, a, false)
}

// paid judges the answer to a payment, and enters it in the ledger.
func (d *driver) paid(kind string, p *payer, payload *x402.PaymentPayload, header string, a answer, race bool) {
	id, _ := paymentID(payload)
	scheme := payload.Accepted.Scheme
	var bad []string
	if a.retried > 0 && !race {
		bad = append(bad, fmt.Sprintf("%d× 503 before the answer", a.retried))
	}
	switch {
	case a.err != nil:
		d.ledger.unknown(scheme, id)
		bad = append(bad, "no answer: "+a.err.Error())
	case a.status == http.StatusOK:
		res, ok, err := client.Receipt(&http.Response{Header: a.header})
		if !ok || err != nil || !res.Success {
			bad = append(bad, fmt.Sprintf("200 without a successful PAYMENT-RESPONSE (%v)", err))
			d.ledger.unknown(scheme, id)
			break
		}
		if string(a.body) != paidBody {
			bad = append(bad, fmt.Sprintf("200 with body %q", a.body))
		}
		d.ledger.served(scheme, id, p.addr, common.HexToHash(res.TransactionHash))
		d.ring.push(replayable{scheme: scheme, header: header})
		d.lat.add(scheme, a.took)
	default:
		// Refused: it must never reach the chain.
		d.ledger.refuse(scheme, id)
		if !race {
			bad = append(bad, fmt.Sprintf("%d %q", a.status, reason(a)))
		}
	}
	d.tally.record(kind, a, strings.Join(bad, "; "))
}

// replay resends a payment that bought a response: 402 replay, never a
// second 200.
func (d *driver) replay(ctx context.Context) {
	r, ok := d.ring.pick()
	if !ok {
		d.free(ctx)
		return
	}
	kind := kindReplayExact
	if r.scheme == x402.SchemeAANative {
		kind = kindReplayAA
	}
	a := d.get(ctx, d.cfg.API+pathPaid, r.header)
	bad := ""
	if a.status != http.StatusPaymentRequired || !strings.HasPrefix(reason(a), string(x402.ReasonReplay)) {
		bad = fmt.Sprintf("%d %q", a.status, reason(a))
		if a.status == http.StatusOK {
			bad = "a second 200 for one payment"
		}
	}
	d.tally.record(kind, a, bad)
}

// race sends one fresh exact payment in two requests at once: exactly one
// is served, the other refused as a replay (after 503s, which are retried,
// if it met the settlement under way).
func (d *driver) race(ctx context.Context) {
	p, payload, header, ok := d.signExact(ctx, d.cfg.API+pathPaid)
	if !ok {
		return
	}
	var answers [2]answer
	var wg sync.WaitGroup
	for i := range answers {
		wg.Go(func() { answers[i] = d.pay(ctx, d.cfg.API+pathPaid, header) })
	}
	wg.Wait()
	served := 0
	for _, a := range answers {
		if a.status == http.StatusOK {
			served++
		}
	}
	for i, a := range answers {
		switch {
		case a.status == http.StatusOK && i > 0 && served > 1:
			// The second 200 for one payment: counted once in the
			// ledger, so the chain check also fails.
			d.tally.record(kindRace, a, "a second 200 for one payment")
			d.ledger.servedAgain(x402.SchemeExact)
		case a.status == http.StatusOK:
			d.paid(kindRace, p, payload, header, a, true)
		case a.err != nil:
			d.paid(kindRace, p, payload, header, a, true)
		case a.status != http.StatusPaymentRequired || !strings.HasPrefix(reason(a), string(x402.ReasonReplay)):
			d.tally.record(kindRace, a, fmt.Sprintf("%d %q", a.status, reason(a)))
		default:
			d.tally.record(kindRace, a, "")
		}
	}
	if served == 0 && answers[0].err == nil && answers[1].err == nil {
		d.tally.failed(kindRace, "neither request was served")
		id, _ := paymentID(payload)
		d.ledger.refuse(x402.SchemeExact, id)
	}
}

// fault pays for a route whose upstream answers 500: the 500 passes
// through, and the payment is not settled.
func (d *driver) fault(ctx context.Context) {
	_, payload, header, ok := d.signExact(ctx, d.cfg.API+pathBroken)
	if !ok {
		return
	}
	id, _ := paymentID(payload)
	d.ledger.refuse(x402.SchemeExact, id)
	a := d.pay(ctx, d.cfg.API+pathBroken, header)
	bad := ""
	if a.status != http.StatusInternalServerError || a.header.Get(x402.HeaderPaymentResponse) != "" || a.retried > 0 {
		bad = fmt.Sprintf("%d (503 retried %d×) %q", a.status, a.retried, reason(a))
	}
	d.tally.record(kindFault, a, bad)
}

// badHeader sends a malformed PAYMENT-SIGNATURE: 4xx with a JSON body,
// never 5xx.
func (d *driver) badHeader(ctx context.Context) {
	url := d.cfg.API + pathPaid
	var name, value string
	jsonBody := true
	switch rand.IntN(9) {
	case 0:
		name, value = "garbage", base64.StdEncoding.EncodeToString([]byte("garbage"))
	case 1:
		// Over x402's 16 KiB limit, within Caddy's header limit: x402
		// answers 431 in JSON.
		name, value = "oversized", strings.Repeat("A", 17<<10)
	case 8:
		// Over Caddy's own header limit (max_header_size, 16 KiB, plus
		// the 4 KiB net/http allows over it): net/http answers 431 in
		// plain text before any handler runs.
		name, value, jsonBody = "over Caddy's header limit", strings.Repeat("A", 64<<10), false
	case 2:
		name, value = "not base64", "%%% not base64 ***"
	case 3:
		name, value = "wrong shape", base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2,"accepted":{},"payload":null}`))
	case 4:
		name, value = "deep nesting", base64.StdEncoding.EncodeToString([]byte(strings.Repeat("[", 5000)+strings.Repeat("]", 5000)))
	case 5:
		name, value = "wrong version", base64.StdEncoding.EncodeToString([]byte(`{"x402Version":1,"scheme":"exact","network":"base","payload":{}}`))
	case 6:
		// A payment that bought its response, cut in half.
		r, ok := d.ring.pick()
		if !ok {
			r.header = base64.StdEncoding.EncodeToString([]byte(`{"x402Version":2,"accepted":{"scheme":"exact"}}`))
		}
		name, value = "truncated", r.header[:len(r.header)/2]
	default:
		// A fresh payment whose signature is someone else's: well formed,
		// refused by verification (402), and never settled.
		_, payload, _, ok := d.signExact(ctx, url)
		if !ok {
			return
		}
		var ex x402.ExactPayload
		json.Unmarshal(payload.Payload, &ex)
		other, _ := crypto.GenerateKey()
		sig, _ := crypto.Sign(crypto.Keccak256([]byte(ex.Authorization.Nonce)), other)
		sig[64] += 27
		ex.Signature = hexutil.Encode(sig)
		payload.Payload, _ = json.Marshal(ex)
		id, _ := paymentID(payload)
		d.ledger.refuse(x402.SchemeExact, id)
		name = "bad signature"
		value, _ = x402.EncodeHeader(payload)
	}
	a := d.get(ctx, url, value)
	bad := ""
	if a.status < 400 || a.status > 499 || (jsonBody && !json.Valid(a.body)) {
		bad = fmt.Sprintf("%s: %d %q", name, a.status, reason(a))
	}
	d.tally.record(kindBadHeader, a, bad)
}

// badFacilitator sends a malformed request to /verify or /settle: 4xx with
// a JSON body, never 5xx.
func (d *driver) badFacilitator(ctx context.Context) {
	path := "/verify"
	if rand.IntN(2) == 0 {
		path = "/settle"
	}
	method, ct := http.MethodPost, "application/json"
	h := http.Header{}
	var name string
	var body []byte
	switch rand.IntN(10) {
	case 0:
		name, body = "truncated JSON", []byte(`{"x402Version":2,"paymentPayload":`)
	case 1:
		name, body = "array", []byte(`[]`)
	case 2:
		name, body = "wrong types", []byte(`{"x402Version":"2","paymentPayload":7,"paymentRequirements":"x"}`)
	case 3:
		name, body = "empty body", []byte{}
	case 4:
		name, body = "random bytes", make([]byte, 512)
		crand.Read(body)
	case 5:
		name, body = "oversized", []byte(`{"pad":"`+strings.Repeat("x", 80<<10)+`"}`)
	case 6:
		name, ct, body = "text/plain", "text/plain", []byte(`{}`)
	case 7:
		name, method, body = "GET", http.MethodGet, nil
	case 8:
		name, body = "deep nesting", []byte(strings.Repeat(`{"a":`, 5000)+"1"+strings.Repeat("}", 5000))
	default:
		// Well formed, for another merchant: without a key /settle refuses
		// it, and with a wrong key both do.
		name, path, body = "foreign merchant", "/settle", []byte(d.refusedSettle)
		if rand.IntN(2) == 0 {
			name = "wrong bearer key"
			h.Set("Authorization", "Bearer fk_not_a_key")
		}
	}
	if body != nil {
		h.Set("Content-Type", ct)
	}
	a := d.send(ctx, method, d.cfg.Facilitator+path, h, body)
	bad := ""
	if a.status < 400 || a.status > 499 || !json.Valid(a.body) {
		bad = fmt.Sprintf("%s %s: %d %q", name, path, a.status, reason(a))
	}
	d.tally.record(kindBadFacilitator, a, bad)
}

// foreignSettleBody is a well-formed settle request whose payment pays
// someone other than the merchant, which the facilitator must refuse
// without a key.
func (d *driver) foreignSettleBody(pr *x402.PaymentRequired, o *x402.PaymentRequirements) (string, error) {
	foreign := *o
	key, _ := crypto.GenerateKey()
	foreign.PayTo = crypto.PubkeyToAddress(key.PublicKey).Hex()
	payload, err := d.exact[0].tr.Pay(pr, &foreign)
	if err != nil {
		return "", err
	}
	b, err := json.Marshal(x402.SettleRequest{X402Version: x402.Version, PaymentPayload: *payload, PaymentRequirements: foreign})
	return string(b), err
}

// tally counts answers by kind and status, and what was wrong with them.
type tally struct {
	mu       sync.Mutex
	status   map[string]map[int]int // kind → status (0: no answer) → count
	retried  map[string]int         // kind → 503s retried
	bad      map[string]int         // kind → answers that broke an expectation
	examples map[string][]string    // kind → the first few of them
	ops      int
}

func newTally() *tally {
	return &tally{status: map[string]map[int]int{}, retried: map[string]int{}, bad: map[string]int{}, examples: map[string][]string{}}
}

func (t *tally) record(kind string, a answer, bad string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.status[kind] == nil {
		t.status[kind] = map[int]int{}
	}
	t.status[kind][a.status]++
	t.retried[kind] += a.retried
	if bad != "" {
		t.badLocked(kind, bad)
	}
}

// failed counts a failure that has no answer of its own (signing failed).
func (t *tally) failed(kind, bad string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.badLocked(kind, bad)
}

func (t *tally) badLocked(kind, bad string) {
	t.bad[kind]++
	if len(t.examples[kind]) < 5 {
		t.examples[kind] = append(t.examples[kind], bad)
	}
}

func (t *tally) opDone() {
	t.mu.Lock()
	t.ops++
	t.mu.Unlock()
}

// requests is how many requests were answered or failed, in all.
func (t *tally) requests() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, s := range t.status {
		for _, c := range s {
			n += c
		}
	}
	return n
}

// ledger is what the payers were told: the payments that bought a
// response, those refused, and those whose outcome they never learned.
type ledger struct {
	mu        sync.Mutex
	responses map[string]int                       // scheme → 200s with a successful PAYMENT-RESPONSE
	ok        map[string]map[common.Hash]servedPay // scheme → payment id → receipt
	refused   map[string]map[common.Hash]bool      // scheme → ids that must never settle
	unknowns  map[string]map[common.Hash]bool      // scheme → ids without a known outcome
	perPayer  map[common.Address]int               // payer → payments served
}

// servedPay is the receipt a payment's response carried.
type servedPay struct {
	payer common.Address
	tx    common.Hash
}

func newLedger() *ledger {
	return &ledger{
		responses: map[string]int{},
		ok:        map[string]map[common.Hash]servedPay{},
		refused:   map[string]map[common.Hash]bool{},
		unknowns:  map[string]map[common.Hash]bool{},
		perPayer:  map[common.Address]int{},
	}
}

func (l *ledger) served(scheme string, id common.Hash, payer common.Address, tx common.Hash) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.responses[scheme]++
	if l.ok[scheme] == nil {
		l.ok[scheme] = map[common.Hash]servedPay{}
	}
	l.ok[scheme][id] = servedPay{payer: payer, tx: tx}
	l.perPayer[payer]++
}

// servedAgain counts a second response to a payment that was served.
func (l *ledger) servedAgain(scheme string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.responses[scheme]++
}

func (l *ledger) refuse(scheme string, id common.Hash) { l.mark(l.refused, scheme, id) }

func (l *ledger) unknown(scheme string, id common.Hash) { l.mark(l.unknowns, scheme, id) }

func (l *ledger) mark(m map[string]map[common.Hash]bool, scheme string, id common.Hash) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m[scheme] == nil {
		m[scheme] = map[common.Hash]bool{}
	}
	m[scheme][id] = true
}

// ring holds recent payments that bought a response, to replay.
type ring struct {
	mu    sync.Mutex
	items []replayable
	n     int // pushed so far
}

// replayable is a PAYMENT-SIGNATURE that bought a response.
type replayable struct {
	scheme string
	header string
}

func (r *ring) push(v replayable) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.items[r.n%len(r.items)] = v
	r.n++
}

func (r *ring) pick() (replayable, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == 0 {
		return replayable{}, false
	}
	return r.items[rand.IntN(min(r.n, len(r.items)))], true
}

// latencies are the durations of paid requests that were served, by
// scheme, in order of completion.
type latencies struct {
	mu  sync.Mutex
	all []latency
}

type latency struct {
	scheme string
	at     time.Time
	took   time.Duration
}

func (l *latencies) add(scheme string, took time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.all = append(l.all, latency{scheme: scheme, at: time.Now(), took: took})
}

// since is a copy of the latencies from index i on, and the next index.
func (l *latencies) since(i int) ([]latency, int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.all[i:]), len(l.all)
}
