package paywall

import (
	"encoding/json"
	"html/template"
	"math/big"
	"net/http"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// resource describes the requested resource. Its URL comes from the
// configured origin or the request's own Host and connection, never from
// client X-Forwarded-* headers.
func (p *Paywall) resource(r *http.Request) *x402.Resource {
	origin := p.cfg.Origin
	if origin == "" {
		scheme := "http"
		if r.TLS != nil {
			scheme = "https"
		}
		origin = scheme + "://" + r.Host
	}
	return &x402.Resource{
		URL:         strings.TrimRight(origin, "/") + r.URL.RequestURI(),
		Description: p.pricedOf(r).description,
		MimeType:    p.cfg.MimeType,
	}
}

// Challenge returns the 402 challenge for r, with error set to msg.
func (p *Paywall) Challenge(r *http.Request, msg string) *x402.PaymentRequired {
	pr := &x402.PaymentRequired{
		X402Version: x402.Version,
		Error:       msg,
		Resource:    p.resource(r),
		Accepts:     p.pricedOf(r).accepts,
		Extensions:  p.extensions,
	}
	return pr
}

// challenge writes a challenge with the given status: 402 normally, 400 or
// 431 for a payment header that does not decode. A browser gets an HTML
// page; everything else gets the JSON. Both carry PAYMENT-REQUIRED.
func (p *Paywall) challenge(w http.ResponseWriter, r *http.Request, status int, msg string) {
	pr := p.Challenge(r, msg)
	h := w.Header()
	if value, err := x402.EncodeHeader(pr); err == nil {
		h.Set(x402.HeaderPaymentRequired, value)
	}
	h.Set("Cache-Control", "no-store")
	if wantsHTML(r) {
		h.Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(status)
		page.Execute(w, pageData{PaymentRequired: pr, Offers: p.describe(pr.Accepts)})
		return
	}
	body, _ := json.Marshal(challengeBody(r, pr))
	h.Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}

// wantsHTML reports whether r is a browser navigation: it prefers text/html.
func wantsHTML(r *http.Request) bool {
	accept := r.Header.Get("Accept")
	return strings.Contains(accept, "text/html") && r.Header.Get(x402.HeaderPaymentSignature) == "" && r.Header.Get(x402.HeaderXPayment) == ""
}

type pageData struct {
	*x402.PaymentRequired
	Offers []string
}

// describe renders offers for people. An amount is shown in whole tokens
// when the asset's decimals are configured, and in atomic units otherwise,
// so the page never misstates a price; the token by its symbol when it is
// configured, and by its address otherwise.
func (p *Paywall) describe(offers []x402.PaymentRequirements) []string {
	out := make([]string, len(offers))
	for i, o := range offers {
		token := o.Asset
		if sym := p.cfg.AssetSymbols[strings.ToLower(o.Asset)]; sym != "" {
			token = sym
		} else if o.Extra != nil && o.Extra.Name != "" {
			token = o.Extra.Name + " (" + o.Asset + ")"
		}
		amount := o.Amount + " atomic units of " + token
		if d, ok := p.cfg.AssetDecimals[strings.ToLower(o.Asset)]; ok {
			amount = formatUnits(o.Amount, int(d)) + " " + token
		}
		out[i] = amount + " to " + o.PayTo + " on " + o.Network + ", scheme " + o.Scheme
	}
	return out
}

func formatUnits(amount string, decimals int) string {
	v, ok := new(big.Int).SetString(amount, 10)
	if !ok {
		return amount
	}
	return x402.FormatDecimal(v, uint8(decimals))
}

var page = template.Must(template.New("paywall").Parse(`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Payment required</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:42rem;margin:3rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:.1rem .3rem;border-radius:.2rem;word-break:break-all}li{margin:.4rem 0}</style>
</head>
<body>
<h1>402 Payment Required</h1>
<p>{{with .Resource}}{{if .Description}}{{.Description}} — {{end}}<code>{{.URL}}</code>{{end}}</p>
{{if .Error}}<p><strong>The payment was not accepted:</strong> {{.Error}}</p>{{end}}
<p>This resource is paid per request with the <a href="https://x402.org">x402</a> protocol. Accepted payments:</p>
<ul>{{range .Offers}}<li>{{.}}</li>{{end}}</ul>
<p>To pay, use an x402 client such as <code>@x402/fetch</code> or the caddy-x402 Go client: it reads the
<code>PAYMENT-REQUIRED</code> header of this response, signs a payment with your wallet, and repeats the
request with a <code>PAYMENT-SIGNATURE</code> header.</p>
</body>
</html>
`))
