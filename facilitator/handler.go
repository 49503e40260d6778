package facilitator

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
	"golang.org/x/time/rate"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// MaxBodySize caps the body of /verify and /settle.
const MaxBodySize = 64 << 10

// DefaultBodyTimeout bounds the reading of a request body by default.
const DefaultBodyTimeout = 10 * time.Second

// RetryAfterSeconds is the Retry-After of transient settle answers (503) and
// of in_flight (409).
const RetryAfterSeconds = "1"

// Facilitator is what the handler serves; *Service and *Client have it.
type Facilitator interface {
	Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error)
	Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error)
	Supported(ctx context.Context) (*x402.Supported, error)
	Health(ctx context.Context) (*x402.Health, error)
}

// Handler serves the spec's four routes, /health, /supported, /verify and
// /settle, and /sponsor, under whatever prefix it is mounted at (it matches
// the last path segment). Every answer is JSON, including errors.
//
// Who may call what: /health, /supported and /verify are public, as the
// spec says. /settle spends the settler's gas, so a caller without a
// credential may settle only a payment that pays one of Offers (one of this
// server's merchants, at one of its prices); a remote merchant settles its
// own payments with a facilitator API key in Authorization: Bearer, within
// a per-key rate. /sponsor is public and sponsors only settlements of
// Offers, within the facilitator's anonymous budget.
//
// The resource a settle request names (its top-level resource, the
// merchant's own description of what it sold) is recorded only from a
// caller with a key: an anonymous caller may be the payer itself.
type Handler struct {
	// Facilitator does the work.
	Facilitator Facilitator
	// Network is reported when a request is too malformed to say; it is the
	// facilitator's configured network.
	Network string
	// Offers are what a caller without a credential may settle; nil
	// refuses every settle without one.
	Offers Offers
	// AuthorizeSettle checks the bearer key of a settle and returns the
	// key's id (for its rate limit); nil accepts no key.
	AuthorizeSettle func(secret string) (keyID string, err error)
	// SettlesPerMinute bounds the settles of one key; default 600.
	SettlesPerMinute int
	// ClientIP names a request's client for the anonymous budgets; default
	// the host of RemoteAddr (behind a proxy, pass the proxy-aware one).
	ClientIP func(*http.Request) string
	// SettleTimeout bounds one settle; default 2 minutes. A settle runs to
	// its end even if its caller disconnects, so that a payment is never
	// left half-settled because a client went away.
	SettleTimeout time.Duration
	// BodyTimeout bounds the reading of a request body; default 10 s. A
	// body trickled slower is answered 408, so slow clients cannot hold
	// requests open.
	BodyTimeout time.Duration
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
	// Catalog is what GET /discovery/resources lists; nil answers it 404.
	Catalog *Catalog
	// VerifiesPerMinute bounds the anonymous /verify requests of one
	// client address (an IPv6 client by its /64); default 1200, -1 for no
	// limit. A caller with a facilitator API key is not counted
	// (verifybudget.go).
	VerifiesPerMinute int
	// AnonymousVerifiesPerSecond bounds the anonymous /verify requests of
	// all clients together; default 500, -1 for no limit.
	AnonymousVerifiesPerSecond int
	// Now is the clock of the /verify budget; default time.Now.
	Now func() time.Time

	limitsMu sync.Mutex
	limiters map[string]*rate.Limiter
	verifies verifyBudget
}

// SettleStatus is the HTTP status of a settle response: 200 for success,
// verify_failed and user_op_failed; 409 for in_flight; 503 for the transient
// bundler_unreachable and receipt_timeout; 500 for internal_error.
func SettleStatus(r *x402.SettleResponse) int {
	switch r.ErrorCode {
	case "", x402.ErrorVerifyFailed, x402.ErrorUserOpFailed:
		return http.StatusOK
	case x402.ErrorInFlight:
		return http.StatusConflict
	case x402.ErrorBundlerUnreachable, x402.ErrorReceiptTimeout:
		return http.StatusServiceUnavailable
	default:
		return http.StatusInternalServerError
	}
}

