package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"
)

// LegacySSE is the HTTP+SSE transport of MCP protocol 2024-11-05, which
// several SDKs' clients still use: the client GETs an event stream, whose
// first event (endpoint) names the URL it POSTs its messages to
// (…?sessionId=…); a POST is answered 202 and its response arrives on the
// stream.
//
// The paywall follows each stream it passes through, to tie a paid call
// to the event that carries its result: that event is held back until the
// call is judged and settled, then sent with the settlement in its
// _meta; an unpaid call's challenge is sent on the stream as the server's
// answer would be. A priced call is accepted only for a session whose
// stream passes through this process (a fleet needs sticky sessions for
// this transport, as its servers do); a JSON-RPC batch holding a priced
// call is refused (send the call on its own).
//
// Its zero value is not usable: call NewLegacySSE.
type LegacySSE struct {
	mu       sync.Mutex
	sessions map[string]*sseSession
}

// NewLegacySSE returns a LegacySSE transport.
func NewLegacySSE() *LegacySSE { return &LegacySSE{sessions: map[string]*sseSession{}} }

// sseSession is one client's event stream, as it passes through.
type sseSession struct {
	mu      sync.Mutex // serializes writes to the client
	client  http.ResponseWriter
	started bool
	closed  bool // the stream's handler returned: its writer is not to be used
	// pending are the paid calls waiting for their response, by id.
	pending map[string]chan json.RawMessage
	done    chan struct{} // closed when the stream ends
}

func (t *LegacySSE) serve(h *Handler, w http.ResponseWriter, r *http.Request, next Next) error {
	if r.Method == http.MethodGet {
		return t.stream(w, r, next)
	}
	// The POST endpoint's answers are the stream's; a priced call's
	// answer goes there once judged.
	if r.Method != http.MethodPost {
		return next(w, r)
	}
	body, ok := h.readBody(w, r)
	if !ok {
		return nil
	}
	msgs, batch, err := decodeBody(body)
	if err != nil {
		var de *errDecode
		if errors.As(err, &de) {
			writeJSON(w, http.StatusBadRequest, errorMessage(nil, de.code, de.msg, nil))
			return nil
		}
		return err
	}
	gates, refusals, priced := h.judge(msgs)
	if !priced {
		setBody(r, body)
		return next(w, r)
	}
	if batch {
		writeJSON(w, http.StatusBadRequest, errorMessage(nil, codeInvalidRequest, "a batch holding a priced tool call: send the call on its own", nil))
		return nil
	}
	t.mu.Lock()
	s := t.sessions[sessionKey(r.URL)]
	t.mu.Unlock()
	if s == nil {
		writeJSON(w, http.StatusNotFound, errorMessage(msgs[0].id, codeInvalidRequest, "no event stream of this session passes through this server; open one (GET) first", nil))
		return nil
	}
	if refusals[0] != nil {
		s.send(refusals[0], eventFields{})
		w.WriteHeader(http.StatusAccepted)
		return nil
	}
	x := &legacyExchange{s: s, id: msgs[0].id, client: w}
	err = h.charge(r, msgs[0], sessionKey(r.URL), gates[0], x, next)
	if !x.answered {
		w.WriteHeader(http.StatusAccepted)
	}
	return err
}

// stream passes an event stream through, following it.
func (t *LegacySSE) stream(w http.ResponseWriter, r *http.Request, next Next) error {
	s := &sseSession{client: w, pending: map[string]chan json.RawMessage{}, done: make(chan struct{})}
	sw := &streamWriter{t: t, s: s, header: http.Header{}}
	err := next(sw, r)
	sw.end()
	return err
}

// send writes one event to the client.
func (s *sseSession) send(msg json.RawMessage, f eventFields) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	s.client.Write(messageEvent(msg, f))
	http.NewResponseController(s.client).Flush()
}

// wait registers a paid call's id; its response is then held back and
// handed to the channel.
func (s *sseSession) wait(id json.RawMessage) (chan json.RawMessage, func()) {
	key := idKey(id)
	ch := make(chan json.RawMessage, 1)
	s.mu.Lock()
	s.pending[key] = ch
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.pending, key)
		s.mu.Unlock()
	}
}

// sessionKey names a session by the query of the endpoint its stream
// gave (its session id, whatever the server calls the parameter:
// sessionId, sessionid), so that a POST to that endpoint finds it.
func sessionKey(u *url.URL) string {
	q := u.Query()
	if len(q) == 0 {
		return ""
	}
	return q.Encode()
}

