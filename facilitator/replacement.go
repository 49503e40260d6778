package facilitator

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"
)

// carries records that the unfinished transaction hash carries the
// settlement of key.
func (s *Service) carries(hash, key common.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !slices.Contains(s.txKeys[hash], key) {
		s.txKeys[hash] = append(s.txKeys[hash], key)
	}
}

// done forgets that hash carries key.
func (s *Service) done(hash, key common.Hash) {
	s.mu.Lock()
	defer s.mu.Unlock()
	keys := slices.DeleteFunc(s.txKeys[hash], func(k common.Hash) bool { return k == key })
	if len(keys) == 0 {
		delete(s.txKeys, hash)
	} else {
		s.txKeys[hash] = keys
	}
}

// replaced records, before it is broadcast, that the sender replaced old
// with replacement in every settlement old carries, so a restart finds and
// rebroadcasts the transaction that will be mined.
func (s *Service) replaced(old, replacement *types.Transaction) error {
	raw, err := replacement.MarshalBinary()
	if err != nil {
		return err
	}
	s.mu.Lock()
	keys := slices.Clone(s.txKeys[old.Hash()])
	s.mu.Unlock()
	for _, key := range keys {
		if _, err := s.store.Resubmit(key, old.Hash(), replacement.Hash(), raw); err != nil {
			return err
		}
		s.carries(replacement.Hash(), key)
	}
	s.log.Info("settlement transaction replaced with higher fees", zap.Stringer("old", old.Hash()), zap.Stringer("new", replacement.Hash()), zap.Int("settlements", len(keys)))
	return nil
}
