package mcp

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// serveBatch answers a JSON-RPC batch that holds a priced call, call by
// call: each priced call goes through its gate as a request of its own
// (with the batch's headers), the free messages go to the upstream
// together, as a batch, and the client gets every response in one JSON
// array. Progress notifications of the calls in it are not passed on.
func (h *Handler) serveBatch(w http.ResponseWriter, r *http.Request, session string, msgs []*message, gates []Gate, refusals []json.RawMessage, next Next) error {
	var out []json.RawMessage
	var free []json.RawMessage
	for i, m := range msgs {
		switch {
		case refusals[i] != nil:
			out = append(out, refusals[i])
		case gates[i] != nil:
			x := &collectExchange{id: m.id, max: h.cfg.MaxResult}
			if err := h.charge(r.Clone(r.Context()), m, session, gates[i], x, next); err != nil && x.msg == nil {
				x.msg = errorMessage(m.id, codeInternal, "the MCP server could not be reached; not charged", nil)
			}
			if x.msg != nil {
				out = append(out, x.msg)
			}
		default:
			free = append(free, m.raw)
		}
	}
	if len(free) > 0 {
		body, _ := json.Marshal(free)
		fr := r.Clone(r.Context())
		setBody(fr, body)
		up := newUpstreamWriter(nil, nil, h.cfg.MaxResult)
		err := next(up, fr)
		up.finish()
		if err == nil && !up.through && !up.overflow {
			out = append(out, up.held...)
		}
	}
	if len(out) == 0 {
		w.WriteHeader(http.StatusAccepted) // notifications only
		return nil
	}
	body, _ := json.Marshal(out)
	writeJSON(w, http.StatusOK, bytes.TrimSpace(body))
	return nil
}

// collectExchange carries one priced call of a batch: its response is
// collected, nothing goes to the client until the batch is answered.
type collectExchange struct {
	id  json.RawMessage
	max int
	msg json.RawMessage
}

func (x *collectExchange) forward(_ http.ResponseWriter, r *http.Request, next Next) (json.RawMessage, error) {
	up := newUpstreamWriter(nil, x.id, x.max)
	err := next(up, r)
	up.finish()
	switch {
	case up.overflow:
		return errorMessage(x.id, codeInternal, "the tool's result is too large; not charged", nil), nil
	case len(up.held) > 0:
		return up.held[0], nil
	case err != nil:
		return nil, err
	}
	return errorMessage(x.id, codeInternal, errNoResult.Error()+"; not charged", nil), nil
}

func (x *collectExchange) deliver(msg json.RawMessage) error {
	x.msg = msg
	return nil
}