// ServeHTTP routes by the last path segment.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		timeout := h.BodyTimeout
		if timeout <= 0 {
			timeout = DefaultBodyTimeout
		}
		// Not every ResponseWriter can (a recorder in tests); then the
		// server's own timeouts apply.
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(timeout))
	}
	path := strings.TrimRight(r.URL.Path, "/")
	route := path[strings.LastIndexByte(path, '/')+1:]
	switch route {
	case "health":
		if h.method(w, r, http.MethodGet) {
			h.health(w, r)
		}
	case "supported":
		if h.method(w, r, http.MethodGet) {
			h.supported(w, r)
		}
	case "verify":
		if h.method(w, r, http.MethodPost) {
			h.verify(w, r)
		}
	case "settle":
		if h.method(w, r, http.MethodPost) {
			h.settle(w, r)
		}
	case "sponsor":
		if h.method(w, r, http.MethodPost) {
			h.sponsor(w, r)
		}
	case "resources": // /discovery/resources
		if h.method(w, r, http.MethodGet) {
			h.discovery(w, r)
		}
	default:
		edge.WriteJSON(w, http.StatusNotFound, errorBody{Error: "not_found", Message: "routes are /health, /supported, /verify, /settle, /sponsor and /discovery/resources"})
	}
}

// errorBody is the answer of a request that reaches no route's logic.
type errorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

func (h *Handler) log() *zap.Logger {
	if h.Logger == nil {
		return zap.NewNop()
	}
	return h.Logger
}

func (h *Handler) method(w http.ResponseWriter, r *http.Request, want string) bool {
	if r.Method == want || (want == http.MethodGet && r.Method == http.MethodHead) {
		return true
	}
	w.Header().Set("Allow", want)
	edge.WriteJSON(w, http.StatusMethodNotAllowed, errorBody{Error: "method_not_allowed", Message: want + " only"})
	return false
}

func (h *Handler) health(w http.ResponseWriter, r *http.Request) {
	res, err := h.Facilitator.Health(r.Context())
	if err != nil {
		h.log().Warn("health check failed", zap.Error(err))
		if res == nil {
			res = &x402.Health{Status: "unavailable", Network: h.Network, Service: ServiceName, Version: Version}
		}
		edge.WriteJSON(w, http.StatusServiceUnavailable, res)
		return
	}
	edge.WriteJSON(w, http.StatusOK, res)
}

func (h *Handler) supported(w http.ResponseWriter, r *http.Request) {
	res, err := h.Facilitator.Supported(r.Context())
	if err != nil {
		h.log().Error("supported failed", zap.Error(err))
		edge.WriteJSON(w, http.StatusInternalServerError, errorBody{Error: "internal_error", Message: "internal error"})
		return
	}
	edge.WriteJSON(w, http.StatusOK, res)
}

