package paywall

import (
	"bytes"
	"cmp"
	"crypto/rand"
	"embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// The browser paywall page: a 402 answered to a browser's navigation is an
// HTML page that connects the visitor's wallet, signs the exact offer's
// EIP-3009 authorization and repeats the request with PAYMENT-SIGNATURE,
// all in the page (page/paywall.js). Everything it needs is in the one
// response: the script and the style are inline, allowed by a nonce that
// is new for each response, so the page loads nothing else (no CDN, works
// offline) and the Content-Security-Policy lets nothing else run.
//
// Inline with a nonce rather than a script at a path of its own: a route
// may match one exact path, where no second path reaches the paywall; an
// extra path would be one more URL answered on a paid route; and
// script-src 'self' would let any script of the merchant's origin run in
// the page, uploads included, where a nonce lets only the page's own.

//go:embed page
var pageFiles embed.FS

// The page's parts, read once.
var (
	pageScript = mustRead("page/paywall.js")
	pageStyle  = mustRead("page/paywall.css")
	// defaultPage is the page a paywall without Config.PageTemplate shows.
	defaultPage = template.Must(template.New("paywall").Parse(mustRead("page/page.html")))
	// pageTags are the script and style elements given to templates.
	pageTags = template.Must(template.New("tags").Parse(
		`{{define "script"}}<script nonce="{{.Nonce}}" data-paywall="{{.Data}}">{{.Code}}</script>{{end}}` +
			`{{define "style"}}<style nonce="{{.Nonce}}">{{.Code}}</style>{{end}}`))
)

func mustRead(name string) string {
	b, err := pageFiles.ReadFile(name)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// maxPageSize bounds a rendered page: a merchant's template that renders
// more is refused for the default page.
const maxPageSize = 256 << 10

// PageData is what the paywall page's template is given, the default
// page's and a Config.PageTemplate alike.
type PageData struct {
	// PaymentRequired is the challenge of the 402: .Resource (URL,
	// Description), .Error (why a payment was refused) and .Accepts.
	*x402.PaymentRequired
	// Status is the response's status, 402 or 400 or 431.
	Status int
	// Offers are the challenge's offers, described for people.
	Offers []PageOffer
	// Nonce is this response's Content-Security-Policy nonce, for a
	// template's own <script> and <style> elements.
	Nonce string
	// Script is the page's script element, which pays with the visitor's
	// wallet: a template must include it (once) for the page to pay. It
	// renders its interface into the element of id x402-pay, or at the end
	// of the body when there is none.
	Script template.HTML
	// Style is the default page's style element; a template may use its
	// own instead.
	Style template.HTML
	// Merchant is who is paid: Config.MerchantName, else the site's host.
	Merchant string
	// Site is the host the visitor asked for, such as "api.example.com".
	Site string
}

// PageOffer is one offer of the challenge, as the page shows it.
type PageOffer struct {
	// Scheme, Network, Asset and PayTo are the offer's.
	Scheme, Network, Asset, PayTo string
	// NetworkName names the network for people, such as "Base"; the
	// CAIP-2 id when the network is not known.
	NetworkName string
	// ChainID is the EVM chain id of an eip155 network, 0 otherwise.
	ChainID uint64
	// Price is the amount in whole tokens, such as "0.01", when the
	// asset's decimals are known (Config.AssetDecimals), and in atomic
	// units otherwise (then Atomic is true).
	Price  string
	Atomic bool
	// Decimals are the asset's decimals, when known (Atomic is false).
	Decimals uint8
	// Token names the asset: its symbol (Config.AssetSymbols), else its
	// EIP-712 name, else its address.
	Token string
	// Payable reports whether the page can pay the offer with a browser
	// wallet: an exact offer on an eip155 network that names the token's
	// EIP-712 domain.
	Payable bool
	// Text is the offer in one line, such as "0.01 USD Coin (0x…) to 0x…
	// on Base (eip155:8453), scheme exact".
	Text string
	// How says in plain words how the offer is paid, such as "a transfer
	// you sign in your browser wallet".
	How string
}

// howPaid says in plain words how offer o is paid, for people: what the
// scheme and its transfer method mean, and whether this page can pay it.
func howPaid(o x402.PaymentRequirements, payable bool) string {
	switch {
	case payable:
		return "a transfer you sign in your browser wallet"
	case o.Scheme == x402.SchemeExact && o.Extra != nil && o.Extra.AssetTransferMethod == x402.AssetTransferPermit2:
		return "a transfer through Permit2, signed by an x402 client"
	case o.Scheme == x402.SchemeExact:
		return "a signed transfer, made by an x402 client"
	case o.Scheme == x402.SchemeUpto:
		return "up to this much, metered by use, signed by an x402 client"
	case o.Scheme == x402.SchemeAANative:
		return "from a smart account (ERC-4337), with gas paid for you, by an x402 client"
	}
	return "scheme " + o.Scheme + ", by an x402 client"
}

// WalletNetwork describes a network to wallets, for wallet_addEthereumChain
// when the visitor's wallet does not know the network yet.
type WalletNetwork struct {
	// Name is the network's name, such as "Base".
	Name string `json:"name"`
	// RPCURL is a public JSON-RPC URL of the network, given to the
	// visitor's wallet: never one with an API key in it. Without it the
	// page asks the visitor to add the network themselves.
	RPCURL string `json:"rpcUrl,omitempty"`
	// ExplorerURL is the network's block explorer, for links to the
	// settlement's transaction; optional.
	ExplorerURL string `json:"explorerUrl,omitempty"`
	// Currency is the symbol of the network's native currency; default ETH.
	Currency string `json:"currency,omitempty"`
}

// knownNetworks are the networks the page knows without configuration.
var knownNetworks = map[string]WalletNetwork{
	"eip155:1":        {Name: "Ethereum", ExplorerURL: "https://etherscan.io"},
	"eip155:10":       {Name: "OP Mainnet", RPCURL: "https://mainnet.optimism.io", ExplorerURL: "https://optimistic.etherscan.io"},
	"eip155:137":      {Name: "Polygon", RPCURL: "https://polygon-rpc.com", ExplorerURL: "https://polygonscan.com", Currency: "POL"},
	"eip155:8453":     {Name: "Base", RPCURL: "https://mainnet.base.org", ExplorerURL: "https://basescan.org"},
	"eip155:42161":    {Name: "Arbitrum One", RPCURL: "https://arb1.arbitrum.io/rpc", ExplorerURL: "https://arbiscan.io"},
	"eip155:43114":    {Name: "Avalanche C-Chain", RPCURL: "https://api.avax.network/ext/bc/C/rpc", ExplorerURL: "https://snowtrace.io", Currency: "AVAX"},
	"eip155:84532":    {Name: "Base Sepolia", RPCURL: "https://sepolia.base.org", ExplorerURL: "https://sepolia.basescan.org"},
	"eip155:11155111": {Name: "Sepolia", RPCURL: "https://ethereum-sepolia-rpc.publicnode.com", ExplorerURL: "https://sepolia.etherscan.io"},
	// The devnet's default address (devnet_addr moves it; WalletNetworks
	// then says where), which Anvil and Hardhat use for this id too.
	"eip155:31337": {Name: "caddy-x402 devnet", RPCURL: "http://127.0.0.1:8545"},
}

// walletNetwork is what the page knows of network: the configuration's,
// else the built-in.
func (p *Paywall) walletNetwork(network string) WalletNetwork {
	if n, ok := p.cfg.WalletNetworks[network]; ok {
		return n
	}
	return knownNetworks[network]
}

// offers describes the challenge's offers for the page.
func (p *Paywall) offers(accepts []x402.PaymentRequirements) []PageOffer {
	out := make([]PageOffer, len(accepts))
	for i, o := range accepts {
		po := PageOffer{Scheme: o.Scheme, Network: o.Network, Asset: o.Asset, PayTo: o.PayTo, NetworkName: o.Network, Token: o.Asset, Price: o.Amount, Atomic: true}
		if name := p.walletNetwork(o.Network).Name; name != "" {
			po.NetworkName = name
		}
		if sym := p.cfg.AssetSymbols[strings.ToLower(o.Asset)]; sym != "" {
			po.Token = sym
		} else if o.Extra != nil && o.Extra.Name != "" {
			po.Token = o.Extra.Name
		}
		if d, ok := p.cfg.AssetDecimals[strings.ToLower(o.Asset)]; ok {
			po.Price, po.Atomic, po.Decimals = formatUnits(o.Amount, int(d)), false, d
		}
		if id, err := x402.ParseNetwork(o.Network); err == nil {
			po.ChainID = id
			// The page signs EIP-3009 only: a Permit2 offer's token has
			// no transferWithAuthorization.
			po.Payable = o.Scheme == x402.SchemeExact && o.Extra != nil && o.Extra.Name != "" && o.Extra.Version != "" &&
				o.Extra.AssetTransferMethod != x402.AssetTransferPermit2
		}
		po.How = howPaid(o, po.Payable)
		amount := po.Price + " " + po.Token
		if po.Atomic {
			amount = o.Amount + " atomic units of " + po.Token
		}
		where := po.NetworkName
		if where != o.Network {
			where += " (" + o.Network + ")"
		}
		po.Text = amount + " (" + o.Asset + ") to " + o.PayTo + " on " + where + ", scheme " + o.Scheme
		out[i] = po
	}
	return out
}

// scriptData is what the script reads from its data-paywall attribute: the
// challenge, and what it needs to know of each offer's network and asset.
type scriptData struct {
	Challenge *x402.PaymentRequired `json:"challenge"`
	Offers    []scriptOffer         `json:"offers"`
	// Method is the request's: the page repeats only a GET, which has no
	// body to send again.
	Method string `json:"method"`
	// Merchant is who is paid (PageData.Merchant).
	Merchant string `json:"merchant"`
}

type scriptOffer struct {
	ChainID  uint64        `json:"chainId"`
	Decimals *uint8        `json:"decimals,omitempty"`
	Price    string        `json:"price"`
	Token    string        `json:"token"`
	Payable  bool          `json:"payable"`
	Network  WalletNetwork `json:"network"`
}

// pagePolicy is the page's Content-Security-Policy: its own nonce'd script
// and style, requests to its own origin (the paid retry), and nothing else.
// The paid answer, when it is HTML, is shown in a sandboxed frame that
// runs no script.
func pagePolicy(nonce string) string {
	return "default-src 'none'; script-src 'nonce-" + nonce + "'; style-src 'nonce-" + nonce + "'; " +
		"img-src data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
}

// writePage answers a browser's navigation with the paywall page.
func (p *Paywall) writePage(w http.ResponseWriter, r *http.Request, status int, pr *x402.PaymentRequired) {
	var raw [18]byte
	rand.Read(raw[:])
	nonce := base64.RawURLEncoding.EncodeToString(raw[:])
	offers := p.offers(pr.Accepts)
	sd := scriptData{Challenge: pr, Offers: make([]scriptOffer, len(offers)), Method: r.Method, Merchant: cmp.Or(p.cfg.MerchantName, r.Host)}
	for i, o := range offers {
		so := scriptOffer{ChainID: o.ChainID, Price: o.Price, Token: o.Token, Payable: o.Payable, Network: p.walletNetwork(o.Network)}
		if so.Network.Name == "" {
			so.Network.Name = o.NetworkName
		}
		if !o.Atomic {
			so.Decimals = &offers[i].Decimals
		}
		sd.Offers[i] = so
	}
	data, _ := json.Marshal(sd)
	var script, style strings.Builder
	pageTags.ExecuteTemplate(&script, "script", map[string]any{"Nonce": nonce, "Data": string(data), "Code": template.JS(pageScript)})
	pageTags.ExecuteTemplate(&style, "style", map[string]any{"Nonce": nonce, "Code": template.CSS(pageStyle)})
	pd := PageData{PaymentRequired: pr, Status: status, Offers: offers, Nonce: nonce,
		Script: template.HTML(script.String()), Style: template.HTML(style.String()),
		Merchant: cmp.Or(p.cfg.MerchantName, r.Host), Site: r.Host}

	var body bytes.Buffer
	if p.template != nil {
		if err := p.template.Execute(&limitedBuffer{b: &body, n: maxPageSize}, pd); err != nil {
			// A merchant's template that fails shows the default page
			// rather than a half-written one.
			body.Reset()
		}
	}
	if body.Len() == 0 {
		defaultPage.Execute(&body, pd)
	}
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", pagePolicy(nonce))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("Content-Length", strconv.Itoa(body.Len()))
	w.WriteHeader(status)
	w.Write(body.Bytes())
}

// limitedBuffer is a writer that refuses to grow past n bytes.
type limitedBuffer struct {
	b *bytes.Buffer
	n int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if l.b.Len()+len(p) > l.n {
		return 0, fmt.Errorf("the paywall page is over %d bytes", l.n)
	}
	return l.b.Write(p)
}

// parsePageTemplate parses a merchant's page template.
func parsePageTemplate(src string) (*template.Template, error) {
	t, err := template.New("paywall_template").Parse(src)
	if err != nil {
		return nil, fmt.Errorf("paywall page template: %w", err)
	}
	return t, nil
}

func formatUnits(amount string, decimals int) string {
	v, ok := new(big.Int).SetString(amount, 10)
	if !ok {
		return amount
	}
	return x402.FormatDecimal(v, uint8(decimals))
}
