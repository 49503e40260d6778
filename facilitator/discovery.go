package facilitator

import (
	"cmp"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Bounds of GET /discovery/resources.
const (
	// DiscoveryDefaultLimit is the page size when limit is not given.
	DiscoveryDefaultLimit = 20
	// DiscoveryMaxLimit is the largest limit accepted.
	DiscoveryMaxLimit = 100
	// discoveryMaxOffset bounds offset, so a number too large for the
	// catalog is refused rather than silently empty.
	discoveryMaxOffset = 1_000_000
	// discoveryMaxParam bounds the length of a filter's value.
	discoveryMaxParam = 256
)

// DiscoveryResource is one item of GET /discovery/resources: a paid
// resource of this server as the bazaar client (@x402/extensions) reads
// it.
type DiscoveryResource struct {
	// Resource is the resource's absolute URL.
	Resource string `json:"resource"`
	// Type is the protocol, "http".
	Type string `json:"type"`
	// X402Version is the protocol version the resource speaks, 2.
	X402Version int `json:"x402Version"`
	// Accepts are the offers of the resource, as its 402 lists them.
	Accepts []x402.PaymentRequirements `json:"accepts"`
	// LastUpdated is when the resource was configured (RFC 3339).
	LastUpdated string `json:"lastUpdated"`
	// Description says what a payment buys.
	Description string `json:"description,omitempty"`
	// MimeType is the media type of the resource.
	MimeType string `json:"mimeType,omitempty"`
	// Tags are short topical tags.
	Tags []string `json:"tags,omitempty"`
	// Extensions are the resource's extensions, such as bazaar's input and
	// output schema, as its 402 carries them.
	Extensions map[string]json.RawMessage `json:"extensions,omitempty"`
}

// DiscoveryResources is the answer of GET /discovery/resources.
type DiscoveryResources struct {
	// X402Version is 2.
	X402Version int `json:"x402Version"`
	// Items is one page of the matching resources.
	Items []DiscoveryResource `json:"items"`
	// Pagination says which page this is.
	Pagination DiscoveryPagination `json:"pagination"`
}

// DiscoveryPagination is the page of a DiscoveryResources.
type DiscoveryPagination struct {
	// Limit is the page size asked for.
	Limit int `json:"limit"`
	// Offset is how many matching resources were skipped.
	Offset int `json:"offset"`
	// Total is how many resources match the filters.
	Total int `json:"total"`
}

// Catalog is the list of discoverable paid resources that GET
// /discovery/resources serves: routes add theirs when they are set up and
// remove them when unloaded. It holds only what the configuration says,
// never anything a request brought. It is safe for concurrent use; its
// zero value is empty and ready.
type Catalog struct {
	mu      sync.RWMutex
	seq     uint64
	entries map[*DiscoveryResource]uint64
}

// Add lists r, stamping its LastUpdated if unset. The catalog keeps r;
// the caller must not change it afterwards.
func (c *Catalog) Add(r *DiscoveryResource) {
	if r.LastUpdated == "" {
		r.LastUpdated = time.Now().UTC().Format(time.RFC3339)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = make(map[*DiscoveryResource]uint64)
	}
	c.seq++
	c.entries[r] = c.seq
}

// Remove withdraws r, added earlier.
func (c *Catalog) Remove(r *DiscoveryResource) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.entries, r)
}

// Resources is the URLs of the listed resources of origin
// (scheme://host[:port]), sorted, each once.
func (c *Catalog) Resources(origin string) []string {
	prefix := strings.TrimRight(origin, "/") + "/"
	c.mu.RLock()
	var urls []string
	for r := range c.entries {
		if strings.HasPrefix(r.Resource, prefix) {
			urls = append(urls, r.Resource)
		}
	}
	c.mu.RUnlock()
	slices.Sort(urls)
	return slices.Compact(urls)
}

// discoveryFilter is the parsed query of GET /discovery/resources.
type discoveryFilter struct {
	typ, payTo, scheme, network, extension string
	limit, offset                          int
}

// match reports whether r passes every filter that is set.
func (f *discoveryFilter) match(r *DiscoveryResource) bool {
	if f.typ != "" && r.Type != f.typ {
		return false
	}
	if f.extension != "" {
		if _, ok := r.Extensions[f.extension]; !ok {
			return false
		}
	}
	if f.payTo == "" && f.scheme == "" && f.network == "" {
		return true
	}
	return slices.ContainsFunc(r.Accepts, func(o x402.PaymentRequirements) bool {
		return (f.payTo == "" || strings.EqualFold(o.PayTo, f.payTo)) &&
			(f.scheme == "" || o.Scheme == f.scheme) &&
			(f.network == "" || o.Network == f.network)
	})
}

