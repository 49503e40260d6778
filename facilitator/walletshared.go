package facilitator

import (
	"encoding/json"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/store"
)

// The budget of contract-wallet reverts across a fleet. With a store that
// has key-value spaces, the budget (walletbudget.go) is kept in its
// WalletBudgetBucket instead of each process's memory, so that N replicas
// sharing a store hold to one budget, not N, and a restart keeps it:
//
//   - "g": the reverts of the last hour, all classes (unix nanoseconds);
//   - "c" + class: the reverts of one class in the last hour;
//   - "p" + payer and "s" + class: when a payer, or a class, last settled.
//
// The reads happen for contract-wallet payments only (a few per
// verification), the writes once per such settlement or revert.

// WalletBudgetBucket names the key-value space of the shared budget of
// contract-wallet reverts.
const WalletBudgetBucket = "x402_wallet_budget"

// sharedWallets is the budget of contract-wallet reverts in a store.
type sharedWallets struct {
	kv  store.KV
	log *zap.Logger
}

// openSharedWallets opens the shared budget of st, or nil when st has no
// key-value spaces.
func openSharedWallets(st store.Settlements, log *zap.Logger) *sharedWallets {
	kv := openBucket(st, WalletBudgetBucket, "the shared budget of contract-wallet reverts", log)
	if kv == nil {
		return nil
	}
	return &sharedWallets{kv: kv, log: log}
}

// times reads a list of unix nanoseconds.
func times(v []byte) []time.Time {
	var ns []int64
	if json.Unmarshal(v, &ns) != nil {
		return nil
	}
	out := make([]time.Time, len(ns))
	for i, n := range ns {
		out[i] = time.Unix(0, n)
	}
	return out
}

// appendRevert adds now to the list of key, keeping the last hour's and at
// most limit of them (0: no cap).
func (w *sharedWallets) appendRevert(key []byte, now time.Time, limit int) {
	err := w.kv.Update(key, func(old []byte) ([]byte, error) {
		recent := append(recentReverts(times(old), now, limit), now)
		if limit > 0 && len(recent) > limit {
			recent = recent[len(recent)-limit:]
		}
		ns := make([]int64, len(recent))
		for i, t := range recent {
			ns[i] = t.UnixNano()
		}
		return json.Marshal(ns)
	})
	if err != nil {
		w.log.Warn("counting a contract-wallet revert in the shared budget", zap.Error(err))
	}
}

// reverted counts a revert of class, against limit (the global bound; -1
// none).
func (w *sharedWallets) reverted(class common.Hash, now time.Time, limit int) {
	if limit > 0 {
		w.appendRevert([]byte("g"), now, limit)
	}
	w.appendRevert(append([]byte("c"), class[:]...), now, walletClassReverts)
}

// settled marks payer and class settled.
func (w *sharedWallets) settled(payer common.Address, class common.Hash, now time.Time) {
	v, _ := json.Marshal(now.UnixNano())
	for _, k := range [][]byte{append([]byte("p"), payer[:]...), append([]byte("s"), class[:]...)} {
		if err := w.kv.Put(k, v); err != nil {
			w.log.Warn("marking a contract wallet settled in the shared budget", zap.Error(err))
		}
	}
}

// paused is walletBudget.paused over the shared budget.
func (w *sharedWallets) paused(payer common.Address, class common.Hash, now time.Time, limit int) (time.Time, bool) {
	if v, err := w.kv.Get(append([]byte("p"), payer[:]...)); err == nil && v != nil {
		return time.Time{}, false
	}
	if v, err := w.kv.Get(append([]byte("c"), class[:]...)); err == nil {
		if recent := recentReverts(times(v), now, walletClassReverts); len(recent) >= walletClassReverts {
			return recent[0].Add(time.Hour), true
		}
	}
	if v, err := w.kv.Get(append([]byte("s"), class[:]...)); err == nil && v != nil {
		return time.Time{}, false
	}
	if limit < 0 {
		return time.Time{}, false
	}
	v, err := w.kv.Get([]byte("g"))
	if err != nil {
		return time.Time{}, false
	}
	if recent := recentReverts(times(v), now, limit); len(recent) >= limit {
		return recent[0].Add(time.Hour), true
	}
	return time.Time{}, false
}
