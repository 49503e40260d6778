package claimer

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"time"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/store"
)

// Report is the state of the claimer's channels, for the dashboard: per
// channel and per payer, what was charged and not claimed, claimed, and
// swept to the receiver by this merchant's claims. Amounts are of each
// channel's token; a payer with channels in two tokens has a line per
// token.
type Report struct {
	Channels []ChannelReport
	Payers   []PayerReport
}

// ChannelReport is one channel's line of a Report.
type ChannelReport struct {
	ID                        common.Hash
	Payer, Receiver, Token    common.Address
	Balance                   *big.Int
	Unclaimed, Claimed, Swept *big.Int
	// WithdrawRequestedAt is when the payer started a timed withdrawal
	// (unix seconds), zero if none.
	WithdrawRequestedAt int64
	// Claims counts the mined claims, the last at ClaimedAt.
	Claims    int
	ClaimedAt time.Time
}

// PayerReport is one payer's line of a Report, in one token.
type PayerReport struct {
	Payer, Token              common.Address
	Channels                  int
	Unclaimed, Claimed, Swept *big.Int
}

// Report reads the store's channels of the claimer's receiver authorizer.
func (c *Claimer) Report() (Report, error) {
	var rep Report
	payers := map[[2]common.Address]*PayerReport{}
	err := c.channels.Each(func(ch store.Channel) error {
		if ch.Config == nil || ch.Config.ReceiverAuthorizer != c.address {
			return nil
		}
		swept := ch.Swept
		if swept == nil {
			swept = new(big.Int)
		}
		line := ChannelReport{
			ID: ch.ID, Payer: ch.Config.Payer, Receiver: ch.Config.Receiver, Token: ch.Config.Token, Balance: ch.Balance,
			Unclaimed: ch.Unclaimed(), Claimed: ch.TotalClaimed, Swept: swept,
			WithdrawRequestedAt: ch.WithdrawRequestedAt, Claims: ch.Claims, ClaimedAt: ch.ClaimedAt,
		}
		rep.Channels = append(rep.Channels, line)
		k := [2]common.Address{line.Payer, line.Token}
		p := payers[k]
		if p == nil {
			p = &PayerReport{Payer: line.Payer, Token: line.Token, Unclaimed: new(big.Int), Claimed: new(big.Int), Swept: new(big.Int)}
			payers[k] = p
		}
		p.Channels++
		p.Unclaimed.Add(p.Unclaimed, line.Unclaimed)
		p.Claimed.Add(p.Claimed, line.Claimed)
		p.Swept.Add(p.Swept, line.Swept)
		return nil
	})
	if err != nil {
		return Report{}, fmt.Errorf("reading the channels: %w", err)
	}
	for _, p := range payers {
		rep.Payers = append(rep.Payers, *p)
	}
	slices.SortFunc(rep.Payers, func(a, b PayerReport) int {
		return cmp.Or(a.Payer.Cmp(b.Payer), a.Token.Cmp(b.Token))
	})
	return rep, nil
}
