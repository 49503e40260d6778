package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// The error codes the paymaster answers, named for what they mean here.
const (
	codeParse             = x402.RPCParseError
	codeInvalidRequest    = x402.RPCInvalidRequest
	codeMethodNotFound    = x402.RPCMethodNotFound
	codeInvalidParams     = x402.RPCInvalidParams
	codeInternal          = x402.RPCInternalError
	codeReverted          = x402.RPCReverted
	codeSimulation        = x402.RPCSimulationRejected
	codePaymasterRejected = x402.RPCPaymasterRejected
	codeOutOfTimeRange    = x402.RPCOutOfTimeRange
	codeThrottled         = x402.RPCThrottled
)

// Error is a JSON-RPC error object.
type Error struct {
	Code    x402.RPCErrorCode `json:"code"`
	Message string            `json:"message"`
	Data    any               `json:"data,omitempty"`
	// RetryAfter, when set, becomes the Retry-After of the HTTP answer.
	RetryAfter time.Duration `json:"-"`
}

func (e *Error) Error() string { return fmt.Sprintf("paymaster error %d: %s", e.Code, e.Message) }

// ErrorCode is the JSON-RPC error code.
func (e *Error) ErrorCode() int { return int(e.Code) }

// MaxBodySize caps a request body.
const MaxBodySize = 256 << 10

type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
}

type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *Error          `json:"error,omitempty"`
}

// call is one method call after authentication.
type call struct {
	params []json.RawMessage // without the legacy key slot
	key    *Key
	// reads are the chain reads shared by the calls of one request.
	reads *sharedReads
}

// method is an entry of the method table.
type method struct {
	scope string
	run   func(s *Service, ctx context.Context, c *call) (any, *Error)
}

// methods is the dispatch table; there is no reflection.
var methods = map[string]method{
	"pm_entrypoints":      {scope: ScopeRead, run: (*Service).entrypoints},
	"pm_supported_tokens": {scope: ScopeRead, run: (*Service).supportedTokens},
	"pm_sponsor_userop":   {scope: ScopeSponsor, run: (*Service).sponsor},
	// ERC-7677, for EntryPoint v0.6 (erc7677.go).
	"pm_getPaymasterStubData": {scope: ScopeSponsor, run: (*Service).paymasterStubData},
	"pm_getPaymasterData":     {scope: ScopeSponsor, run: (*Service).paymasterData},
}

// ServeHTTP serves JSON-RPC 2.0 over POST (single calls, batches and
// notifications) and GET /health. Every answer is JSON.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		if strings.HasSuffix(strings.TrimRight(r.URL.Path, "/"), "/health") {
			edge.WriteJSON(w, http.StatusOK, map[string]string{"status": "ok", "service": ServiceName, "version": Version})
			return
		}
		edge.WriteJSON(w, http.StatusNotFound, map[string]string{"error": "not_found", "message": "POST JSON-RPC here; GET /health for status"})
		return
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", "POST, GET")
		edge.WriteJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "method_not_allowed", "message": "JSON-RPC is POST"})
		return
	}
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			edge.WriteJSON(w, http.StatusUnsupportedMediaType, response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeInvalidRequest, Message: "content type must be application/json"}})
			return
		}
	}
	// A body trickled slower than BodyTimeout is cut off (408), so slow
	// clients cannot hold requests open. Writers that cannot set deadlines
	// (test recorders) leave it to the server's timeouts.
	http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodySize))
	if err != nil {
		status := http.StatusBadRequest
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			status = http.StatusRequestEntityTooLarge
		case errors.Is(err, os.ErrDeadlineExceeded):
			status = http.StatusRequestTimeout
		}
		edge.WriteJSON(w, status, response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeInvalidRequest, Message: "the body could not be read or is over " + strconv.Itoa(MaxBodySize) + " bytes"}})
		return
	}
	headerKey := r.Header.Get("X-API-Key")
	if headerKey == "" {
		// A self-hosted facilitator sends its server-side key under this
		// name (the spec's security scheme).
		headerKey = r.Header.Get("X-Paymaster-Api-Key")
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var batch []json.RawMessage
		if err := json.Unmarshal(trimmed, &batch); err != nil {
			edge.WriteJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeParse, Message: "parse error: " + err.Error()}})
			return
		}
		if len(batch) == 0 {
			edge.WriteJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeInvalidRequest, Message: "empty batch"}})
			return
		}
		// A batch over the cap is refused whole, before any of its calls
		// is authenticated, counted or run: one request cannot make the
		// paymaster read the chain more than MaxBatch times over. -32602
		// (fix the payload: split the batch), not -32504 (retry later):
		// the same batch would be refused however long the caller waited.
		if limit := int(s.maxBatch.Load()); len(batch) > limit {
			edge.WriteJSON(w, http.StatusOK, response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeInvalidParams, Message: fmt.Sprintf("a batch of %d calls is over this paymaster's limit of %d; send at most %d calls per batch", len(batch), limit, limit)}})
			return
		}
		out := make([]response, 0, len(batch))
		for _, res := range s.serve(r.Context(), batch, headerKey) {
			if res != nil {
				out = append(out, *res)
			}
		}
		if len(out) == 0 {
			w.WriteHeader(http.StatusNoContent) // all notifications
			return
		}
		edge.WriteJSON(w, http.StatusOK, out)
		return
	}
	one := s.serve(r.Context(), []json.RawMessage{trimmed}, headerKey)[0]
	if one == nil {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	res := *one
	status := http.StatusOK
	if res.Error != nil && res.Error.Code == codeThrottled {
		status = http.StatusTooManyRequests
		if res.Error.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(res.Error.RetryAfter.Seconds())+1))
		}
	}
	edge.WriteJSON(w, status, res)
}

