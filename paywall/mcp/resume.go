package mcp

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
	"sync"
	"time"
)

// A streamable HTTP server that keeps its streams' events (an event store)
// replays them to a client that resumes a stream with GET and
// Last-Event-ID, the response of a priced call among them. The MCP
// paywall remembers the priced calls of each session, and drops their
// responses from every GET stream: a call's result reaches its client only
// in the answer to its paid POST.

// pricedTTL is how long a priced call is remembered; a server's event
// store keeps its events for less.
const pricedTTL = 24 * time.Hour

// maxPriced bounds the priced calls remembered. Past it, every response
// on a GET stream is dropped until old calls expire (fail closed).
const maxPriced = 1 << 17

// pricedCalls are the priced calls of the sessions, by session id and
// request id.
type pricedCalls struct {
	mu   sync.Mutex
	m    map[string]time.Time
	full bool
}

func pricedKey(session string, id json.RawMessage) string { return session + "\x00" + idKey(id) }

// add remembers a priced call.
func (p *pricedCalls) add(session string, id json.RawMessage, now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.m == nil {
		p.m = map[string]time.Time{}
	}
	if len(p.m) >= maxPriced {
		for k, at := range p.m {
			if now.Sub(at) > pricedTTL {
				delete(p.m, k)
			}
		}
		p.full = len(p.m) >= maxPriced
		if p.full {
			return
		}
	}
	p.m[pricedKey(session, id)] = now
}

// drops reports whether a response to id in session must not go out on a
// GET stream.
func (p *pricedCalls) drops(session string, id json.RawMessage) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.full {
		return true
	}
	_, ok := p.m[pricedKey(session, id)]
	return ok
}

// resumeFilter passes a GET stream on, event by event, without the
// responses drop names.
type resumeFilter struct {
	w       http.ResponseWriter
	drop    func(id json.RawMessage) bool
	decided bool
	sse     bool
	buf     bytes.Buffer
}

func (f *resumeFilter) Header() http.Header { return f.w.Header() }

func (f *resumeFilter) WriteHeader(status int) {
	if f.decided || status < 200 {
		return
	}
	f.decided = true
	ct, _, _ := mime.ParseMediaType(f.w.Header().Get("Content-Type"))
	f.sse = status == http.StatusOK && ct == "text/event-stream"
	f.w.WriteHeader(status)
}

func (f *resumeFilter) Write(b []byte) (int, error) {
	if !f.decided {
		f.WriteHeader(http.StatusOK)
	}
	if !f.sse {
		return f.w.Write(b)
	}
	if f.buf.Len()+len(b) > DefaultMaxResult {
		// An event this large cannot be judged: the stream ends here.
		return 0, errEventTooLarge
	}
	f.buf.Write(b)
	for {
		ev, rest := splitEvent(f.buf.Bytes())
		if ev == nil {
			return len(b), nil
		}
		if id := responseID(parseEvent(ev).data); id == nil || !f.drop(id) {
			if _, err := f.w.Write(ev); err != nil {
				return 0, err
			}
		}
		rest = bytes.Clone(rest)
		f.buf.Reset()
		f.buf.Write(rest)
	}
}

// Flush passes on what was written.
func (f *resumeFilter) Flush() { http.NewResponseController(f.w).Flush() }

// Unwrap lets http.ResponseController reach the client's writer.
func (f *resumeFilter) Unwrap() http.ResponseWriter { return f.w }
