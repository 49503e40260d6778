package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
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
		out := make([]response, 0, len(batch))
		for _, raw := range batch {
			if res, ok := s.handle(r.Context(), raw, headerKey); ok {
				out = append(out, res)
			}
		}
		if len(out) == 0 {
			w.WriteHeader(http.StatusNoContent) // all notifications
			return
		}
		edge.WriteJSON(w, http.StatusOK, out)
		return
	}
	res, ok := s.handle(r.Context(), trimmed, headerKey)
	if !ok {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	status := http.StatusOK
	if res.Error != nil && res.Error.Code == codeThrottled {
		status = http.StatusTooManyRequests
		if res.Error.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int(res.Error.RetryAfter.Seconds())+1))
		}
	}
	edge.WriteJSON(w, status, res)
}

// handle runs one request; ok is false for a notification.
func (s *Service) handle(ctx context.Context, raw json.RawMessage, headerKey string) (response, bool) {
	var req request
	if err := json.Unmarshal(raw, &req); err != nil {
		var syntax *json.SyntaxError
		if errors.As(err, &syntax) || len(raw) == 0 {
			return response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeParse, Message: "parse error: " + err.Error()}}, true
		}
		return response{JSONRPC: "2.0", ID: json.RawMessage("null"), Error: &Error{Code: codeInvalidRequest, Message: "not a JSON-RPC request object"}}, true
	}
	id := req.ID
	notification := id == nil
	if notification {
		id = json.RawMessage("null")
	}
	res := response{JSONRPC: "2.0", ID: id}
	if req.JSONRPC != "2.0" || req.Method == "" {
		res.Error = &Error{Code: codeInvalidRequest, Message: `a request needs "jsonrpc":"2.0" and a method`}
		return res, true
	}
	result, rerr := s.dispatch(ctx, &req, headerKey)
	if notification {
		return res, false
	}
	if rerr != nil {
		res.Error = rerr
	} else {
		res.Result = result
	}
	return res, true
}

func (s *Service) dispatch(ctx context.Context, req *request, headerKey string) (any, *Error) {
	m, ok := methods[req.Method]
	if !ok {
		return nil, &Error{Code: codeMethodNotFound, Message: fmt.Sprintf("method %q not found; methods: pm_entrypoints, pm_supported_tokens, pm_sponsor_userop", req.Method)}
	}
	var params []json.RawMessage
	if len(bytes.TrimSpace(req.Params)) > 0 && string(bytes.TrimSpace(req.Params)) != "null" {
		if err := json.Unmarshal(req.Params, &params); err != nil {
			return nil, &Error{Code: codeInvalidParams, Message: "params must be an array"}
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
		return nil, &Error{Code: codePaymasterRejected, Message: "missing API key: send it in the X-API-Key header (or as params[1])"}
	}
	key, err := s.keys.Authorize(secret, m.scope)
	var (
		nerr *networkError
		serr *scopeError
	)
	switch {
	case errors.As(err, &nerr):
		return nil, &Error{Code: codePaymasterRejected, Message: nerr.Error()}
	case errors.Is(err, ErrInvalidKey):
		return nil, &Error{Code: codePaymasterRejected, Message: "invalid API key: unknown, revoked or rotated"}
	case errors.As(err, &serr):
		return nil, &Error{Code: codePaymasterRejected, Message: serr.Error()}
	case err != nil:
		s.log.Error("reading API keys", zap.Error(err))
		return nil, &Error{Code: codeInternal, Message: "internal error"}
	}
	return m.run(s, ctx, &call{params: params, key: key})
}