// readRequest decodes a verify or settle body, in version 2's form, and
// reports whether it was an x402 v1 request (whose answer then names its
// network as v1 does). On failure it returns the HTTP status and a
// message.
func (h *Handler) readRequest(w http.ResponseWriter, r *http.Request) (req *x402.VerifyRequest, v1 bool, status int, msg string) {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			return nil, false, http.StatusUnsupportedMediaType, fmt.Sprintf("content type %q: want application/json", ct)
		}
	}
	// The body is read into a buffer of its own, which the request it
	// decodes to keeps (ParseVerifyRequestOwning): its strings are views
	// of it, not copies.
	body, err := readBody(http.MaxBytesReader(w, r.Body, MaxBodySize), r.ContentLength)
	if err != nil {
		var tooLarge *http.MaxBytesError
		switch {
		case errors.As(err, &tooLarge):
			return nil, false, http.StatusRequestEntityTooLarge, fmt.Sprintf("body over %d bytes", MaxBodySize)
		case errors.Is(err, os.ErrDeadlineExceeded):
			return nil, false, http.StatusRequestTimeout, "the body was not received in time"
		}
		return nil, false, http.StatusBadRequest, "reading the body failed"
	}
	if len(body) == 0 {
		return nil, false, http.StatusBadRequest, "empty body; want a JSON request"
	}
	req, err = x402.ParseVerifyRequestOwning(body)
	if err != nil {
		return nil, false, http.StatusBadRequest, "body is not a JSON request: " + err.Error()
	}
	if req.PaymentPayload.X402Version == x402.VersionV1 {
		// A v1 payment, from an x402 v1 merchant: the request is decoded
		// again as v1 and verified or settled as the v2 request it
		// converts to, against the same requirements (see
		// x402.VerifyRequestV1). The payment's own version decides, as a
		// v2 payment in a request that says 1 is a v2 request's mistake.
		if req, err = x402.ParseVerifyRequestV1(body); err != nil {
			return nil, false, http.StatusBadRequest, "x402 v1 request: " + err.Error()
		}
		return req, true, 0, ""
	}
	if err := req.Validate(); err != nil {
		return nil, false, http.StatusBadRequest, err.Error()
	}
	return req, false, 0, ""
}

// readBody reads a request body of size bytes (-1 if unknown), into one
// allocation when the size is known and within MaxBodySize.
func readBody(r io.Reader, size int64) ([]byte, error) {
	if size <= 0 || size > MaxBodySize {
		return io.ReadAll(r)
	}
	b := make([]byte, 0, size+1) // one byte more, to read EOF without growing
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		switch {
		case err == io.EOF:
			return b, nil
		case err != nil:
			return b, err
		case len(b) == cap(b): // longer than announced
			b = append(b, 0)[:len(b)]
		}
	}
}

func (h *Handler) verify(w http.ResponseWriter, r *http.Request) {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	if !h.verifyAllowed(r, now()) {
		w.Header().Set("Retry-After", "1")
		edge.WriteJSON(w, http.StatusTooManyRequests, &x402.VerifyResponse{InvalidMessage: "rate_limited: this client's (or all anonymous callers') verifications per minute are spent; retry after Retry-After, or call with a facilitator API key"})
		return
	}
	req, _, status, msg := h.readRequest(w, r)
	if req == nil {
		edge.WriteJSON(w, status, &x402.VerifyResponse{InvalidReason: x402.ReasonMalformedRequest, InvalidMessage: msg})
		return
	}
	res, err := h.Facilitator.Verify(r.Context(), req)
	if err != nil {
		w.Header().Set("Retry-After", RetryAfterSeconds)
		if res == nil {
			res = &x402.VerifyResponse{InvalidMessage: "the facilitator could not complete verification; retry"}
		}
		edge.WriteJSON(w, http.StatusServiceUnavailable, res)
		return
	}
	status = http.StatusOK
	if res.InvalidReason == x402.ReasonMalformedRequest {
		status = http.StatusBadRequest
	}
	if body, ok := validAnswer(res); ok {
		edge.WriteEncoded(w, status, body)
		return
	}
	edge.WriteJSON(w, status, res)
}

// validAnswer is the answer almost every /verify gets, a valid payment
// with nothing beside its payer, joined from bytes: what edge.WriteJSON
// writes of res, without encoding/json. ok is false for any other answer,
// or a payer that is not the 0x hex of an address.
func validAnswer(res *x402.VerifyResponse) (body []byte, ok bool) {
	const head, tail = `{"isValid":true,"payer":"`, "\"}\n"
	if !res.IsValid || res.InvalidReason != "" || res.InvalidMessage != "" || res.Extra != nil || !isHexAddress(res.Payer) {
		return nil, false
	}
	body = make([]byte, 0, len(head)+len(res.Payer)+len(tail))
	body = append(body, head...)
	body = append(body, res.Payer...)
	return append(body, tail...), true
}

