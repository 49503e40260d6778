package dashboard

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/webhook"
)

// Webhooks sends test events to the merchant's webhooks and resends
// their deliveries, which the webhooks' senders then deliver.
type Webhooks interface {
	// Test keeps a delivery of a test event (type webhook.EventTest, no
	// payment) for every webhook, and returns them.
	Test() ([]webhook.Delivery, error)
	// Resend makes the delivery of that id due again now, with the same
	// event and event id (webhook.Resend).
	Resend(id string) (webhook.Delivery, error)
}

// PaymentDetail is one payment with everything the dashboard knows of it:
// the settlement record and its webhook deliveries.
type PaymentDetail struct {
	Payment
	// Key is the payment's replay key, which names it.
	Key string `json:"key"`
	// Explorer links the transaction on the network's block explorer;
	// empty when the network has none.
	Explorer string `json:"explorer,omitempty"`
	// USDDisplay is the amount in USD, for a USD-pegged token.
	USDDisplay string `json:"usdDisplay,omitempty"`
	// Deliveries are the webhook deliveries of the payment's events.
	Deliveries []webhook.Delivery `json:"deliveries"`
}

// paymentDetail reads the payment of key, given as the record's key in
// hex.
func (d *Dashboard) paymentDetail(key string) (*PaymentDetail, error) {
	if d.cfg.Records == nil {
		return nil, fmt.Errorf("payment: %w", ErrNotFound)
	}
	if !validKey(key) {
		return nil, badRequest("payment %q: want its key, 0x and 64 hex digits", clip(key))
	}
	h := common.HexToHash(key)
	rec, err := d.cfg.Records.Get(h)
	if err != nil {
		return nil, err
	}
	if rec == nil {
		return nil, fmt.Errorf("payment %s: %w", h.Hex(), ErrNotFound)
	}
	p := &PaymentDetail{Payment: d.payment(rec), Key: h.Hex(), Explorer: strings.TrimRight(d.cfg.Explorer, "/"), Deliveries: []webhook.Delivery{}}
	if u := d.usdOf(rec.Asset, rec.Amount); u != nil {
		p.USDDisplay = usdString(u)
	}
	if d.cfg.Deliveries != nil {
		list, err := d.cfg.Deliveries()
		if err != nil {
			d.log.Warn("reading the webhook deliveries", errField(err))
		}
		ids := []string{}
		for _, typ := range []string{webhook.EventSettled, webhook.EventFailed} {
			ids = append(ids, webhook.EventID(typ, rec.Network, rec.Key.Hex()))
		}
		for _, dl := range list {
			if slices.Contains(ids, dl.Event.ID) {
				p.Deliveries = append(p.Deliveries, dl)
			}
		}
	}
	return p, nil
}

func (d *Dashboard) paymentPage(w http.ResponseWriter, r *http.Request, p *page) {
	detail, err := d.paymentDetail(r.PathValue("key"))
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data = "Payment", "payments", detail
	p.Done = doneMessages[r.URL.Query().Get("done")]
	d.render(w, http.StatusOK, "payment", p)
}

// errNoWebhooks answers a webhook action where none is configured.
var errNoWebhooks = fmt.Errorf("no webhook is configured: %w", ErrNotFound)

// testWebhooks sends a test event to every webhook, for who.
func (d *Dashboard) testWebhooks(who string) ([]webhook.Delivery, error) {
	if d.cfg.Webhooks == nil {
		return nil, errNoWebhooks
	}
	list, err := d.cfg.Webhooks.Test()
	if err != nil {
		return nil, err
	}
	for _, dl := range list {
		if err := d.record(who, "webhook.test", dl.Webhook, dl.Event.ID); err != nil {
			return list, err
		}
	}
	return list, nil
}

// resendDelivery sends a delivery again, for who.
func (d *Dashboard) resendDelivery(who, id string) (webhook.Delivery, error) {
	if d.cfg.Webhooks == nil {
		return webhook.Delivery{}, errNoWebhooks
	}
	dl, err := d.cfg.Webhooks.Resend(id)
	switch {
	case errors.Is(err, webhook.ErrNoDelivery):
		return dl, fmt.Errorf("webhook delivery %q: %w", clip(id), ErrNotFound)
	case errors.Is(err, webhook.ErrSending):
		return dl, fmt.Errorf("%w: %v", ErrConflict, err)
	case err != nil:
		return dl, err
	}
	return dl, d.record(who, "webhook.resend", dl.Webhook, dl.Event.Type+" "+dl.Event.ID)
}

func (d *Dashboard) testWebhookForm(w http.ResponseWriter, r *http.Request, p *page) {
	if _, err := d.testWebhooks(p.User); err != nil && !isAuditError(err) {
		d.fail(w, r, p, err)
		return
	}
	http.Redirect(w, r, p.Base+"webhooks?done=test", http.StatusSeeOther)
}

func (d *Dashboard) resendForm(w http.ResponseWriter, r *http.Request, p *page) {
	if _, err := d.resendDelivery(p.User, r.PathValue("id")); err != nil && !isAuditError(err) {
		d.fail(w, r, p, err)
		return
	}
	// Back to the payment's page if the form is on it.
	if back := r.PathValue("key"); validKey(back) {
		http.Redirect(w, r, p.Base+"payments/"+url.PathEscape(common.HexToHash(back).Hex())+"?done=resent", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, p.Base+"webhooks?done=resent", http.StatusSeeOther)
}

// validKey reports whether s is a payment's key: 0x and 64 hex digits.
func validKey(s string) bool {
	if len(s) != 66 || !strings.HasPrefix(s, "0x") {
		return false
	}
	return strings.IndexFunc(s[2:], func(r rune) bool {
		return !('0' <= r && r <= '9' || 'a' <= r && r <= 'f' || 'A' <= r && r <= 'F')
	}) < 0
}
