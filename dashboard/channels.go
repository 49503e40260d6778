package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// ChannelDesk is a merchant's batch-settlement channels, for the admin
// API: the report of what each channel and payer has unclaimed, claimed
// and swept (GET /channels), and an operator's refund of a channel (POST
// /channels/{id}/refund), which claims what was charged and returns the
// rest to the payer. caddymodule adapts package channels/claimer to it.
type ChannelDesk interface {
	// Report is the channels' and payers' amounts, as JSON.
	Report() (any, error)
	// Refund refunds amount of channel id (a decimal in the token's atomic
	// units; "" for everything not charged). A refusal the operator can
	// act on wraps ErrConflict or is a bad request.
	Refund(ctx context.Context, id, amount string) (any, error)
}

// errNoChannels answers the channel routes of a server without them.
var errNoChannels = fmt.Errorf("no network takes batch-settlement payments: %w", ErrNotFound)

// apiChannels answers GET /channels.
func (d *Dashboard) apiChannels(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if d.cfg.Channels == nil {
		return 0, nil, errNoChannels
	}
	rep, err := d.cfg.Channels.Report()
	return http.StatusOK, rep, err
}

// apiRefundChannel answers POST /channels/{id}/refund with a body of
// {"amount": "<atomic units>"} (or {} for everything not charged), and
// audits it.
func (d *Dashboard) apiRefundChannel(w http.ResponseWriter, r *http.Request) (int, any, error) {
	if d.cfg.Channels == nil {
		return 0, nil, errNoChannels
	}
	var body struct {
		Amount string `json:"amount"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 4096)).Decode(&body); err != nil {
		return 0, nil, fmt.Errorf("%w: the body is not {\"amount\": \"…\"}: %v", errBadRequest, err)
	}
	id := r.PathValue("id")
	res, err := d.cfg.Channels.Refund(r.Context(), id, body.Amount)
	if err != nil {
		return 0, nil, err
	}
	if err := Record(d.cfg.Audit, actor(r, "admin-api"), "channel.refund", id, fmt.Sprintf("amount %q", body.Amount)); err != nil {
		d.log.Warn("auditing a channel refund", errField(err))
	}
	return http.StatusOK, res, nil
}

// channelsPage shows the channels and their payers.
func (d *Dashboard) channelsPage(w http.ResponseWriter, r *http.Request, p *page) {
	rep, err := d.cfg.Channels.Report()
	if err != nil {
		d.fail(w, r, p, err)
		return
	}
	p.Title, p.Page, p.Data = "Payment channels", "channels", rep
	p.Done = doneMessages[r.URL.Query().Get("done")]
	d.render(w, http.StatusOK, "channels", p)
}

// refundChannelForm refunds what a channel holds beyond its charges, on
// the operator's word, and audits it.
func (d *Dashboard) refundChannelForm(w http.ResponseWriter, r *http.Request, p *page) {
	id := r.PathValue("id")
	if _, err := d.cfg.Channels.Refund(r.Context(), id, r.PostFormValue("amount")); err != nil {
		d.fail(w, r, p, err)
		return
	}
	if err := Record(d.cfg.Audit, p.User, "channel.refund", id, "the rest, from the dashboard"); err != nil {
		d.log.Warn("auditing a channel refund", errField(err))
	}
	http.Redirect(w, r, p.Base+"channels?done=refunded", http.StatusSeeOther)
}
