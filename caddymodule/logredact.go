package caddymodule

// Keeping secrets out of Caddy's logs.
//
// Caddy's access log records every request header except Cookie,
// Authorization and Proxy-Authorization, and it copies the request for
// that before any handler runs, so a handler cannot take a header out of
// it. The x402 handlers therefore take over the access-log entry of a
// request that carries a secret header: they mark the request log_skip,
// so Caddy writes nothing, and write the entry Caddy would have written,
// to the same loggers, with the secret values replaced by REDACTED.
//
// Caddy's error log records the request's headers too, whenever a handler
// returns an error. The paywall's only error is its upstream's, so the
// x402 handler answers that error itself (serveUpstream) rather than
// return it.

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"go.uber.org/zap"
	"go.uber.org/zap/zapcore"

	"github.com/caddy-x402/caddy-x402/siwx"
	"github.com/caddy-x402/caddy-x402/x402"
)

// secretHeaders are the canonical keys of the request headers whose values
// must never be logged: a payment (x402 v2's or v1's), which can be spent
// until it expires if it is never settled, a sign-in-with-x proof, which
// an access window serves until its nonce is spent, and API keys.
var secretHeaders = []string{
	http.CanonicalHeaderKey(x402.HeaderPaymentSignature),
	http.CanonicalHeaderKey(x402.HeaderXPayment),
	http.CanonicalHeaderKey(siwx.Header),
	"X-Api-Key",
	"X-Paymaster-Api-Key",
}

// isSecretHeader reports whether key, in any case, is a secret header.
func isSecretHeader(key string) bool {
	return slices.Contains(secretHeaders, http.CanonicalHeaderKey(key))
}

// hasSecret reports whether h carries a secret header.
func hasSecret(h http.Header) bool {
	for k := range h {
		if isSecretHeader(k) {
			return true
		}
	}
	return false
}

// redactedRequest is a copy of r to log: the method, URI and remote address
// it arrived with (as Caddy's access log shows them, whatever rewrites
// did), and REDACTED for the value of each secret header.
func redactedRequest(r *http.Request) *http.Request {
	c := r.Clone(r.Context())
	if orig, ok := r.Context().Value(caddyhttp.OriginalRequestCtxKey).(http.Request); ok {
		c.Method, c.RequestURI, c.RemoteAddr = orig.Method, orig.RequestURI, orig.RemoteAddr
	}
	for k := range c.Header {
		if isSecretHeader(k) {
			c.Header[k] = []string{"REDACTED"}
		}
	}
	return c
}

// accessLogModule stands for the logger of Caddy's access logs. Caddy routes
// a module's logs by its ID, so a logger obtained for this one is named
// http.log.access, as the http app's access logger is, and reaches the
// same outputs: the ones whose include list names http.log.access.<name>,
// which is what the `log` directive writes.
type accessLogModule struct{}

// CaddyModule names the access logger. It is not a registered module.
func (accessLogModule) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{ID: "http.log.access"}
}

// accessLog writes the access-log entries of requests that carry a secret
// header in Caddy's place. Its zero value writes none.
type accessLog struct {
	logger *zap.Logger
}

// newAccessLog is the access log of the config that ctx provisions.
func newAccessLog(ctx caddy.Context) accessLog {
	return accessLog{logger: ctx.Logger(accessLogModule{})}
}

