package mcp

import (
	"bytes"
	"encoding/json"
)

// splitEvent returns the first complete server-sent event of buf (its
// bytes with the blank line that ends it) and the rest, or nil when buf
// holds no complete event yet. Lines may end in \n, \r\n or \r.
func splitEvent(buf []byte) (event, rest []byte) {
	for i := 0; i < len(buf); i++ {
		if buf[i] != '\n' && buf[i] != '\r' {
			continue
		}
		// A line ends at i; the event ends if the next line is empty.
		j := i + 1
		if buf[i] == '\r' && j < len(buf) && buf[j] == '\n' {
			j++
		}
		if j < len(buf) && (buf[j] == '\n' || buf[j] == '\r') {
			k := j + 1
			if buf[j] == '\r' && k < len(buf) && buf[k] == '\n' {
				k++
			} else if buf[j] == '\r' && k == len(buf) {
				return nil, buf // a \r that a \n may follow
			}
			return buf[:k], buf[k:]
		}
		i = j - 1
	}
	return nil, buf
}

// eventFields are the fields of a server-sent event that the gate reads:
// its data (the data lines joined by \n) and its id.
type eventFields struct {
	data  []byte
	id    []byte
	hasID bool
}

// parseEvent reads an event's fields.
func parseEvent(event []byte) eventFields {
	var f eventFields
	var data [][]byte
	for _, line := range bytes.FieldsFunc(event, func(r rune) bool { return r == '\n' || r == '\r' }) {
		name, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(name) {
		case "data":
			data = append(data, value)
		case "id":
			f.id, f.hasID = value, true
		}
	}
	f.data = bytes.Join(data, []byte("\n"))
	return f
}

// messageEvent is an SSE message event carrying msg, with id when the
// event it replaces had one (so that a client resuming the stream names
// the right position).
func messageEvent(msg json.RawMessage, f eventFields) []byte {
	var b bytes.Buffer
	b.WriteString("event: message\n")
	if f.hasID {
		b.WriteString("id: ")
		b.Write(f.id)
		b.WriteByte('\n')
	}
	b.WriteString("data: ")
	b.Write(msg) // compact JSON: no newline
	b.WriteString("\n\n")
	return b.Bytes()
}
