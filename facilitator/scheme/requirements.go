package scheme

import (
	"strings"

	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/memo"
)

// A merchant's paywall sends the same few requirements with every payment
// (one per route and price), so their hash, a Keccak and two addresses'
// hex, is remembered. The hash is a function of the key, so no caller can
// plant a wrong one; one that varies its requirements only churns the
// memo, and pays a signature's recovery each time.

// requirementsPerGeneration bounds the memo: two generations of at most
// this many requirements.
const requirementsPerGeneration = 1024

// requirementsKey is what RequirementsHash reads of the requirements, as
// sent.
type requirementsKey struct {
	scheme, network, asset, payTo, amount string
}

// requirementsMemo remembers RequirementsHash.
type requirementsMemo struct {
	memo.Generations[requirementsKey, common.Hash]
}

var requirementsHashes = requirementsMemo{memo.Generations[requirementsKey, common.Hash]{Size: requirementsPerGeneration}}

// put keeps k's hash, with k's strings copied: they are slices of the
// request they came in, which the memo must not keep.
func (m *requirementsMemo) put(k requirementsKey, h common.Hash) {
	m.Put(requirementsKey{strings.Clone(k.scheme), strings.Clone(k.network), strings.Clone(k.asset), strings.Clone(k.payTo), strings.Clone(k.amount)}, h)
}
