package dashboard

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"math/big"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/caddy-x402/caddy-x402/paymaster"
	"github.com/caddy-x402/caddy-x402/store"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// pages are the parsed templates, one set per page.
var pages = sync.OnceValue(func() map[string]*template.Template {
	m := map[string]*template.Template{}
	for _, name := range []string{"overview", "payments", "projects", "project", "keys", "audit", "error", "revenue", "refused", "webhooks", "payment", "channels"} {
		m[name] = template.Must(template.New(name).Funcs(templateFuncs).ParseFS(templateFS, "templates/layout.html", "templates/partials.html", "templates/"+name+".html"))
	}
	return m
})

// page is what every page's template gets.
type page struct {
	Title string
	Page  string // the navigation entry
	Base  string // the dashboard's path prefix, ending in /
	// AdminBase is the prefix of the projects, keys and audit pages: Base,
	// or the primary network's dashboard's.
	AdminBase string
	// Network is the CAIP-2 id, and NetworkName its name for people.
	Network     string
	NetworkName string
	// Outage says what of the payment path is down, for the banner; nil
	// when all is up.
	Outage *Outage
	// Networks are every network's dashboard, for the switch; empty for
	// one network.
	Networks []NetworkLink
	User     string
	Token    string // the forms' CSRF token
	Error    string
	Done     string
	Data     any
	Charts   any
	// Explorer is the network's block explorer, for links; empty for
	// none.
	Explorer string
	// Sponsorship is set when a paymaster runs: the projects and keys
	// are linked.
	Sponsorship bool
	// Webhooks is set when a webhook is configured: its page is linked.
	Webhooks bool
	// Channels is set when a network takes batch-settlement payments:
	// its channels' page is linked.
	Channels bool
}

// maxForm bounds a form body.
const maxForm = 64 << 10

// Web returns the web app, served at the root of its site or under base
// (a path prefix such as "/dashboard/"; empty is "/"). Put it behind an
// authentication handler: the user it authenticates, in the request's
// context under ActorKey, is written to the audit log and keys the forms'
// tokens.
func (d *Dashboard) Web(base string) http.Handler {
	if base == "" {
		base = "/"
	}
	if !strings.HasSuffix(base, "/") {
		base += "/"
	}
	mux := http.NewServeMux()
	get := func(path string, h func(w http.ResponseWriter, r *http.Request, p *page)) {
		mux.HandleFunc("GET "+path, func(w http.ResponseWriter, r *http.Request) {
			h(w, r, d.newPage(r, base))
		})
	}
	post := func(path string, h func(w http.ResponseWriter, r *http.Request, p *page)) {
		mux.HandleFunc("POST "+path, func(w http.ResponseWriter, r *http.Request) {
			p := d.newPage(r, base)
			r.Body = http.MaxBytesReader(w, r.Body, maxForm)
			if err := r.ParseForm(); err != nil {
				d.renderError(w, p, http.StatusBadRequest, "The form could not be read.")
				return
			}
			if !d.checkToken(r, p.User) {
				d.renderError(w, p, http.StatusForbidden, "The form's token is missing or wrong, or has expired: reload the page and try again.")
				return
			}
			h(w, r, p)
		})
	}
	get("/{$}", d.overviewPage)
	get("/payments", d.paymentsPage)
	get("/payments/{key}", d.paymentPage)
	post("/payments/{key}/deliveries/{id}/resend", d.resendForm)
	get("/revenue", d.revenuePage)
	get("/refused", d.refusedPage)
	if d.cfg.Channels != nil {
		get("/channels", d.channelsPage)
		post("/channels/{id}/refund", d.refundChannelForm)
	}
	mux.HandleFunc("GET /payments.csv", func(w http.ResponseWriter, r *http.Request) {
		q, err := parseQuery(r.URL.Query())
		if err != nil {
			d.renderError(w, d.newPage(r, base), http.StatusBadRequest, publicError(err))
			return
		}
		d.writeCSV(w, r, q)
	})
	if d.cfg.AdminBase == "" { // the primary network's: the keys and the audit log
		get("/projects", d.projectsPage)
		post("/projects", d.createProjectForm)
		get("/projects/{name}", d.projectPage)
		post("/projects/{name}/limits", d.limitsForm)
		post("/projects/{name}/topups", d.topUpForm)
		get("/keys", d.keysPage)
		post("/keys", d.createKeyForm)
		post("/keys/{id}/rotate", d.rotateKeyForm)
		post("/keys/{id}/disable", d.disableKeyForm)
		get("/audit", d.auditPage)
		get("/webhooks", d.webhooksPage)
		post("/webhooks/test", d.testWebhookForm)
		post("/webhooks/deliveries/{id}/resend", d.resendForm)
	}
	mux.HandleFunc("GET /static/{file}", func(w http.ResponseWriter, r *http.Request) {
		d.serveStatic(w, r, base)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		d.renderError(w, d.newPage(r, base), http.StatusNotFound, "Page not found")
	})

	csrf := http.NewCrossOriginProtection()
	csrf.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		d.renderError(w, d.newPage(r, base), http.StatusForbidden, "Cross-origin request refused: changes can only be made from the dashboard's own pages.")
	}))
	var h http.Handler = csrf.Handler(mux)
	if base != "/" {
		h = http.StripPrefix(strings.TrimSuffix(base, "/"), h)
	}
	return securityHeaders(h)
}