// isHexAddress reports whether s is 0x and 40 hex digits, in any case.
func isHexAddress(s string) bool {
	if len(s) != 42 || s[:2] != "0x" {
		return false
	}
	for i := 2; i < len(s); i++ {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f') {
			return false
		}
	}
	return true
}

func (h *Handler) settle(w http.ResponseWriter, r *http.Request) {
	req, v1, status, msg := h.readRequest(w, r)
	if req == nil {
		edge.WriteJSON(w, status, &x402.SettleResponse{
			X402Version: x402.Version, Network: h.Network,
			ErrorCode: x402.ErrorVerifyFailed, Message: string(x402.ReasonMalformedRequest) + ": " + msg,
		})
		return
	}
	if status, msg := h.authorizeSettle(w, r, req); status != 0 {
		edge.WriteJSON(w, status, &x402.SettleResponse{
			X402Version: x402.Version, Network: req.PaymentRequirements.Network,
			ErrorCode: x402.ErrorVerifyFailed, Message: msg,
		})
		return
	}
	if r.Header.Get("Authorization") == "" {
		// Without a credential the caller may be the payer itself, settling
		// a payment of one of this server's offers directly: what it says
		// was sold is not recorded (see x402.VerifyRequest.Resource). A
		// merchant's key makes it the merchant's statement.
		req.Resource = nil
	}
	timeout := h.SettleTimeout
	if timeout <= 0 {
		timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), timeout)
	defer cancel()
	if k := r.Header.Get(x402.HeaderIdempotencyKey); k != "" && len(k) <= x402.MaxIdempotencyKeySize {
		ctx = x402.WithIdempotencyKey(ctx, k)
	}
	res, err := h.Facilitator.Settle(ctx, req)
	if err != nil {
		h.log().Warn("settle failed", zap.Error(err))
		if res == nil {
			res = &x402.SettleResponse{X402Version: x402.Version, Network: h.Network, ErrorCode: x402.ErrorBundlerUnreachable, Message: "the facilitator could not be reached; retry"}
		}
	}
	status = SettleStatus(res)
	if res.ErrorCode == x402.ErrorVerifyFailed && res.InvalidReason == x402.ReasonMalformedRequest {
		status = http.StatusBadRequest
	}
	if status == http.StatusServiceUnavailable || status == http.StatusConflict {
		w.Header().Set("Retry-After", RetryAfterSeconds)
	}
	if v1 {
		v := res.V1() // the network by its v1 name, for a v1 merchant
		edge.WriteJSON(w, status, &v)
	} else {
		edge.WriteJSON(w, status, res)
	}
	if res.Success {
		// The receipt left: for this facilitator, the payment bought its
		// response (the caller's retries, with the same idempotency key,
		// are still handed it).
		if f, ok := h.Facilitator.(interface {
			Served(context.Context, *x402.SettleRequest) error
		}); ok {
			f.Served(ctx, req)
		}
	}
}