// serve runs handle. If r carries a secret header and Caddy would write it
// to an access log, serve marks it log_skip and, when handle returns (or
// panics, as Caddy's own deferred entry would), writes Caddy's entry
// itself, with the secret values redacted.
//
// The entry differs from Caddy's in four ways: fields that log_append adds
// are missing (Caddy keeps them where a plugin cannot read them); request
// headers are as this handler received them, after any request_header
// changes ahead of it; status, size and response headers are as they are
// when this handler returns, before the handlers ahead of it finish; and
// bytes_read counts the body only, not what a hijacked connection reads.
func (a accessLog) serve(w http.ResponseWriter, r *http.Request, handle func(http.ResponseWriter, *http.Request) error) error {
	if a.logger == nil || !hasSecret(r.Header) {
		return handle(w, r)
	}
	srv, _ := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server)
	if srv == nil || srv.Logs == nil || !logsHost(srv.Logs, r.Host) {
		return handle(w, r)
	}
	if skip, _ := caddyhttp.GetVar(r.Context(), caddyhttp.LogSkipVar).(bool); skip {
		return handle(w, r)
	}
	caddyhttp.SetVar(r.Context(), caddyhttp.LogSkipVar, true)
	logged := redactedRequest(r)
	rec := caddyhttp.NewResponseRecorder(w, nil, nil)
	body := &countingBody{ReadCloser: r.Body}
	if r.Body != nil {
		r.Body = body
	}
	defer a.write(r, logged, srv.Logs, rec, body)
	return handle(rec, r)
}

// write writes the access-log entry of r, as Caddy's Server.logRequest
// does, with logged in place of the request.
func (a accessLog) write(r *http.Request, logged *http.Request, logs *caddyhttp.ServerLogConfig, rec caddyhttp.ResponseRecorder, body *countingBody) {
	ctx := r.Context()
	var duration time.Duration
	if start, ok := caddyhttp.GetVar(ctx, "start_time").(time.Time); ok {
		duration = time.Since(start)
	}
	status := rec.Status()
	level := zapcore.InfoLevel
	if status >= 500 {
		level = zapcore.ErrorLevel
	}
	if name, ok := caddyhttp.GetVar(ctx, caddyhttp.LogLevelVar).(string); ok {
		if l, err := zapcore.ParseLevel(name); err == nil && l >= zapcore.DebugLevel && l <= zapcore.ErrorLevel {
			level = l
		}
	}
	msg := "handled request"
	if nop, _ := caddyhttp.GetVar(ctx, "unhandled").(bool); nop {
		msg = "NOP"
	}
	logger := a.logger.WithLazy(zap.Object("request", caddyhttp.LoggableHTTPRequest{
		Request: logged, ShouldLogCredentials: logs.ShouldLogCredentials,
	}))
	var fields []zap.Field
	for _, name := range loggerNames(logs, r) {
		l := logger
		if name != "" {
			l = logger.Named(name)
		}
		c := l.Check(level, msg)
		if c == nil {
			continue
		}
		if fields == nil {
			var userID string
			if repl, ok := ctx.Value(caddy.ReplacerCtxKey).(*caddy.Replacer); ok {
				userID, _ = repl.GetString("http.auth.user.id")
			}
			fields = []zap.Field{
				zap.Int("bytes_read", int(body.n.Load())),
				zap.String("user_id", userID),
				zap.Duration("duration", duration),
				zap.Int("size", rec.Size()),
				zap.Int("status", status),
				zap.Object("resp_headers", caddyhttp.LoggableHTTPHeader{
					Header: rec.Header(), ShouldLogCredentials: logs.ShouldLogCredentials,
				}),
			}
		}
		c.Write(fields...)
	}
}

// logsHost reports whether Caddy writes the requests for hostport to an
// access log, as Server.shouldLogRequest decides it.
func logsHost(logs *caddyhttp.ServerLogConfig, hostport string) bool {
	host := hostOnly(hostport)
	for name := range logs.LoggerNames {
		if matchWildcard(host, name) {
			return true
		}
	}
	for _, skip := range logs.SkipHosts {
		if matchWildcard(host, skip) {
			return false
		}
	}
	return !logs.SkipUnmappedHosts
}

// loggerNames are the names of the access loggers r is written to, under
// http.log.access ("" is that logger itself), as ServerLogConfig's
// wrapLogger chooses them: the access_logger_names variable (the log_name
// directive), else the names of r's host, exact or wildcard, else the
// default.
func loggerNames(logs *caddyhttp.ServerLogConfig, r *http.Request) []string {
	if v, ok := caddyhttp.GetVar(r.Context(), caddyhttp.AccessLoggerNameVarKey).([]any); ok {
		names := make([]string, 0, len(v))
		for _, n := range v {
			s, _ := n.(string)
			names = append(names, s)
		}
		return names
	}
	host, _, err := net.SplitHostPort(r.Host)
	if err != nil {
		host = r.Host
	}
	host = strings.ToLower(host)
	if names, ok := logs.LoggerNames[host]; ok {
		return names
	}
	labels := strings.Split(host, ".")
	for i := range labels {
		if labels[i] == "" {
			continue
		}
		labels[i] = "*"
		if names, ok := logs.LoggerNames[strings.Join(labels, ".")]; ok {
			return names
		}
	}
	return []string{logs.DefaultLoggerName}
}

