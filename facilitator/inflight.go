package facilitator

import (
	"slices"

	"github.com/ethereum/go-ethereum/common"
	"go.uber.org/zap"
)

// The in-flight set: the replay keys this process's settles are working
// on, so that a second settle of a payment in this process waits for the
// first (in_flight) instead of settling it again, and what this process
// holds for a settlement until it is given up.

// busy reports whether a settle of key is running in this process.
func (s *Service) busy(key common.Hash) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.inFlight[key]
	return ok
}

func (s *Service) enter(key common.Hash) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, busy := s.inFlight[key]; busy {
		return false
	}
	s.inFlight[key] = struct{}{}
	return true
}

func (s *Service) leave(key common.Hash) {
	s.mu.Lock()
	delete(s.inFlight, key)
	s.mu.Unlock()
}

// release gives up a claim that produced no delivered transaction, so the
// payment can be settled by a later attempt.
func (s *Service) release(p *payment) {
	s.forget(p)
	if err := s.store.Release(p.key); err != nil {
		s.log.Error("releasing a claim", zap.Stringer("key", p.key), zap.Error(err))
	}
}

// forget drops what this process holds for a settlement of p: its
// reservation and its transactions.
func (s *Service) forget(p *payment) {
	s.payers.release(p.key)
	s.mu.Lock()
	for hash, keys := range s.txKeys {
		if keys = slices.DeleteFunc(keys, func(k common.Hash) bool { return k == p.key }); len(keys) == 0 {
			delete(s.txKeys, hash)
		} else {
			s.txKeys[hash] = keys
		}
	}
	s.mu.Unlock()
}