// serveStatic serves one of the embedded assets by its name. It serves
// files only: the directory itself, a subdirectory or a name that is not
// there is the not-found page, never a listing.
func (d *Dashboard) serveStatic(w http.ResponseWriter, r *http.Request, base string) {
	name := r.PathValue("file")
	var content []byte
	if fs.ValidPath(name) && !strings.Contains(name, "/") {
		if fi, err := fs.Stat(staticFS, "static/"+name); err == nil && fi.Mode().IsRegular() {
			content, _ = staticFS.ReadFile("static/" + name)
		}
	}
	if content == nil {
		d.renderError(w, d.newPage(r, base), http.StatusNotFound, "Page not found")
		return
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(content))
}

// securityHeaders keeps the pages from being framed, sniffed, cached or
// given scripts from elsewhere.
func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'")
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "same-origin")
		hd.Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

func (d *Dashboard) newPage(r *http.Request, base string) *page {
	user := actor(r, "")
	admin := base
	if d.cfg.AdminBase != "" {
		admin = d.cfg.AdminBase
	}
	return &page{Base: base, AdminBase: admin, Network: d.cfg.Network, NetworkName: d.cfg.NetworkName, Outage: d.outage(r.Context()), Networks: d.cfg.Networks, User: user, Token: d.token(user),
		Explorer: strings.TrimRight(d.cfg.Explorer, "/"), Sponsorship: d.hasPaymaster(), Webhooks: d.cfg.Deliveries != nil,
		Channels: d.cfg.Channels != nil}
}

