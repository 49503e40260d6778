package mcp

import (
	"bytes"
	"encoding/json"
	"mime"
	"net/http"
)

// upstreamWriter is the ResponseWriter the upstream answers a forwarded
// POST into. It holds back the response to one call (id), or, with no
// client, every response, and passes everything else of a stream on to
// the client as it comes, so that a tool's progress notifications arrive
// while it runs. An answer that is not a 2xx passes through whole.
type upstreamWriter struct {
	client http.ResponseWriter // nil: pass nothing on
	id     json.RawMessage     // the call whose response is held; nil: hold every response
	max    int                 // bound of the bytes held

	header  http.Header
	status  int
	sse     bool // the answer is an event stream
	through bool // the answer is not a 2xx: passed through as it is
	started bool // the client's status has been written
	buf     bytes.Buffer
	// held are the responses held back; event is the SSE event of the
	// first (its id).
	held     []json.RawMessage
	event    eventFields
	overflow bool // more than max bytes to hold: the held answer is dropped
}

func newUpstreamWriter(client http.ResponseWriter, id json.RawMessage, limit int) *upstreamWriter {
	return &upstreamWriter{client: client, id: id, max: limit, header: http.Header{}}
}

func (u *upstreamWriter) Header() http.Header { return u.header }

func (u *upstreamWriter) WriteHeader(status int) {
	if u.status != 0 || status < 200 {
		return // informational answers are not passed on
	}
	u.status = status
	ct, _, _ := mime.ParseMediaType(u.header.Get("Content-Type"))
	u.sse = ct == "text/event-stream"
	if status >= 300 {
		u.through = true
		u.start()
	}
}

// start writes the upstream's status and headers to the client, once.
func (u *upstreamWriter) start() {
	if u.started || u.client == nil {
		return
	}
	u.started = true
	h := u.client.Header()
	for k, v := range u.header {
		h[k] = v
	}
	if !u.through {
		h.Del("Content-Length") // the held response changes
	}
	u.client.WriteHeader(u.status)
}

func (u *upstreamWriter) Write(b []byte) (int, error) {
	if u.status == 0 {
		u.WriteHeader(http.StatusOK)
	}
	switch {
	case u.through:
		if u.client == nil {
			return len(b), nil
		}
		return u.client.Write(b)
	case u.overflow:
		return len(b), nil
	}
	if u.buf.Len()+len(b) > u.max {
		u.overflow = true
		u.buf.Reset()
		return len(b), nil
	}
	u.buf.Write(b)
	if u.sse {
		u.events(false)
	}
	return len(b), nil
}

// Flush passes on what was passed through.
func (u *upstreamWriter) Flush() {
	if u.client != nil && u.started {
		http.NewResponseController(u.client).Flush()
	}
}

// events handles the complete events buffered (and, at the end, an event
// the stream left unterminated).
func (u *upstreamWriter) events(end bool) {
	for {
		ev, rest := splitEvent(u.buf.Bytes())
		if ev == nil {
			if !end || len(bytes.TrimSpace(rest)) == 0 {
				return
			}
			ev, rest = rest, nil
		}
		u.event1(ev)
		rest = bytes.Clone(rest)
		u.buf.Reset()
		u.buf.Write(rest)
	}
}

// event1 holds ev if it is a response held back, and passes it on
// otherwise.
func (u *upstreamWriter) event1(ev []byte) {
	f := parseEvent(ev)
	if id := responseID(f.data); id != nil && (u.id == nil || sameID(id, u.id)) {
		if len(u.held) == 0 {
			u.event = f
		}
		u.held = append(u.held, bytes.Clone(f.data))
		return
	}
	if u.client == nil {
		return
	}
	u.start()
	u.client.Write(ev)
	http.NewResponseController(u.client).Flush()
}

// finish reads what the upstream left buffered once it returned: the
// JSON answer, or the stream's last event.
func (u *upstreamWriter) finish() {
	if u.through || u.overflow {
		return
	}
	if u.sse {
		u.events(true)
		return
	}
	body := bytes.TrimSpace(u.buf.Bytes())
	if len(body) == 0 {
		return // 202 Accepted, or nothing
	}
	var items []json.RawMessage
	if body[0] == '[' {
		if json.Unmarshal(body, &items) != nil {
			return
		}
	} else {
		items = []json.RawMessage{body}
	}
	for _, it := range items {
		if id := responseID(it); id != nil && (u.id == nil || sameID(id, u.id)) {
			u.held = append(u.held, bytes.Clone(it))
		}
	}
}

// Unwrap lets http.ResponseController reach the client's writer.
func (u *upstreamWriter) Unwrap() http.ResponseWriter { return u.client }