// authorizeSettle decides whether the caller may settle req: with a valid
// bearer key within its rate, or without one for a payment of Offers. It
// returns 0, or the status and message of a refusal (which it has set
// headers for).
func (h *Handler) authorizeSettle(w http.ResponseWriter, r *http.Request, req *x402.SettleRequest) (int, string) {
	if auth := r.Header.Get("Authorization"); auth != "" {
		secret, ok := strings.CutPrefix(auth, "Bearer ")
		if !ok || h.AuthorizeSettle == nil {
			w.Header().Set("WWW-Authenticate", `Bearer realm="x402 facilitator"`)
			return http.StatusUnauthorized, "unauthorized: want Authorization: Bearer <facilitator API key>"
		}
		id, err := h.AuthorizeSettle(strings.TrimSpace(secret))
		if err != nil {
			h.log().Info("settle refused: bad key", zap.Error(err))
			w.Header().Set("WWW-Authenticate", `Bearer realm="x402 facilitator", error="invalid_token"`)
			return http.StatusUnauthorized, "unauthorized: the API key is unknown, revoked, rotated, or lacks the facilitator:settle scope"
		}
		if !h.limiter(id).Allow() {
			w.Header().Set("Retry-After", "1")
			return http.StatusTooManyRequests, "rate_limited: this key's settles per minute are spent; retry after Retry-After"
		}
		return 0, ""
	}
	pr := &req.PaymentRequirements
	if why := h.credentialNeeded(r.Context(), pr.Network, pr.Scheme, req.PaymentPayload.Accepted.Scheme); why != "" {
		// What such a payment owes only the merchant knows (an upto
		// payment's is what its response used): without a credential,
		// the payer itself could settle it for one unit while its
		// response streams.
		w.Header().Set("WWW-Authenticate", `Bearer realm="x402 facilitator"`)
		return http.StatusUnauthorized, "unauthorized: " + why
	}
	payTo, _ := x402.ParseAddress(pr.PayTo)
	asset, _ := x402.ParseAddress(pr.Asset)
	amount, _ := x402.ParseAmount(pr.Amount)
	if no, ok := h.Offers.(NetworkOffers); ok {
		if no.IssuedOn(pr.Network, pr.Scheme, payTo, asset, amount) {
			return 0, ""
		}
	} else if h.Offers != nil && h.Offers.Issued(pr.Scheme, payTo, asset, amount) {
		return 0, ""
	}
	w.Header().Set("WWW-Authenticate", `Bearer realm="x402 facilitator"`)
	return http.StatusUnauthorized, "unauthorized: without a credential this facilitator settles only payments of its own paid routes (merchant, asset and amount); other merchants need Authorization: Bearer <facilitator API key>"
}

// CredentialPolicy is a Facilitator that says which settlements need the
// caller's credential whatever Offers say: *Service does, from its
// schemes (scheme.Credentialed). The handler asks it before Offers; a
// Facilitator without it needs a credential only for payments that pay
// none of Offers.
type CredentialPolicy interface {
	// SettleCredential says why a settlement of the scheme named on
	// network needs the caller's credential, or "" if it does not.
	SettleCredential(ctx context.Context, network, name string) string
}

// credentialNeeded says why a settle of the first of schemes that needs
// the caller's credential does (the requirements' and the payment's
// accepted scheme, which differ only in a payment the facilitator
// refuses), or "" if none does.
func (h *Handler) credentialNeeded(ctx context.Context, network string, schemes ...string) string {
	cp, ok := h.Facilitator.(CredentialPolicy)
	if !ok {
		return ""
	}
	for _, name := range schemes {
		if why := cp.SettleCredential(ctx, network, name); why != "" {
			return fmt.Sprintf("a settlement of scheme %q needs Authorization: Bearer <facilitator API key>; %s", name, why)
		}
	}
	return ""
}

// keyed reports whether r carries a facilitator API key that
// AuthorizeSettle accepts.
func (h *Handler) keyed(r *http.Request) bool {
	secret, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || h.AuthorizeSettle == nil {
		return false
	}
	_, err := h.AuthorizeSettle(strings.TrimSpace(secret))
	return err == nil
}

// limiter is a key's settle rate.
func (h *Handler) limiter(id string) *rate.Limiter {
	h.limitsMu.Lock()
	defer h.limitsMu.Unlock()
	if h.limiters == nil {
		h.limiters = map[string]*rate.Limiter{}
	}
	l, ok := h.limiters[id]
	if !ok {
		n := h.SettlesPerMinute
		if n <= 0 {
			n = 600
		}
		l = rate.NewLimiter(rate.Limit(float64(n)/60), max(1, n/10))
		h.limiters[id] = l
	}
	return l
}