// pending is one call of a request on its way to its answer: parsed and
// authenticated, or answered already.
type pending struct {
	res          response
	answered     bool // res is the answer; the call does not run
	notification bool
	m            method
	c            *call
}

// answer ends the call with err.
func (p *pending) answer(err *Error) {
	p.res.Error, p.answered = err, true
}

// serve runs the calls of one request (a batch, or a single call) and
// returns their answers in order, nil for a notification. It goes in
// three steps, so that nothing reads the chain before every call is
// counted: each call is parsed and its key authenticated (the key store
// only); each key's calls are counted against its project's
// CallsPerMinute in the ledger, and those over it are refused (-32504);
// then the admitted calls run, sharing their chain reads.
func (s *Service) serve(ctx context.Context, raws []json.RawMessage, headerKey string) []*response {
	calls := make([]pending, len(raws))
	for i, raw := range raws {
		calls[i] = s.prepare(raw, headerKey)
	}
	s.admit(calls)
	reads := &sharedReads{}
	out := make([]*response, len(calls))
	for i := range calls {
		p := &calls[i]
		if !p.answered {
			p.c.reads = reads
			result, rerr := p.m.run(s, ctx, p.c)
			if rerr != nil {
				p.res.Error = rerr
			} else {
				p.res.Result = result
			}
		}
		if !p.notification {
			out[i] = &p.res
		}
	}
	return out
}

// prepare parses one request object and authenticates its key.
func (s *Service) prepare(raw json.RawMessage, headerKey string) pending {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		var syntax *json.SyntaxError
		p := pending{res: response{JSONRPC: "2.0", ID: json.RawMessage("null")}}
		if errors.As(err, &syntax) || len(raw) == 0 {
			p.answer(&Error{Code: codeParse, Message: "parse error: " + err.Error()})
		} else {
			p.answer(&Error{Code: codeInvalidRequest, Message: "not a JSON-RPC request object"})
		}
		return p
	}
	p := pending{res: response{JSONRPC: "2.0", ID: req.ID}, notification: req.ID == nil}
	if p.notification {
		p.res.ID = json.RawMessage("null")
	}
	if req.JSONRPC != "2.0" || req.Method == "" {
		// Answered even as a notification: it is not a valid one.
		p.notification = false
		p.answer(&Error{Code: codeInvalidRequest, Message: `a request needs "jsonrpc":"2.0" and a method`})
		return p
	}
	m, c, rerr := s.authenticate(&req, headerKey)
	if rerr != nil {
		p.answer(rerr)
		return p
	}
	p.m, p.c = m, c
	return p
}