// idKey is an id in one spelling, for the pending map.
func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) != nil {
		return string(id)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// streamWriter is the ResponseWriter the upstream writes a session's
// event stream into.
type streamWriter struct {
	t       *LegacySSE
	s       *sseSession
	header  http.Header
	status  int
	through bool // not an event stream: passed through as it is
	buf     bytes.Buffer
	id      string // the session's id, once its endpoint event passed
}

func (sw *streamWriter) Header() http.Header { return sw.header }

func (sw *streamWriter) WriteHeader(status int) {
	if sw.status != 0 || status < 200 {
		return
	}
	sw.status = status
	ct, _, _ := mime.ParseMediaType(sw.header.Get("Content-Type"))
	sw.through = status != http.StatusOK || ct != "text/event-stream"
	sw.s.mu.Lock()
	defer sw.s.mu.Unlock()
	for k, v := range sw.header {
		sw.s.client.Header()[k] = v
	}
	sw.s.client.WriteHeader(status)
	sw.s.started = true
}

func (sw *streamWriter) Write(b []byte) (int, error) {
	if sw.status == 0 {
		sw.WriteHeader(http.StatusOK)
	}
	if sw.through {
		sw.s.mu.Lock()
		defer sw.s.mu.Unlock()
		return sw.s.client.Write(b)
	}
	if sw.buf.Len()+len(b) > DefaultMaxResult {
		return 0, errEventTooLarge
	}
	sw.buf.Write(b)
	for {
		ev, rest := splitEvent(sw.buf.Bytes())
		if ev == nil {
			return len(b), nil
		}
		sw.event(ev)
		rest = bytes.Clone(rest)
		sw.buf.Reset()
		sw.buf.Write(rest)
	}
}

// event passes one event on, but for the response of a paid call, which
// goes to the call.
func (sw *streamWriter) event(ev []byte) {
	f := parseEvent(ev)
	if sw.id == "" && (bytes.Contains(ev, []byte("event: endpoint")) || bytes.Contains(ev, []byte("event:endpoint"))) {
		if u, err := url.Parse(strings.TrimSpace(string(f.data))); err == nil {
			if id := sessionKey(u); id != "" {
				sw.id = id
				sw.t.mu.Lock()
				sw.t.sessions[id] = sw.s
				sw.t.mu.Unlock()
			}
		}
	}
	sw.s.mu.Lock()
	defer sw.s.mu.Unlock()
	if id := responseID(f.data); id != nil {
		if ch, ok := sw.s.pending[idKey(id)]; ok {
			delete(sw.s.pending, idKey(id))
			ch <- bytes.Clone(f.data)
			return
		}
	}
	sw.s.client.Write(ev)
	http.NewResponseController(sw.s.client).Flush()
}

func (sw *streamWriter) Flush() {}

// end forgets the session once its stream ended.
func (sw *streamWriter) end() {
	if sw.id != "" {
		sw.t.mu.Lock()
		if sw.t.sessions[sw.id] == sw.s {
			delete(sw.t.sessions, sw.id)
		}
		sw.t.mu.Unlock()
	}
	sw.s.mu.Lock()
	sw.s.closed = true
	sw.s.mu.Unlock()
	close(sw.s.done)
}

// legacyExchange carries a priced call over the HTTP+SSE transport: the
// POST goes upstream, the response is awaited on the session's stream,
// and the answer is sent on the stream.
type legacyExchange struct {
	s        *sseSession
	id       json.RawMessage
	client   http.ResponseWriter
	answered bool // the POST was answered
}

func (x *legacyExchange) forward(_ http.ResponseWriter, r *http.Request, next Next) (json.RawMessage, error) {
	ch, cancel := x.s.wait(x.id)
	defer cancel()
	up := newUpstreamWriter(x.client, nil, 1<<16)
	err := next(up, r)
	if up.through || (up.status != 0 && up.status != http.StatusAccepted && up.status != http.StatusOK) {
		x.answered = true
		return nil, err
	}
	if err != nil && up.status == 0 {
		return nil, err
	}
	select {
	case msg := <-ch:
		return msg, nil
	case <-x.s.done:
		return errorMessage(x.id, codeInternal, "the session's event stream ended before the call's result; not charged", nil), nil
	case <-r.Context().Done():
		return errorMessage(x.id, codeInternal, "the call was abandoned before its result; not charged", nil), nil
	}
}

func (x *legacyExchange) deliver(msg json.RawMessage) error {
	x.s.send(msg, eventFields{})
	return nil
}
