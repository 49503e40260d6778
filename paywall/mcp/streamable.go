package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"time"
)

// StreamableHTTP is MCP's streamable HTTP transport (protocol 2025-03-26
// and later): the client POSTs JSON-RPC messages to one endpoint and gets
// each request's response as JSON or in an SSE stream; GET opens the
// server's own stream and DELETE ends a session. Everything but a POST
// with a priced call passes through untouched, Mcp-Session-Id and
// MCP-Protocol-Version included.
type StreamableHTTP struct{}

func (StreamableHTTP) serve(h *Handler, w http.ResponseWriter, r *http.Request, next Next) error {
	session := r.Header.Get("Mcp-Session-Id")
	if r.Method == http.MethodGet {
		// The server's stream, or one resumed: never a priced call's
		// response (resume.go).
		return next(&resumeFilter{w: w, drop: func(id json.RawMessage) bool { return h.priced.drops(session, id) }}, r)
	}
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
	now := time.Now()
	for i, m := range msgs {
		if gates[i] != nil {
			h.priced.add(session, m.id, now)
		}
	}
	if batch {
		return h.serveBatch(w, r, session, msgs, gates, refusals, next)
	}
	if refusals[0] != nil {
		writeJSON(w, http.StatusOK, refusals[0])
		return nil
	}
	return h.charge(r, msgs[0], session, gates[0], &streamExchange{client: w, id: msgs[0].id, max: h.cfg.MaxResult}, next)
}

// setBody makes body r's body again.
func setBody(r *http.Request, body []byte) {
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
}

// streamExchange carries a priced call over streamable HTTP: the
// upstream's answer streams to the client, but for the call's response,
// which is delivered once judged (and settled), in the answer's form
// (an SSE event or a JSON body).
type streamExchange struct {
	client http.ResponseWriter
	id     json.RawMessage
	max    int
	up     *upstreamWriter
}

func (x *streamExchange) forward(_ http.ResponseWriter, r *http.Request, next Next) (json.RawMessage, error) {
	x.up = newUpstreamWriter(x.client, x.id, x.max)
	err := next(x.up, r)
	x.up.finish()
	switch {
	case x.up.through:
		return nil, err
	case x.up.overflow:
		return errorMessage(x.id, codeInternal, "the tool's result exceeds "+strconv.Itoa(x.max)+" bytes; it was not delivered, and not charged", nil), nil
	case len(x.up.held) > 0:
		return x.up.held[0], nil
	case err != nil:
		return nil, err
	}
	return errorMessage(x.id, codeInternal, errNoResult.Error()+"; not charged", nil), nil
}

func (x *streamExchange) deliver(msg json.RawMessage) error {
	up := x.up
	if up != nil && up.started {
		_, err := x.client.Write(messageEvent(msg, up.event))
		http.NewResponseController(x.client).Flush()
		return err
	}
	if up != nil && up.sse && up.status != 0 {
		up.start()
		_, err := x.client.Write(messageEvent(msg, up.event))
		http.NewResponseController(x.client).Flush()
		return err
	}
	if up != nil && up.status != 0 {
		for k, v := range up.header {
			x.client.Header()[k] = v
		}
	}
	writeJSON(x.client, http.StatusOK, msg)
	return nil
}