// authenticate finds the method of req and authorizes its key for the
// method's scope.
func (s *Service) authenticate(req *request, headerKey string) (method, *call, *Error) {
	m, ok := methods[req.Method]
	if !ok {
		return m, nil, &Error{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q not found; methods: pm_entrypoints, pm_supported_tokens, pm_sponsor_userop, pm_getPaymasterStubData, pm_getPaymasterData", req.Method)}
	}
	var params []json.RawMessage
	if len(bytes.TrimSpace(req.Params)) > 0 && string(bytes.TrimSpace(req.Params)) != "null" {
		if err := json.Unmarshal(req.Params, &params); err != nil {
			return m, nil, &Error{Code: codeInvalidParams, Message: "params must be an array"}
		}
	}
	secret := headerKey
	// The legacy form carries the key as params[1]; a string there that is
	// not an address (or a null placeholder) is the key slot.
	if len(params) >= 2 {
		var s1 *string
		if err := json.Unmarshal(params[1], &s1); err == nil && (s1 == nil || !common.IsHexAddress(*s1)) {
			if secret == "" && s1 != nil {
				secret = *s1
			}
			params = append(params[:1:1], params[2:]...)
		}
	}
	if secret == "" {
		return m, nil, &Error{Code: codePaymasterRejected, Message: "missing API key: send it in the X-API-Key header (or as params[1])"}
	}
	key, err := s.keys.Authorize(secret, m.scope)
	var (
		nerr *networkError
		serr *scopeError
	)
	switch {
	case errors.As(err, &nerr):
		return m, nil, &Error{Code: codePaymasterRejected, Message: nerr.Error()}
	case errors.Is(err, ErrInvalidKey):
		return m, nil, &Error{Code: codePaymasterRejected, Message: "invalid API key: unknown, revoked or rotated"}
	case errors.As(err, &serr):
		return m, nil, &Error{Code: codePaymasterRejected, Message: serr.Error()}
	case err != nil:
		s.log.Error("reading API keys", zap.Error(err))
		return m, nil, &Error{Code: codeInternal, Message: "internal error"}
	}
	return m, &call{params: params, key: key}, nil
}

// admit counts the authenticated calls of one request against their keys'
// rates, one ledger update per key, and refuses those over it (-32504,
// with when to retry). If the ledger cannot count them, they are refused
// too: no call runs uncounted.
func (s *Service) admit(calls []pending) {
	var order []string
	byKey := map[string][]int{}
	for i := range calls {
		if calls[i].answered {
			continue
		}
		id := calls[i].c.key.ID
		if _, ok := byKey[id]; !ok {
			order = append(order, id)
		}
		byKey[id] = append(byKey[id], i)
	}
	now := s.cfg.Now()
	for _, id := range order {
		idx := byKey[id]
		key := calls[idx[0]].c.key
		perMinute := DefaultCallsPerMinute
		if p, err := s.lookup(key.Project); err == nil && p != nil {
			perMinute = p.cfg.CallsPerMinute
		}
		admitted, wait, err := s.takeCalls(id, perMinute, len(idx), now)
		if err != nil {
			s.log.Error("counting an API key's calls", zap.Error(err))
			for _, i := range idx {
				calls[i].answer(errLedger())
			}
			continue
		}
		for _, i := range idx[admitted:] {
			calls[i].answer(&Error{Code: codeThrottled, RetryAfter: wait, Message: fmt.Sprintf("rate limit: this API key may make %d calls per minute; retry in %ds", perMinute, int(wait.Seconds())+1)})
		}
	}
}

// sharedReads are the chain reads the calls of one request share, so that
// a batch reads the latest block once, not once per call.
type sharedReads struct {
	mu   sync.Mutex
	done bool
	fee  *big.Int
	err  *Error
}

// baseFee is the latest block's base fee, read once per request.
func (r *sharedReads) baseFee(ctx context.Context, chain Chain) (*big.Int, *Error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.done {
		r.fee, r.err = readBaseFee(ctx, chain)
		r.done = true
	}
	return r.fee, r.err
}
