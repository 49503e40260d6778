package sender

import (
	"context"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// DefaultMaxFeePerGas is the fee cap ceiling when Config.MaxFeePerGas is
// unset: 500 gwei, go-ethereum's own ceiling for the prices it suggests.
var DefaultMaxFeePerGas = big.NewInt(500 * params.GWei)

// Fee readings: a reading younger than feeFresh is used as it is; an older
// one, up to feeStale, is used while a background refresh replaces it (so a
// lone settlement does not wait for two RPCs); an older one, or none, is
// read before signing. The fee cap, twice the base fee plus the tip,
// survives six full blocks of base-fee growth, more than feeStale of blocks
// on any chain this serves.
const (
	feeFresh = time.Second
	feeStale = 10 * time.Second
)

// fees returns the tip and fee cap for a new transaction, with the fee cap
// at most Config.MaxFeePerGas.
func (s *Sender) fees(ctx context.Context) (tip, feeCap *big.Int, err error) {
	s.feeMu.Lock()
	age := time.Since(s.feeAt)
	if s.tip == nil || age > feeStale {
		s.feeMu.Unlock()
		baseFee, tip, err := s.readFees(ctx)
		if err != nil {
			return nil, nil, classify(err)
		}
		s.feeMu.Lock()
		s.setFeesLocked(baseFee, tip)
	} else if age > feeFresh && !s.feeRefreshing && !s.feeClosed {
		s.feeRefreshing = true
		s.feeWG.Go(s.refreshFees) // under feeMu, so never after Close's Wait
	}
	defer s.feeMu.Unlock()
	// Twice the base fee survives six full blocks of base-fee growth.
	feeCap = new(big.Int).Add(new(big.Int).Mul(s.baseFee, big.NewInt(2)), s.tip)
	tip = new(big.Int).Set(s.tip)
	if feeCap.Cmp(s.cfg.MaxFeePerGas) > 0 {
		feeCap.Set(s.cfg.MaxFeePerGas)
	}
	if tip.Cmp(feeCap) > 0 {
		tip.Set(feeCap)
	}
	return tip, feeCap, nil
}

// refreshFees reads the fees in the background for fees; a failure leaves
// the reading as it was, for the next call to try again.
func (s *Sender) refreshFees() {
	baseFee, tip, err := s.readFees(s.ctx)
	s.feeMu.Lock()
	defer s.feeMu.Unlock()
	s.feeRefreshing = false
	if err == nil {
		s.setFeesLocked(baseFee, tip)
	}
}

// readFees reads the latest base fee and the suggested tip in one batch.
func (s *Sender) readFees(ctx context.Context) (baseFee, tip *big.Int, err error) {
	var (
		head struct {
			BaseFee *hexutil.Big `json:"baseFeePerGas"`
		}
		suggested hexutil.Big
	)
	b := []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
		{Method: "eth_maxPriorityFeePerGas", Result: &suggested},
	}
	if err := s.batch(ctx, b); err != nil {
		return nil, nil, err
	}
	if head.BaseFee != nil {
		baseFee = head.BaseFee.ToInt()
	}
	return baseFee, suggested.ToInt(), nil
}

// setFees refreshes the fee cache from a check's reading of the chain.
func (s *Sender) setFees(baseFee, tip *big.Int) {
	s.feeMu.Lock()
	defer s.feeMu.Unlock()
	if tip == nil {
		if s.tip == nil {
			return // no tip known yet: leave it to fees
		}
		tip = s.tip
	}
	s.setFeesLocked(baseFee, tip)
}

func (s *Sender) setFeesLocked(baseFee, tip *big.Int) {
	if baseFee == nil {
		baseFee = new(big.Int)
	}
	s.tip, s.baseFee, s.feeAt = new(big.Int).Set(tip), new(big.Int).Set(baseFee), time.Now()
}

// bump returns the fees of a replacement for a transaction that pays tip
// and feeCap. Both rise by at least an eighth (go-ethereum takes a
// replacement only if both rise by a tenth), the tip to at least suggested,
// and the fee cap to cover twice baseFee plus the tip; the fee cap is at most
// ceiling. ok is false when the ceiling leaves no room for a valid
// replacement.
func bump(tip, feeCap, baseFee, suggested, ceiling *big.Int) (newTip, newCap *big.Int, ok bool) {
	minTip, minCap := raise(tip), raise(feeCap)
	newTip = new(big.Int).Set(minTip)
	if suggested != nil && suggested.Cmp(newTip) > 0 {
		newTip.Set(suggested)
	}
	newCap = new(big.Int).Set(minCap)
	if baseFee != nil {
		if need := new(big.Int).Add(new(big.Int).Lsh(baseFee, 1), newTip); need.Cmp(newCap) > 0 {
			newCap = need
		}
	}
	if newCap.Cmp(ceiling) > 0 {
		newCap.Set(ceiling)
	}
	if newTip.Cmp(newCap) > 0 {
		newTip.Set(newCap)
	}
	return newTip, newCap, newTip.Cmp(minTip) >= 0 && newCap.Cmp(minCap) >= 0
}

// raise returns x plus an eighth of it, rounded up, and at least x+1.
func raise(x *big.Int) *big.Int {
	step := new(big.Int).Add(x, big.NewInt(7))
	step.Rsh(step, 3)
	if step.Sign() == 0 {
		step.SetInt64(1)
	}
	return step.Add(step, x)
}