// render writes a page. It renders to a buffer first, so a template error
// becomes a clean 500 instead of half a page.
func (d *Dashboard) render(w http.ResponseWriter, status int, name string, p *page) {
	var buf bytes.Buffer
	if err := pages()[name].ExecuteTemplate(&buf, "layout", p); err != nil {
		d.log.Error("rendering a dashboard page", errField(err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

func (d *Dashboard) renderError(w http.ResponseWriter, p *page, status int, msg string) {
	p.Title, p.Error = http.StatusText(status), msg
	d.render(w, status, "error", p)
}

// fail renders err on an error page, with its status.
func (d *Dashboard) fail(w http.ResponseWriter, r *http.Request, p *page, err error) {
	status, _ := classify(err)
	if status == http.StatusInternalServerError {
		d.log.Error("dashboard request failed", errField(err))
	}
	d.renderError(w, p, status, publicError(err))
}

// chartView is a chart with its SVG drawn.
type chartView struct {
	Title string
	SVG   template.HTML
}

func views(cs []chart) []chartView {
	out := make([]chartView, len(cs))
	for i, c := range cs {
		out[i] = chartView{Title: c.Title, SVG: c.svg()}
	}
	return out
}

func (d *Dashboard) overviewPage(w http.ResponseWriter, r *http.Request, p *page) {
	o, err := d.overview(r.Context())
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data = "Overview", "overview", o
	p.Charts = struct{ Day, Week []chartView }{views(d.charts(o.Day, "last 24 h")), views(d.charts(o.Week, "last 7 days"))}
	d.render(w, http.StatusOK, "overview", p)
}

func (d *Dashboard) paymentsPage(w http.ResponseWriter, r *http.Request, p *page) {
	v := r.URL.Query()
	q, err := parseQuery(v)
	if err != nil {
		p.Title, p.Page, p.Error = "Payments", "payments", publicError(err)
		p.Data = struct {
			Payments           []Payment
			Filter             map[string]string
			States             []store.State
			Query, First, Next string
		}{Filter: map[string]string{}, States: states}
		d.render(w, http.StatusBadRequest, "payments", p)
		return
	}
	if q.Limit == 0 {
		q.Limit = 50
	}
	list, next, err := d.payments(r.Context(), q)
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	filter := map[string]string{}
	keep := url.Values{}
	for _, k := range []string{"state", "scheme", "payer", "since", "until", "limit"} {
		if s := v.Get(k); s != "" {
			filter[k] = s
			keep.Set(k, s)
		}
	}
	data := struct {
		Payments           []Payment
		Filter             map[string]string
		States             []store.State
		Query, First, Next string
	}{Payments: list, Filter: filter, States: states, Query: keep.Encode()}
	if next != "" {
		nv := url.Values{}
		for k, vs := range keep {
			nv[k] = vs
		}
		nv.Set("after", next)
		data.Next = nv.Encode()
	}
	if q.After != "" {
		data.First = keep.Encode() + "&"
	}
	p.Title, p.Page, p.Data = "Payments", "payments", data
	d.render(w, http.StatusOK, "payments", p)
}

func (d *Dashboard) auditPage(w http.ResponseWriter, r *http.Request, p *page) {
	entries, next, err := d.audit.list(r.URL.Query().Get("after"), 100)
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page = "Audit log", "audit"
	p.Data = struct {
		Entries []Entry
		Next    string
	}{entries, next}
	d.render(w, http.StatusOK, "audit", p)
}

// defaultLimits prefill the form of a new project. The largest operation
// is 0.01 ETH, not the paymaster's 1% of the 0.1 ETH cap: an account's
// first operation (deployment and settlement) has a maximum cost of about
// 0.0063 ETH at the devnet's fees, so under 0.001 ETH a project made with
// the defaults would sponsor nothing.
func defaultLimits() paymaster.Limits {
	return paymaster.Limits{
		TxPerMinute: 30, MaxInFlight: 50,
		DailyGasCap: new(big.Int).Exp(big.NewInt(10), big.NewInt(17), nil), // 0.1 ETH
		MaxOpCost:   new(big.Int).Exp(big.NewInt(10), big.NewInt(16), nil), // 0.01 ETH
	}
}

func (d *Dashboard) projectsPage(w http.ResponseWriter, r *http.Request, p *page) {
	s, err := d.sponsorship()
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	list, err := s.DescribeProjects(r.Context())
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	var tokens []paymaster.GasToken
	if g, ok := s.(GasTokens); ok {
		tokens = g.GasTokens(r.Context())
	}
	p.Title, p.Page = "Projects", "projects"
	p.Data = struct {
		Projects  []paymaster.ProjectInfo
		Defaults  paymaster.Limits
		GasTokens []paymaster.GasToken
	}{list, defaultLimits(), tokens}
	d.render(w, http.StatusOK, "projects", p)
}

// limitsForm reads the limits fields of a form.
func limitsOf(r *http.Request) (paymaster.Limits, error) {
	var l paymaster.Limits
	var err error
	for _, f := range []struct {
		name, label string
		to          *int
	}{{"tx_per_minute", "transactions per minute", &l.TxPerMinute}, {"max_in_flight", "in flight", &l.MaxInFlight}} {
		n, aerr := strconv.Atoi(strings.TrimSpace(r.PostFormValue(f.name)))
		if aerr != nil || n < 1 || n > 100_000 {
			return l, badRequest("%s: want a whole number from 1 to 100000", f.label)
		}
		*f.to = n
	}
	if l.DailyGasCap, err = parseUnits("daily gas cap (ETH)", r.PostFormValue("daily_gas_cap"), 18, false); err != nil {
		return l, err
	}
	if l.MaxFeePerGas, err = parseUnits("fee ceiling (gwei)", r.PostFormValue("max_fee_per_gas"), 9, true); err != nil {
		return l, err
	}
	if l.MaxOpCost, err = parseUnits("largest operation (ETH)", r.PostFormValue("max_op_cost"), 18, true); err != nil {
		return l, err
	}
	return l, nil
}

func (d *Dashboard) createProjectForm(w http.ResponseWriter, r *http.Request, p *page) {
	name := strings.TrimSpace(r.PostFormValue("name"))
	l, err := limitsOf(r)
	if err == nil {
		err = d.createProject(p.User, name, r.PostFormValue("network"), l)
	}
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	http.Redirect(w, r, p.Base+"projects/"+url.PathEscape(name)+"?done=created", http.StatusSeeOther)
}

// doneMessages are the confirmations shown after a form's redirect.
var doneMessages = map[string]string{
	"created":  "Project created. Its balance is zero: record a top-up before it sponsors anything.",
	"limits":   "Limits saved: the next request is held to them.",
	"topup":    "Top-up recorded.",
	"disabled": "Key disabled: it is refused from the next request on.",
	"test":     "Test event queued for every webhook (type test, no payment): it is sent within a few seconds; its outcome shows below.",
	"resent":   "Delivery queued again, with the same event and event id: it is sent within a few seconds.",
	"refunded": "Refunded: what was charged is claimed and swept to the receiver, the rest is back with the payer.",
}

func (d *Dashboard) projectPage(w http.ResponseWriter, r *http.Request, p *page) {
	s, err := d.sponsorship()
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	info, err := s.DescribeProject(r.Context(), r.PathValue("name"))
	if err != nil {
		d.fail(w, r, p, sponsorshipError(err))
		return
	}
	c := chart{Title: "Spent per UTC day (ETH), cap dashed", Unit: "ETH", Limit: units(info.Limits.DailyGasCap, 18)}
	for _, day := range info.Daily {
		c.Bars = append(c.Bars, bar{Label: day.Day.Format("Jan 2"), Title: day.Day.Format(time.DateOnly) + ": " + formatUnits(day.Spent, 18) + " ETH", Value: units(day.Spent, 18)})
	}
	p.Title, p.Page, p.Done = "Project "+info.Name, "projects", doneMessages[r.URL.Query().Get("done")]
	p.Data = struct {
		Project paymaster.ProjectInfo
		Chart   chartView
	}{info, chartView{Title: c.Title, SVG: c.svg()}}
	d.render(w, http.StatusOK, "project", p)
}

func (d *Dashboard) limitsForm(w http.ResponseWriter, r *http.Request, p *page) {
	name := r.PathValue("name")
	l, err := limitsOf(r)
	if err == nil {
		err = d.updateLimits(p.User, name, l)
	}
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	http.Redirect(w, r, p.Base+"projects/"+url.PathEscape(name)+"?done=limits", http.StatusSeeOther)
}

func (d *Dashboard) topUpForm(w http.ResponseWriter, r *http.Request, p *page) {
	name := r.PathValue("name")
	wei, err := parseUnits("amount (ETH)", r.PostFormValue("amount"), 18, false)
	if err == nil {
		err = d.topUp(p.User, name, wei, strings.TrimSpace(r.PostFormValue("note")))
	}
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	http.Redirect(w, r, p.Base+"projects/"+url.PathEscape(name)+"?done=topup", http.StatusSeeOther)
}

// keysData is what the keys page shows.
type keysData struct {
	Projects []paymaster.ProjectInfo
	Project  string // the project the list is narrowed to
	Scopes   []string
	Keys     []paymaster.Key
	// Secret is a key just created or rotated, shown in this answer only,
	// and SecretFor says which.
	Secret, SecretFor string
}

func (d *Dashboard) keysData(r *http.Request, project string) (*keysData, error) {
	s, err := d.sponsorship()
	if err != nil {
		return nil, err
	}
	projects, err := s.DescribeProjects(r.Context())
	if err != nil {
		return nil, err
	}
	keys, err := s.Keys().List()
	if err != nil {
		return nil, err
	}
	if project != "" {
		keys = slices.DeleteFunc(keys, func(k paymaster.Key) bool { return k.Project != project })
	}
	slices.Reverse(keys) // newest first
	return &keysData{Projects: projects, Project: project, Scopes: paymaster.Scopes, Keys: keys}, nil
}

func (d *Dashboard) keysPage(w http.ResponseWriter, r *http.Request, p *page) {
	data, err := d.keysData(r, r.URL.Query().Get("project"))
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data, p.Done = "API keys", "keys", data, doneMessages[r.URL.Query().Get("done")]
	d.render(w, http.StatusOK, "keys", p)
}

// showKey answers a key's creation or rotation with the keys page and the
// new key on it, once: the page is not cached, and its script replaces
// this POST's history entry, so a reload shows the list without it.
func (d *Dashboard) showKey(w http.ResponseWriter, r *http.Request, p *page, secret string, rec *paymaster.Key, what string) {
	data, err := d.keysData(r, "")
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	data.Secret, data.SecretFor = secret, fmt.Sprintf("%s %s… for %s (%s).", what, rec.ID, rec.Project, strings.Join(rec.Scopes, ", "))
	p.Title, p.Page, p.Data = "API keys", "keys", data
	d.render(w, http.StatusOK, "keys", p)
}

func (d *Dashboard) createKeyForm(w http.ResponseWriter, r *http.Request, p *page) {
	secret, rec, err := d.createKey(p.User, r.PostFormValue("project"), r.PostForm["scope"])
	if err != nil && rec == nil {
		d.fail(w, r, p, err)
		return
	}
	d.showKey(w, r, p, secret, rec, "Created key")
}

func (d *Dashboard) rotateKeyForm(w http.ResponseWriter, r *http.Request, p *page) {
	secret, rec, err := d.rotateKey(p.User, r.PathValue("id"))
	if err != nil && rec == nil {
		d.fail(w, r, p, err)
		return
	}
	d.showKey(w, r, p, secret, rec, "Rotated: the old key is refused from now on. New key")
}

func (d *Dashboard) disableKeyForm(w http.ResponseWriter, r *http.Request, p *page) {
	if err := d.disableKey(p.User, r.PathValue("id")); err != nil && !isAuditError(err) {
		d.fail(w, r, p, err)
		return
	}
	http.Redirect(w, r, p.Base+"keys?done=disabled", http.StatusSeeOther)
}

// errAudit marks a change that was made but not written to the audit log.
var errAudit = errors.New("the change was made, but the audit log could not be written")

func isAuditError(err error) bool { return errors.Is(err, errAudit) }
