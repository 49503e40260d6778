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
	for _, rt := range []struct {
		pattern string
		h       func(w http.ResponseWriter, r *http.Request) (int, any, error)
	}{
		{"GET /overview", d.apiOverview},
		{"GET /payments", d.apiPayments},
		{"GET /payments/{key}", d.apiPayment},
		{"GET /webhooks", d.apiDeliveries},
		{"POST /webhooks/test", d.apiTestWebhooks},
		{"POST /webhooks/deliveries/{id}/resend", d.apiResend},
		{"GET /revenue", d.apiRevenue},
		{"GET /channels", d.apiChannels},
		{"POST /channels/{id}/refund", d.apiRefundChannel},
		{"GET /refusals", d.apiRefusals},
		{"GET /payments.csv", d.apiPaymentsCSV},
		{"GET /projects", d.apiProjects},
		{"GET /usage", d.apiUsage},
		{"POST /projects", d.apiCreateProject},
		{"GET /projects/{name}", d.apiProject},
		{"PATCH /projects/{name}", d.apiUpdateProject},
		{"POST /projects/{name}/topups", d.apiTopUp},
		{"GET /keys", d.apiKeys},
		{"POST /keys", d.apiCreateKey},
		{"POST /keys/{id}/rotate", d.apiRotateKey},
		{"POST /keys/{id}/disable", d.apiDisableKey},
		{"GET /audit", d.apiAudit},
	} {
		handle(rt.pattern, rt.h)
	}
	mux.HandleFunc("GET "+prefix+"/openapi.yaml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/yaml")
		w.Write(OpenAPI)
	})
	mux.HandleFunc(prefix+"/", func(w http.ResponseWriter, r *http.Request) {
		edge.WriteJSON(w, http.StatusNotFound, apiError{Code: "not_found", Message: fmt.Sprintf("no admin route %s %s; see %s/openapi.yaml", r.Method, clip(r.URL.Path), prefix)})
	})
	return mux
}

// apiOverview answers GET /overview: the overview.
func (d *Dashboard) apiOverview(w http.ResponseWriter, r *http.Request) (int, any, error) {
	o, err := d.overview(r.Context())
	return http.StatusOK, o, err
}