// page returns the resources that match f, ordered by URL (then by when
// they were added), and their total.
func (c *Catalog) page(f *discoveryFilter) ([]DiscoveryResource, int) {
	type entry struct {
		r   *DiscoveryResource
		seq uint64
	}
	c.mu.RLock()
	var found []entry
	for r, seq := range c.entries {
		if f.match(r) {
			found = append(found, entry{r, seq})
		}
	}
	c.mu.RUnlock()
	slices.SortFunc(found, func(a, b entry) int {
		return cmp.Or(strings.Compare(a.r.Resource, b.r.Resource), cmp.Compare(a.seq, b.seq))
	})
	items := []DiscoveryResource{}
	for i := f.offset; i < len(found) && len(items) < f.limit; i++ {
		items = append(items, *found[i].r)
	}
	return items, len(found)
}

// parseDiscoveryQuery reads the query of GET /discovery/resources: type,
// payTo, scheme, network and extensions filter; limit (1 to 100, default
// 20) and offset (from 0) page. Other parameters are ignored. It returns a
// message for a query it refuses.
func parseDiscoveryQuery(rawQuery string) (*discoveryFilter, string) {
	q, err := url.ParseQuery(rawQuery)
	if err != nil {
		return nil, "the query string does not decode"
	}
	f := &discoveryFilter{limit: DiscoveryDefaultLimit}
	one := func(name string) (string, string) {
		vs := q[name]
		switch {
		case len(vs) == 0:
			return "", ""
		case len(vs) > 1:
			return "", name + " is given more than once"
		case vs[0] == "" || len(vs[0]) > discoveryMaxParam:
			return "", name + " must be 1 to " + strconv.Itoa(discoveryMaxParam) + " characters"
		}
		return vs[0], ""
	}
	number := func(name string, lo, hi int, dst *int) string {
		v, msg := one(name)
		if msg != "" || v == "" {
			return msg
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < lo || n > hi {
			return name + " must be a whole number from " + strconv.Itoa(lo) + " to " + strconv.Itoa(hi)
		}
		*dst = n
		return ""
	}
	var msg string
	for _, p := range []struct {
		name string
		dst  *string
	}{{"type", &f.typ}, {"payTo", &f.payTo}, {"scheme", &f.scheme}, {"network", &f.network}, {"extensions", &f.extension}} {
		if *p.dst, msg = one(p.name); msg != "" {
			return nil, msg
		}
	}
	if f.typ != "" && f.typ != "http" && f.typ != "mcp" {
		return nil, "type must be http or mcp"
	}
	if f.payTo != "" {
		if _, err := x402.ParseAddress(f.payTo); err != nil {
			return nil, "payTo must be an address"
		}
	}
	if msg = number("limit", 1, DiscoveryMaxLimit, &f.limit); msg != "" {
		return nil, msg
	}
	if msg = number("offset", 0, discoveryMaxOffset, &f.offset); msg != "" {
		return nil, msg
	}
	return f, ""
}

// discovery serves GET /discovery/resources: the paid resources of this
// server (its Catalog), paginated and filtered as parseDiscoveryQuery
// says. A refused query is answered 400 invalid_request.
func (h *Handler) discovery(w http.ResponseWriter, r *http.Request) {
	if h.Catalog == nil {
		edge.WriteJSON(w, http.StatusNotFound, errorBody{Error: "not_found", Message: "this facilitator lists no resources"})
		return
	}
	f, msg := parseDiscoveryQuery(r.URL.RawQuery)
	if msg != "" {
		edge.WriteJSON(w, http.StatusBadRequest, errorBody{Error: "invalid_request", Message: msg})
		return
	}
	items, total := h.Catalog.page(f)
	// Routes change only when the configuration is reloaded.
	w.Header().Set("Cache-Control", "public, max-age=60")
	edge.WriteJSON(w, http.StatusOK, DiscoveryResources{
		X402Version: x402.Version, Items: items,
		Pagination: DiscoveryPagination{Limit: f.limit, Offset: f.offset, Total: total},
	})
}