// clientIP names the caller for anonymous budgets.
func (h *Handler) clientIP(r *http.Request) string {
	if h.ClientIP != nil {
		return h.ClientIP(r)
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// Sponsorer sponsors aa-native operations without a payer key, for a
// client address, in the wire form of the EntryPoint at entryPoint;
// *Service has it (SponsorOperationAt).
type Sponsorer interface {
	SponsorOperationAt(ctx context.Context, entryPoint common.Address, op json.RawMessage, gas x402.SponsorContext, client string) (json.RawMessage, error)
}

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *rpcError       `json:"error,omitempty"`
}

// isObject reports whether raw is a JSON object.
func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(raw, &m) == nil && m != nil
}

// sponsor serves POST /sponsor: JSON-RPC pm_sponsor_userop(userOp,
// entryPoint, context?) without a key. The facilitator sponsors only its
// own kind of settlement; context is {type, token?} as the paymaster
// takes it (type 0, free gas, when absent), its validUntil the
// facilitator's own.
func (h *Handler) sponsor(w http.ResponseWriter, r *http.Request) {
	reply := rpcReply{JSONRPC: "2.0", ID: json.RawMessage("null")}
	sp, ok := h.Facilitator.(Sponsorer)
	if !ok {
		reply.Error = &rpcError{Code: int(x402.RPCMethodNotFound), Message: "this facilitator does not sponsor operations"}
		edge.WriteJSON(w, http.StatusOK, reply)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodySize))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		reply.Error = &rpcError{Code: int(x402.RPCInvalidRequest), Message: "the body was not received in time"}
		edge.WriteJSON(w, http.StatusRequestTimeout, reply)
		return
	}
	var req struct {
		JSONRPC string            `json:"jsonrpc"`
		ID      json.RawMessage   `json:"id"`
		Method  string            `json:"method"`
		Params  []json.RawMessage `json:"params"`
	}
	if err != nil || json.Unmarshal(body, &req) != nil {
		reply.Error = &rpcError{Code: int(x402.RPCParseError), Message: "the body is not a JSON-RPC request"}
		edge.WriteJSON(w, http.StatusOK, reply)
		return
	}
	if req.ID != nil {
		reply.ID = req.ID
	}
	var (
		entryPoint common.Address
		gas        x402.SponsorContext
	)
	if len(req.Params) >= 2 {
		var ep string
		if json.Unmarshal(req.Params[1], &ep) == nil && common.IsHexAddress(ep) {
			entryPoint = common.HexToAddress(ep)
		}
	}
	switch {
	case req.JSONRPC != "2.0" || req.Method != "pm_sponsor_userop":
		reply.Error = &rpcError{Code: int(x402.RPCMethodNotFound), Message: "only pm_sponsor_userop is served here"}
	case len(req.Params) == 0 || !isObject(req.Params[0]):
		reply.Error = &rpcError{Code: int(x402.RPCInvalidParams), Message: "params[0] must be the UserOperation"}
	case len(req.Params) >= 3 && string(req.Params[2]) != "null" && json.Unmarshal(req.Params[2], &gas) != nil:
		reply.Error = &rpcError{Code: int(x402.RPCInvalidParams), Message: "params[2] must be the context {type, token?}"}
	default:
		res, err := sp.SponsorOperationAt(r.Context(), entryPoint, req.Params[0], gas, h.clientIP(r))
		if err != nil {
			var se *SponsorError
			if !errors.As(err, &se) {
				h.log().Error("sponsoring", zap.Error(err))
				se = &SponsorError{Code: int(x402.RPCInternalError), Message: "internal error"}
			}
			reply.Error = &rpcError{Code: se.Code, Message: se.Message}
			if se.Code == int(x402.RPCThrottled) {
				w.Header().Set("Retry-After", "1")
			}
		} else {
			reply.Result = res
		}
	}
	edge.WriteJSON(w, http.StatusOK, reply)
}
