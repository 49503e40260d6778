package paywall

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"
)

// PriceService prices requests by asking an HTTP service: for each request
// it POSTs a JSON PriceQuery (the request's method, path and the headers
// it names) to URL, which answers 200 with a JSON PriceAnswer. Answers are
// cached for Cache by method, path and those headers' values.
//
// It fails closed: when the service cannot be reached, times out, answers
// anything but 200, or answers no price (or one Valid refuses), the request
// gets Fallback
// if it is set, and 503 with Retry-After otherwise; never the resource for
// free. Its zero value is not usable: URL is required. It is safe for
// concurrent use.
type PriceService struct {
	// URL is where the queries are POSTed.
	URL string
	// Headers are the request headers sent with each query (and part of
	// the cache key); no other header leaves the server.
	Headers []string
	// Cache is how long an answer is kept; 0 asks for every request. At
	// most 10,000 answers are kept, and none for a query over 4 KiB.
	Cache time.Duration
	// Timeout bounds one query; default 2 s.
	Timeout time.Duration
	// Fallback, when not nil, prices a request whose query failed.
	Fallback *Quote
	// Valid, when set, checks an answer (that its price is one for every
	// offered asset, say): an answer it refuses is a failed query.
	Valid func(Quote) error
	// Client makes the queries; default http.DefaultClient.
	Client *http.Client
	// Failed, when set, is told of each failed query, whether Fallback
	// priced the request or not, so that a service that is down does not go
	// unnoticed. The error holds no part of the URL but its host and port
	// (a dial error names them): its path or query may carry a secret.
	Failed func(r *http.Request, err error)

	mu    sync.Mutex
	cache map[string]cachedQuote
}

// PriceQuery is what a PriceService POSTs for one request.
type PriceQuery struct {
	Method  string            `json:"method"`
	Path    string            `json:"path"`
	Headers map[string]string `json:"headers,omitempty"`
}

// PriceAnswer is a price service's answer: exactly one of price (whole
// tokens) and amount (atomic units), and an optional description of the
// resource.
type PriceAnswer struct {
	Price       string `json:"price,omitempty"`
	Amount      string `json:"amount,omitempty"`
	Description string `json:"description,omitempty"`
}

// maxCachedQuotes bounds the cache: clients choose paths and header values,
// so past it, expired answers are dropped, and if none was, all of them.
const maxCachedQuotes = 10_000

// maxCacheKey bounds a cached query: a longer one (large header values)
// is asked every time rather than kept, so the cache stays small.
const maxCacheKey = 4 << 10

// maxAnswer bounds a price service's answer.
const maxAnswer = 64 << 10

type cachedQuote struct {
	quote   Quote
	expires time.Time
}

// Pricer returns the PriceService as a Pricer.
func (s *PriceService) Pricer() Pricer { return s.Quote }

// Quote prices r: from the cache, the service, or the fallback. Its error
// wraps ErrPriceUnavailable when there is no fallback.
func (s *PriceService) Quote(r *http.Request) (Quote, error) {
	query := PriceQuery{Method: r.Method, Path: r.URL.Path}
	for _, name := range s.Headers {
		if v := r.Header.Get(name); v != "" {
			if query.Headers == nil {
				query.Headers = map[string]string{}
			}
			query.Headers[http.CanonicalHeaderKey(name)] = v
		}
	}
	body, err := json.Marshal(query)
	if err != nil {
		return Quote{}, fmt.Errorf("price query: %w", err)
	}
	key := string(body)
	if q, ok := s.cached(key); ok {
		return q, nil
	}
	q, err := s.ask(r.Context(), body)
	if err != nil {
		if s.Failed != nil {
			s.Failed(r, err)
		}
		if s.Fallback != nil {
			return *s.Fallback, nil
		}
		return Quote{}, fmt.Errorf("%w: %w", ErrPriceUnavailable, err)
	}
	s.keep(key, q)
	return q, nil
}

// ask queries the service once.
func (s *PriceService) ask(ctx context.Context, body []byte) (Quote, error) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cmp.Or(s.Timeout, 2*time.Second))
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, bytes.NewReader(body))
	if err != nil {
		return Quote{}, errors.New("price service: the URL does not parse")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	c := s.Client
	if c == nil {
		c = http.DefaultClient
	}
	resp, err := c.Do(req)
	if err != nil {
		if ue, ok := errors.AsType[*url.Error](err); ok {
			err = ue.Err // without the URL
		}
		return Quote{}, fmt.Errorf("price service: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return Quote{}, fmt.Errorf("price service answered %d", resp.StatusCode)
	}
	var a PriceAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxAnswer)).Decode(&a); err != nil {
		return Quote{}, fmt.Errorf("price service answer: %w", err)
	}
	a.Price, a.Amount = strings.TrimSpace(a.Price), strings.TrimSpace(a.Amount)
	if (a.Price == "") == (a.Amount == "") {
		return Quote{}, errors.New("price service answer: want exactly one of price and amount")
	}
	q := Quote{Price: a.Price, Amount: a.Amount, Description: a.Description}
	if s.Valid != nil {
		if err := s.Valid(q); err != nil {
			return Quote{}, fmt.Errorf("price service answer: %w", err)
		}
	}
	return q, nil
}

func (s *PriceService) cached(key string) (Quote, bool) {
	if s.Cache <= 0 {
		return Quote{}, false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.cache[key]
	if !ok || !time.Now().Before(c.expires) {
		return Quote{}, false
	}
	return c.quote, true
}

func (s *PriceService) keep(key string, q Quote) {
	if s.Cache <= 0 || len(key) > maxCacheKey {
		return
	}
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cache == nil {
		s.cache = map[string]cachedQuote{}
	}
	if len(s.cache) >= maxCachedQuotes {
		for k, c := range s.cache {
			if !now.Before(c.expires) {
				delete(s.cache, k)
			}
		}
		if len(s.cache) >= maxCachedQuotes {
			clear(s.cache)
		}
	}
	s.cache[key] = cachedQuote{quote: q, expires: now.Add(s.Cache)}
}
