package facilitator

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"go.opentelemetry.io/otel/propagation"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Client is a remote facilitator over HTTP. It has the methods of
// [Service], so either can stand behind a merchant's middleware.
type Client struct {
	// BaseURL is the facilitator's base, such as https://x402.example.com;
	// the route names are appended to it.
	BaseURL string
	// HTTPClient sends the requests; default http.DefaultClient.
	HTTPClient *http.Client
	// APIKey is the facilitator API key (scope facilitator:settle) sent as
	// Authorization: Bearer with /settle. A facilitator settles without one
	// only the payments of its own paid routes. Never logged.
	APIKey string
}

// ErrStatus reports an HTTP answer that is not one the facilitator gives.
var ErrStatus = errors.New("facilitator: unexpected answer")

func (c *Client) do(ctx context.Context, method, route string, in, out any) (int, error) {
	var body io.Reader
	if in != nil {
		raw, err := json.Marshal(in)
		if err != nil {
			return 0, err
		}
		body = bytes.NewReader(raw)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(c.BaseURL, "/")+"/"+route, body)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", "application/json")
	// The facilitator's spans join the caller's trace (W3C traceparent);
	// nothing is added without a span in ctx.
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	if in != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if route == "settle" {
		if k := x402.IdempotencyKey(ctx); k != "" {
			req.Header.Set(x402.HeaderIdempotencyKey, k)
		}
		if c.APIKey != "" {
			req.Header.Set("Authorization", "Bearer "+c.APIKey)
		}
	}
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("facilitator %s: %w", route, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return resp.StatusCode, fmt.Errorf("facilitator %s: reading the answer: %w", route, err)
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return resp.StatusCode, fmt.Errorf("%w: %s answered %d with a body that is not JSON", ErrStatus, route, resp.StatusCode)
	}
	return resp.StatusCode, nil
}

// Verify calls POST /verify. A 503 is returned as the response and an error
// wrapping ErrUnavailable, as [Service.Verify] does.
func (c *Client) Verify(ctx context.Context, req *x402.VerifyRequest) (*x402.VerifyResponse, error) {
	var res x402.VerifyResponse
	status, err := c.do(ctx, http.MethodPost, "verify", req, &res)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	case status == http.StatusOK, status == http.StatusBadRequest:
		return &res, nil
	case status == http.StatusServiceUnavailable:
		return &res, fmt.Errorf("%w: verify answered 503", ErrUnavailable)
	default:
		return &res, fmt.Errorf("%w: verify answered %d", ErrStatus, status)
	}
}

// Settle calls POST /settle, with the idempotency key ctx carries (see
// [x402.WithIdempotencyKey]) in the Idempotency-Key header. Every status the
// facilitator uses comes back as a response whose error code says what
// happened; a transport failure is reported as bundler_unreachable with an
// error.
func (c *Client) Settle(ctx context.Context, req *x402.SettleRequest) (*x402.SettleResponse, error) {
	var res x402.SettleResponse
	status, err := c.do(ctx, http.MethodPost, "settle", req, &res)
	if err != nil {
		return &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network,
			ErrorCode: x402.ErrorBundlerUnreachable, Message: "the facilitator could not be reached"}, err
	}
	if status == http.StatusUnauthorized || status == http.StatusTooManyRequests {
		// The merchant's credential or rate, not the payment: nothing was
		// claimed, and the payer must not be asked to pay again.
		return &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network,
			ErrorCode: x402.ErrorInternal, Message: res.Message}, fmt.Errorf("%w: settle answered %d: %s", ErrStatus, status, res.Message)
	}
	if res.X402Version == 0 {
		return &x402.SettleResponse{X402Version: x402.Version, Network: req.PaymentRequirements.Network,
			ErrorCode: x402.ErrorInternal, Message: "the facilitator's answer is not a settle response"}, fmt.Errorf("%w: settle answered %d", ErrStatus, status)
	}
	return &res, nil
}

// Supported calls GET /supported.
func (c *Client) Supported(ctx context.Context) (*x402.Supported, error) {
	var res x402.Supported
	status, err := c.do(ctx, http.MethodGet, "supported", nil, &res)
	if err != nil {
		return nil, err
	}
	if status != http.StatusOK {
		return nil, fmt.Errorf("%w: supported answered %d", ErrStatus, status)
	}
	return &res, nil
}

// Health calls GET /health; a non-2xx answer or a status other than ok is an
// error, as the spec tells agents to treat it.
func (c *Client) Health(ctx context.Context) (*x402.Health, error) {
	var res x402.Health
	status, err := c.do(ctx, http.MethodGet, "health", nil, &res)
	if err != nil {
		return nil, err
	}
	if status/100 != 2 || res.Status != "ok" {
		return &res, fmt.Errorf("%w: health answered %d, status %q", ErrStatus, status, res.Status)
	}
	return &res, nil
}

// Interface guards.
var (
	_ Facilitator = (*Service)(nil)
	_ Facilitator = (*Client)(nil)
)
