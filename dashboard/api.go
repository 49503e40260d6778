package dashboard

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/webhook"
)

// OpenAPI is the admin API's OpenAPI 3.1 description, served at
// openapi.yaml under the API's prefix.
//
//go:embed openapi.yaml
var OpenAPI []byte

// API returns the JSON admin API, answering under prefix (such as
// "/x402/"). It has no authentication of its own: Caddy mounts it on its
// admin endpoint, whose access controls (a local socket or address, origin
// checks, or remote admin's client certificates) guard it. The caller, in
// the request's context under ActorKey, is written to the audit log.
//
// Amounts are decimal strings in base units (wei for ETH), because a JSON
// number loses precision past 2^53 in most clients. Every answer is JSON,
// and every error is {"code", "message"}.
func (d *Dashboard) API(prefix string) http.Handler {
	prefix = "/" + strings.Trim(prefix, "/")
	mux := http.NewServeMux()
	handle := func(pattern string, h func(w http.ResponseWriter, r *http.Request) (int, any, error)) {
		method, path, _ := strings.Cut(pattern, " ")
		mux.HandleFunc(method+" "+prefix+path, func(w http.ResponseWriter, r *http.Request) {
			if method != http.MethodGet {
				if err := requireJSON(r); err != nil {
					d.writeError(w, r, err)
					return
				}
			}
			status, v, err := h(w, r)
			if err != nil {
				d.writeError(w, r, err)
				return
			}
			if v != nil {
				edge.WriteJSON(w, status, v)
			}
		})
	}
	handle("GET /overview", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		o, err := d.overview(r.Context())
		return http.StatusOK, o, err
	})
	handle("GET /payments", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		q, err := parseQuery(r.URL.Query())
		if err != nil {
			return 0, nil, err
		}
		list, next, err := d.payments(r.Context(), q)
		if list == nil {
			list = []Payment{}
		}
		return http.StatusOK, map[string]any{"payments": list, "next": next}, err
	})
	handle("GET /payments/{key}", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		p, err := d.paymentDetail(r.PathValue("key"))
		return http.StatusOK, p, err
	})
	handle("GET /webhooks", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		if d.cfg.Deliveries == nil {
			return 0, nil, errNoWebhooks
		}
		list, err := d.cfg.Deliveries()
		if list == nil {
			list = []webhook.Delivery{}
		}
		return http.StatusOK, map[string]any{"deliveries": list}, err
	})
	handle("POST /webhooks/test", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		list, err := d.testWebhooks(actor(r, "admin-api"))
		if err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return http.StatusAccepted, map[string]any{"deliveries": list}, nil
	})
	handle("POST /webhooks/deliveries/{id}/resend", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		dl, err := d.resendDelivery(actor(r, "admin-api"), r.PathValue("id"))
		if err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return http.StatusAccepted, dl, nil
	})
	handle("GET /revenue", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		days, err := parseDays(r.URL.Query().Get("days"))
		if err != nil {
			return 0, nil, err
		}
		rep, err := d.revenueReport(r.Context(), days)
		return http.StatusOK, rep, err
	})
	handle("GET /refusals", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		s := store.RefusalSummary{Counts: []store.RefusalCount{}, Recent: []store.Refusal{}}
		if d.cfg.Refusals == nil {
			return http.StatusOK, s, nil
		}
		s, err := d.cfg.Refusals()
		return http.StatusOK, s, err
	})
	handle("GET /payments.csv", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		q, err := parseQuery(r.URL.Query())
		if err != nil {
			return 0, nil, err
		}
		d.writeCSV(w, r, q)
		return 0, nil, nil
	})
	handle("GET /projects", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		out, err := describeAll(d, r, projectView)
		return http.StatusOK, map[string]any{"projects": out}, err
	})
	handle("GET /usage", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		out, err := describeAll(d, r, usageView)
		return http.StatusOK, map[string]any{"usage": out}, err
	})
	handle("POST /projects", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		var body struct {
			Name    string     `json:"name"`
			Network string     `json:"network"`
			Limits  LimitsView `json:"limits"`
		}
		if err := decodeBody(w, r, &body); err != nil {
			return 0, nil, err
		}
		l, err := body.Limits.limits()
		if err != nil {
			return 0, nil, err
		}
		if err := d.createProject(actor(r, "admin-api"), body.Name, body.Network, l); err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return d.projectAnswer(r, http.StatusCreated, body.Name)
	})
	handle("GET /projects/{name}", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		return d.projectAnswer(r, http.StatusOK, r.PathValue("name"))
	})
	handle("PATCH /projects/{name}", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		var body struct {
			Limits LimitsView `json:"limits"`
		}
		if err := decodeBody(w, r, &body); err != nil {
			return 0, nil, err
		}
		l, err := body.Limits.limits()
		if err != nil {
			return 0, nil, err
		}
		if err := d.updateLimits(actor(r, "admin-api"), r.PathValue("name"), l); err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return d.projectAnswer(r, http.StatusOK, r.PathValue("name"))
	})
	handle("POST /projects/{name}/topups", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		var body struct {
			Amount string `json:"amount"`
			Note   string `json:"note"`
		}
		if err := decodeBody(w, r, &body); err != nil {
			return 0, nil, err
		}
		wei, err := parseWei("amount", body.Amount, false)
		if err != nil {
			return 0, nil, err
		}
		if err := d.topUp(actor(r, "admin-api"), r.PathValue("name"), wei, body.Note); err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return d.projectAnswer(r, http.StatusOK, r.PathValue("name"))
	})
	handle("GET /keys", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		data, err := d.keysData(r, r.URL.Query().Get("project"))
		if err != nil {
			return 0, nil, err
		}
		out := make([]KeyView, len(data.Keys))
		for i, k := range data.Keys {
			out[i] = ViewKey(k)
		}
		return http.StatusOK, map[string]any{"keys": out}, nil
	})
	handle("POST /keys", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		var body struct {
			Project string   `json:"project"`
			Scopes  []string `json:"scopes"`
		}
		if err := decodeBody(w, r, &body); err != nil {
			return 0, nil, err
		}
		secret, rec, err := d.createKey(actor(r, "admin-api"), body.Project, body.Scopes)
		if rec == nil {
			return 0, nil, err
		}
		return http.StatusCreated, NewKeyView{Key: secret, Record: ViewKey(*rec)}, nil
	})
	handle("POST /keys/{id}/rotate", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		if err := decodeNone(w, r); err != nil {
			return 0, nil, err
		}
		secret, rec, err := d.rotateKey(actor(r, "admin-api"), r.PathValue("id"))
		if rec == nil {
			return 0, nil, err
		}
		return http.StatusOK, NewKeyView{Key: secret, Record: ViewKey(*rec), Replaces: r.PathValue("id")}, nil
	})
	handle("POST /keys/{id}/disable", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		if err := decodeNone(w, r); err != nil {
			return 0, nil, err
		}
		if err := d.disableKey(actor(r, "admin-api"), r.PathValue("id")); err != nil && !errors.Is(err, errAudit) {
			return 0, nil, err
		}
		return http.StatusOK, map[string]any{"id": r.PathValue("id"), "disabled": true}, nil
	})
	handle("GET /audit", func(w http.ResponseWriter, r *http.Request) (int, any, error) {
		entries, next, err := d.audit.list(r.URL.Query().Get("after"), 100)
		if entries == nil {
			entries = []Entry{}
		}
		return http.StatusOK, map[string]any{"entries": entries, "next": next}, err
	})
	mux.HandleFunc("GET "+prefix+"/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(OpenAPI)
	})
	mux.HandleFunc(prefix+"/", func(w http.ResponseWriter, r *http.Request) {
		edge.WriteJSON(w, http.StatusNotFound, apiError{Code: "not_found", Message: fmt.Sprintf("no admin route %s %s; see %s/openapi.yaml", r.Method, clip(r.URL.Path), prefix)})
	})
	return mux
}

