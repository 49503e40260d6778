package paymaster

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.opentelemetry.io/otel/propagation"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Client calls a paymaster over JSON-RPC with a server-side API key, and
// follows the spec's retry rules: -32503 (out of time range) is rebuilt and
// resent at most 3 times; -32504 (throttled) and HTTP 429 back off
// exponentially from Backoff; -32501 (configuration) is never retried;
// supported tokens are cached for a minute.
type Client struct {
	// URL is the paymaster's JSON-RPC endpoint.
	URL string
	// APIKey is sent in Header. It is never logged or returned.
	APIKey string
	// Header is the key's header; default X-API-Key. A facilitator uses
	// X-Paymaster-Api-Key.
	Header string
	// HTTPClient sends requests; default http.DefaultClient.
	HTTPClient *http.Client
	// Backoff is the first wait after a throttled answer; default 1 s.
	Backoff time.Duration
	// MaxRetries bounds retries of throttled answers; default 4.
	MaxRetries int
	// MaxBackoff caps one wait, including a server's Retry-After; default
	// 30 s.
	MaxBackoff time.Duration

	id     atomic.Int64
	mu     sync.Mutex
	tokens *SupportedTokens
	at     time.Time
}

// ErrTransport wraps failures to reach the paymaster or read its answer.
var ErrTransport = errors.New("paymaster unreachable")

// do sends one call, retrying throttled answers.
func (c *Client) do(ctx context.Context, method string, params []any, out any) error {
	backoff := c.Backoff
	if backoff <= 0 {
		backoff = time.Second
	}
	retries := c.MaxRetries
	if retries == 0 {
		retries = 4
	}
	for attempt := 0; ; attempt++ {
		err := c.once(ctx, method, params, out)
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != codeThrottled || attempt >= retries {
			return err
		}
		wait := backoff << attempt
		if rerr.RetryAfter > wait {
			wait = rerr.RetryAfter
		}
		maxWait := c.MaxBackoff
		if maxWait <= 0 {
			maxWait = 30 * time.Second
		}
		wait = min(wait, maxWait)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

func (c *Client) once(ctx context.Context, method string, params []any, out any) error {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id.Add(1), "method": method, "params": params})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	// Marked idempotent, so that net/http sends it again on a fresh
	// connection when a kept-alive one turns out closed (the paymaster
	// restarted, as on a Caddy reload) instead of failing with EOF. A
	// sponsorship sent twice is at worst counted twice against its
	// project's budget: never more spending, only less.
	req.Header.Set("X-Idempotency-Key", strconv.FormatInt(c.id.Load(), 10))
	// The paymaster's spans join the caller's trace (W3C traceparent);
	// nothing is added without a span in ctx.
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	header := c.Header
	if header == "" {
		header = "X-API-Key"
	}
	req.Header.Set(header, c.APIKey)
	hc := c.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrTransport, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return fmt.Errorf("%w: %v", ErrTransport, err)
	}
	var res struct {
		Result json.RawMessage `json:"result"`
		Error  *Error          `json:"error"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		if resp.StatusCode == http.StatusTooManyRequests {
			return &Error{Code: codeThrottled, Message: "HTTP 429", RetryAfter: retryAfter(resp)}
		}
		return fmt.Errorf("%w: HTTP %d with a body that is not JSON-RPC", ErrTransport, resp.StatusCode)
	}
	if res.Error != nil {
		if res.Error.Code == codeThrottled || resp.StatusCode == http.StatusTooManyRequests {
			res.Error.Code = codeThrottled
			res.Error.RetryAfter = retryAfter(resp)
		}
		return res.Error
	}
	return json.Unmarshal(res.Result, out)
}

func retryAfter(resp *http.Response) time.Duration {
	if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
		return time.Duration(s) * time.Second
	}
	return 0
}

// EntryPoints calls pm_entrypoints.
func (c *Client) EntryPoints(ctx context.Context) ([]common.Address, error) {
	var out []common.Address
	return out, c.do(ctx, "pm_entrypoints", []any{}, &out)
}

// SupportedTokens calls pm_supported_tokens, or answers from a cache at
// most a minute old.
func (c *Client) SupportedTokens(ctx context.Context, op x402.UserOperation, entryPoint common.Address) (*SupportedTokens, error) {
	c.mu.Lock()
	if c.tokens != nil && time.Since(c.at) < time.Minute {
		t := c.tokens
		c.mu.Unlock()
		return t, nil
	}
	c.mu.Unlock()
	var out SupportedTokens
	if err := c.do(ctx, "pm_supported_tokens", []any{op, entryPoint.Hex()}, &out); err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.tokens, c.at = &out, time.Now()
	c.mu.Unlock()
	return &out, nil
}

// SponsorOnce calls pm_sponsor_userop once, with the sponsorship context
// sc (type 0: free gas; 1 or 2: paid in sc.Token), without retrying
// throttled answers: for a server relaying its own callers' requests, who
// back off themselves.
func (c *Client) SponsorOnce(ctx context.Context, op x402.UserOperation, entryPoint common.Address, sc x402.SponsorContext) (x402.UserOperation, error) {
	var out x402.UserOperation
	err := c.once(ctx, "pm_sponsor_userop", []any{op, entryPoint.Hex(), sc}, &out)
	return out, err
}

// SponsorOnceAt is SponsorOnce of an operation in the wire form of the
// EntryPoint at entryPoint, of any version; the answer is in the same form.
func (c *Client) SponsorOnceAt(ctx context.Context, op json.RawMessage, entryPoint common.Address, sc x402.SponsorContext) (json.RawMessage, error) {
	var out json.RawMessage
	err := c.once(ctx, "pm_sponsor_userop", []any{op, entryPoint.Hex(), sc}, &out)
	return out, err
}

// Sponsor calls pm_sponsor_userop for free-gas sponsorship (type 0) and
// returns the operation with its gas fields and paymasterAndData. On
// -32503 it calls rebuild (if not nil) for a fresh operation and resends,
// at most 3 times.
func (c *Client) Sponsor(ctx context.Context, op x402.UserOperation, entryPoint common.Address, rebuild func(context.Context) (x402.UserOperation, error)) (x402.UserOperation, error) {
	for attempt := 0; ; attempt++ {
		var out x402.UserOperation
		err := c.do(ctx, "pm_sponsor_userop", []any{op, entryPoint.Hex(), map[string]any{"type": 0}}, &out)
		var rerr *Error
		if !errors.As(err, &rerr) || rerr.Code != codeOutOfTimeRange || attempt >= 3 {
			return out, err
		}
		if rebuild != nil {
			if op, err = rebuild(ctx); err != nil {
				return out, err
			}
		}
	}
}