// hostOnly is hostport without its port or IPv6 brackets.
func hostOnly(hostport string) string {
	host, _, err := net.SplitHostPort(hostport)
	if err == nil {
		return host
	}
	if len(hostport) > 1 && hostport[0] == '[' && hostport[len(hostport)-1] == ']' {
		return hostport[1 : len(hostport)-1]
	}
	return hostport
}

// matchWildcard reports whether host matches name, a host name in which
// one label may be "*", as certmagic.MatchWildcard (which Caddy uses for
// this) does.
func matchWildcard(host, name string) bool {
	host, name = strings.ToLower(host), strings.ToLower(name)
	if host == name {
		return true
	}
	if !strings.Contains(name, "*") {
		return false
	}
	labels := strings.Split(host, ".")
	for i := range labels {
		if labels[i] == "" {
			continue
		}
		labels[i] = "*"
		if strings.Join(labels, ".") == name {
			return true
		}
	}
	return false
}

// countingBody counts the bytes read from a request body, for bytes_read.
type countingBody struct {
	io.ReadCloser
	n atomic.Int64
}

// Read reads from the body and counts what it read.
func (b *countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// serveUpstream runs the paywall's next handler, which only paid requests
// reach. If next fails before it answers, serveUpstream answers the failure
// itself and returns nil:
// returned, the error would reach Caddy's error log, which records the
// request's headers, payment included, and then handle_errors. The error is
// logged here instead, with the request redacted.
func serveUpstream(w http.ResponseWriter, r *http.Request, next caddyhttp.Handler, log *zap.Logger) error {
	// The paywall has taken PAYMENT-SIGNATURE off r by now, but Caddy's
	// error log records the copy it made before any handler ran.
	rec := caddyhttp.NewResponseRecorder(w, nil, nil)
	err := next.ServeHTTP(rec, r)
	if err == nil {
		return nil
	}
	status := http.StatusInternalServerError // as Caddy answers an error without a status
	fields := []zap.Field{zap.Error(err)}
	if herr, ok := errors.AsType[caddyhttp.HandlerError](err); ok {
		if herr.StatusCode >= 400 {
			status = herr.StatusCode
		}
		fields = append(fields, zap.String("err_id", herr.ID), zap.String("err_trace", herr.Trace))
	}
	creds := false
	if srv, ok := r.Context().Value(caddyhttp.ServerCtxKey).(*caddyhttp.Server); ok && srv.Logs != nil {
		creds = srv.Logs.ShouldLogCredentials
	}
	fields = append(fields, zap.Int("status", status),
		zap.Object("request", caddyhttp.LoggableHTTPRequest{Request: redactedRequest(r), ShouldLogCredentials: creds}))
	level := zapcore.DebugLevel // as Caddy logs a handler error under 500
	if status >= 500 {
		level = zapcore.ErrorLevel
	}
	if c := log.Check(level, "x402 upstream failed"); c != nil {
		c.Write(fields...)
	}
	if rec.Status() >= 200 {
		return nil // the upstream answered before it failed; its answer stands
	}
	msg := "the upstream failed; the payment was not charged"
	if rec.Header().Get(x402.HeaderPaymentResponse) != "" {
		msg = "the upstream failed after the payment was settled" // settle_before, or an upgrade
	}
	rec.Header().Set("Content-Type", "application/json")
	rec.Header().Set("Cache-Control", "no-store")
	rec.WriteHeader(status)
	fmt.Fprintf(rec, "{\"error\":%q}\n", msg)
	return nil
}

// Interface guards.
var _ caddy.Module = accessLogModule{}
