// Package edge is what the services' HTTP edges share: writing a JSON
// answer, and recording the x402 spans of a payment under one set of
// attribute keys and reason codes. The facilitator, the paywall, the
// paymaster, the transaction API and the dashboard all answer through it,
// so that a client and a trace see one spelling of each thing.
//
// It does no I/O of its own beyond the ResponseWriter it is handed, and
// imports only the wire package and OpenTelemetry's API.
package edge

import (
	"encoding/json"
	"net/http"
)

// internalErrorBody answers a value that would not encode; it is valid JSON
// of the shape every service's errors share.
const internalErrorBody = `{"error":"internal_error","message":"encoding the response failed"}`

// WriteJSON answers status with v encoded as JSON, not to be cached unless
// the caller set a Cache-Control of its own. A value that does not encode
// is answered 500 with an internal_error body instead, never a partial or
// empty one (and never cached).
func WriteJSON(w http.ResponseWriter, status int, v any) {
	body, err := json.Marshal(v)
	if err != nil {
		status, body = http.StatusInternalServerError, []byte(internalErrorBody)
		w.Header().Del("Cache-Control")
	}
	WriteEncoded(w, status, append(body, '\n'))
}

// WriteEncoded answers status with body, JSON that its caller encoded
// (a hot path's answer joined from bytes), as WriteJSON answers a value.
func WriteEncoded(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-store")
	}
	w.WriteHeader(status)
	w.Write(body)
}