// projectAnswer answers a project's state.
func (d *Dashboard) projectAnswer(r *http.Request, status int, name string) (int, any, error) {
	s, err := d.sponsorship()
	if err != nil {
		return 0, nil, err
	}
	p, err := s.DescribeProject(r.Context(), name)
	if err != nil {
		return 0, nil, sponsorshipError(err)
	}
	return status, projectView(p), nil
}

// maxBody bounds a JSON request body.
const maxBody = 64 << 10

// requireJSON refuses a request whose Content-Type is not
// application/json (parameters such as charset allowed), missing included.
// Every state-changing call of the admin API needs it, with or without a
// body: a web page can make a browser send a cross-site POST without
// asking first (a CORS "simple" request) only with a form's or text's
// content type, so a call declared JSON is one no page could forge. The
// admin endpoint's origin checks are a second line, not the only one.
func requireJSON(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		if ct == "" {
			return fmt.Errorf("%w: no Content-Type; want application/json", errMediaType)
		}
		return fmt.Errorf("%w: Content-Type %q; want application/json", errMediaType, clip(ct))
	}
	return nil
}

// decodeNone reads the body of a call that takes no arguments: empty, or
// an empty JSON object.
func decodeNone(w http.ResponseWriter, r *http.Request) error {
	if r.ContentLength == 0 {
		return nil
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		return badRequest("the body could not be read")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return nil
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	return decodeBody(w, r, &struct{}{})
}

// decodeBody reads one JSON object into v, refusing a Content-Type other
// than application/json, unknown fields, trailing data and bodies over
// maxBody.
func decodeBody(w http.ResponseWriter, r *http.Request, v any) error {
	if err := requireJSON(r); err != nil {
		return err
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return badRequest("the body is over %d bytes", maxBody)
		}
		return badRequest("the body is not the expected JSON object: %v", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return badRequest("the body has data after its JSON object")
	}
	return nil
}

// parseWei reads an amount in wei from a decimal string.
func parseWei(field, s string, optional bool) (*big.Int, error) {
	if s == "" && optional {
		return nil, nil
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok || v.Sign() <= 0 || len(s) > 78 {
		return nil, badRequest("%s %q: want a positive whole number of wei as a decimal string", field, clip(s))
	}
	return v, nil
}

// describeAll describes every project with view.
func describeAll[V any](d *Dashboard, r *http.Request, view func(paymaster.ProjectInfo) V) ([]V, error) {
	s, err := d.sponsorship()
	if err != nil {
		return nil, err
	}
	list, err := s.DescribeProjects(r.Context())
	if err != nil {
		return nil, err
	}
	out := make([]V, len(list))
	for i, p := range list {
		out[i] = view(p)
	}
	return out, nil
}
