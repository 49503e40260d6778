package facilitator

import (
	"strings"

	"github.com/caddy-x402/caddy-x402/x402"
)

// maxSaleText bounds the resource URL and the description kept in a
// settlement record, in bytes.
const maxSaleText = 512

// saleOf is what a settlement record says the payment bought: the URL and
// description of the resource that the merchant's side put in the settle
// request (req.Resource: the paywall's own description of the route, in
// process or sent by a merchant's facilitator.Client), each cut to
// maxSaleText bytes at a character boundary. The payer's
// paymentPayload.resource is never used: the payer writes it, so a payment
// could otherwise be listed under any URL its payer liked. Empty when the
// merchant did not say.
func saleOf(req *x402.SettleRequest) (resource, description string) {
	if req.Resource == nil {
		return "", ""
	}
	return clipText(req.Resource.URL), clipText(req.Resource.Description)
}

// clipText cuts s to maxSaleText bytes, at a character boundary.
func clipText(s string) string {
	if len(s) <= maxSaleText {
		return s
	}
	return strings.ToValidUTF8(s[:maxSaleText], "")
}
