package sender

import (
	"errors"
	"strings"

	"github.com/ethereum/go-ethereum/rpc"
)

// indexingMessage is go-ethereum's answer to a lookup of a transaction or
// receipt it does not find while its transaction indexer is behind the
// head (internal/ethapi.TxIndexingError): as the message and as the error
// data, with code -32000.
const indexingMessage = "transaction indexing is in progress"

// Indexing reports whether err is a node's answer that its transaction
// index is not complete, so it cannot yet say whether it knows the
// transaction looked up. go-ethereum answers so for a while after it
// starts, and briefly after each new block until its indexer catches up
// (on a busy machine, often): a transaction or receipt lookup must treat
// it as "not known yet" and look again, never as a failure and never as
// "not found", since the transaction may be mined in a block not yet
// indexed.
func Indexing(err error) bool {
	if err == nil {
		return false
	}
	var de rpc.DataError
	if errors.As(err, &de) {
		if data, ok := de.ErrorData().(string); ok && data == indexingMessage {
			return true
		}
	}
	return strings.Contains(strings.ToLower(err.Error()), indexingMessage)
}