// apiPayments answers GET /payments: a page of payments, filtered.
func (d *Dashboard) apiPayments(w http.ResponseWriter, r *http.Request) (int, any, error) {
	q, err := parseQuery(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	list, next, err := d.payments(r.Context(), q)
	if list == nil {
		list = []Payment{}
	}
	return http.StatusOK, map[string]any{"payments": list, "next": next}, err
}

// apiPayment answers GET /payments/{key}: one payment, with its webhook deliveries.
func (d *Dashboard) apiPayment(w http.ResponseWriter, r *http.Request) (int, any, error) {
	p, err := d.paymentDetail(r.PathValue("key"))
	return http.StatusOK, p, err
}

// apiDeliveries answers GET /webhooks: the webhook deliveries.
func (d *Dashboard) apiDeliveries(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if d.cfg.Deliveries == nil {
		return 0, nil, errNoWebhooks
	}
	list, err := d.cfg.Deliveries()
	if list == nil {
		list = []webhook.Delivery{}
	}
	return http.StatusOK, map[string]any{"deliveries": list}, err
}

// apiTestWebhooks answers POST /webhooks/test: sends a test event to every webhook.
func (d *Dashboard) apiTestWebhooks(w http.ResponseWriter, r *http.Request) (int, any, error) {
	list, err := d.testWebhooks(actor(r, "admin-api"))
	if err != nil && !errors.Is(err, errAudit) {
		return 0, nil, err
	}
	return http.StatusAccepted, map[string]any{"deliveries": list}, nil
}

// apiResend answers POST /webhooks/deliveries/{id}/resend: sends a delivery's event again, under its id.
func (d *Dashboard) apiResend(w http.ResponseWriter, r *http.Request) (int, any, error) {
	dl, err := d.resendDelivery(actor(r, "admin-api"), r.PathValue("id"))
	if err != nil && !errors.Is(err, errAudit) {
		return 0, nil, err
	}
	return http.StatusAccepted, dl, nil
}

// apiRevenue answers GET /revenue: the revenue report.
func (d *Dashboard) apiRevenue(w http.ResponseWriter, r *http.Request) (int, any, error) {
	days, err := parseDays(r.URL.Query().Get("days"))
	if err != nil {
		return 0, nil, err
	}
	rep, err := d.revenueReport(r.Context(), days)
	return http.StatusOK, rep, err
}

// apiRefusals answers GET /refusals: the refusals, counted and the last ones.
func (d *Dashboard) apiRefusals(w http.ResponseWriter, r *http.Request) (int, any, error) {
	s := store.RefusalSummary{Counts: []store.RefusalCount{}, Recent: []store.Refusal{}}
	if d.cfg.Refusals == nil {
		return http.StatusOK, s, nil
	}
	s, err := d.cfg.Refusals()
	return http.StatusOK, s, err
}

// apiPaymentsCSV answers GET /payments.csv: the payments as CSV.
func (d *Dashboard) apiPaymentsCSV(w http.ResponseWriter, r *http.Request) (int, any, error) {
	q, err := parseQuery(r.URL.Query())
	if err != nil {
		return 0, nil, err
	}
	d.writeCSV(w, r, q)
	return 0, nil, nil
}

// apiProjects answers GET /projects: the paymaster's projects.
func (d *Dashboard) apiProjects(w http.ResponseWriter, r *http.Request) (int, any, error) {
	out, err := describeAll(d, r, projectView)
	return http.StatusOK, map[string]any{"projects": out}, err
}

// apiUsage answers GET /usage: the projects' usage.
func (d *Dashboard) apiUsage(w http.ResponseWriter, r *http.Request) (int, any, error) {
	out, err := describeAll(d, r, usageView)
	return http.StatusOK, map[string]any{"usage": out}, err
}

// apiCreateProject answers POST /projects: creates a project.
func (d *Dashboard) apiCreateProject(w http.ResponseWriter, r *http.Request) (int, any, error) {
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
}

// apiProject answers GET /projects/{name}: one project.
func (d *Dashboard) apiProject(w http.ResponseWriter, r *http.Request) (int, any, error) {
	return d.projectAnswer(r, http.StatusOK, r.PathValue("name"))
}

// apiUpdateProject answers PATCH /projects/{name}: changes a project's limits.
func (d *Dashboard) apiUpdateProject(w http.ResponseWriter, r *http.Request) (int, any, error) {
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
}

// apiTopUp answers POST /projects/{name}/topups: tops a project up.
func (d *Dashboard) apiTopUp(w http.ResponseWriter, r *http.Request) (int, any, error) {
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
}

// apiKeys answers GET /keys: the API keys.
func (d *Dashboard) apiKeys(w http.ResponseWriter, r *http.Request) (int, any, error) {
	data, err := d.keysData(r, r.URL.Query().Get("project"))
	if err != nil {
		return 0, nil, err
	}
	out := make([]KeyView, len(data.Keys))
	for i, k := range data.Keys {
		out[i] = ViewKey(k)
	}
	return http.StatusOK, map[string]any{"keys": out}, nil
}

// apiCreateKey answers POST /keys: creates an API key, shown once.
func (d *Dashboard) apiCreateKey(w http.ResponseWriter, r *http.Request) (int, any, error) {
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
}

// apiRotateKey answers POST /keys/{id}/rotate: rotates a key, the new one shown once.
func (d *Dashboard) apiRotateKey(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if err := decodeNone(w, r); err != nil {
		return 0, nil, err
	}
	secret, rec, err := d.rotateKey(actor(r, "admin-api"), r.PathValue("id"))
	if rec == nil {
		return 0, nil, err
	}
	return http.StatusOK, NewKeyView{Key: secret, Record: ViewKey(*rec), Replaces: r.PathValue("id")}, nil
}

// apiDisableKey answers POST /keys/{id}/disable: disables a key.
func (d *Dashboard) apiDisableKey(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if err := decodeNone(w, r); err != nil {
		return 0, nil, err
	}
	if err := d.disableKey(actor(r, "admin-api"), r.PathValue("id")); err != nil && !errors.Is(err, errAudit) {
		return 0, nil, err
	}
	return http.StatusOK, map[string]any{"id": r.PathValue("id"), "disabled": true}, nil
}

// apiAudit answers GET /audit: a page of the audit log.
func (d *Dashboard) apiAudit(w http.ResponseWriter, r *http.Request) (int, any, error) {
	entries, next, err := d.audit.list(r.URL.Query().Get("after"), 100)
	if entries == nil {
		entries = []Entry{}
	}
	return http.StatusOK, map[string]any{"entries": entries, "next": next}, err
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
