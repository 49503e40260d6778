package bundler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/rpc"
)

// ErrNoAnswer means a bundler gave no answer to eth_supportedEntryPoints:
// it could not be reached, or it answered with a JSON-RPC error, as a
// bundler older than the method does. It says nothing about which
// EntryPoints the bundler serves.
var ErrNoAnswer = errors.New("no answer to eth_supportedEntryPoints")

// SupportedEntryPoints asks the bundler at rawURL which EntryPoints it
// serves (ERC-7769's eth_supportedEntryPoints). An error that wraps
// ErrNoAnswer means the bundler did not say; any other error, that its
// answer is not a list of addresses. An error names the bundler by its
// host only, never its URL's path or query, which may hold a provider's
// API key.
func SupportedEntryPoints(ctx context.Context, rawURL string) ([]common.Address, error) {
	host := Host(rawURL)
	c, err := rpc.DialContext(ctx, rawURL)
	if err != nil {
		return nil, fmt.Errorf("%w: the bundler at %s: %v", ErrNoAnswer, host, withoutURL(err))
	}
	defer c.Close()
	var raw json.RawMessage
	if err := c.CallContext(ctx, &raw, "eth_supportedEntryPoints"); err != nil {
		return nil, fmt.Errorf("%w: the bundler at %s: %v", ErrNoAnswer, host, callError(err))
	}
	eps, err := decodeEntryPoints(raw)
	if err != nil {
		return nil, fmt.Errorf("the bundler at %s answered eth_supportedEntryPoints with %w", host, err)
	}
	return eps, nil
}

// decodeEntryPoints decodes an eth_supportedEntryPoints result: a JSON
// array of 0x-prefixed 20-byte hex addresses, in any case.
func decodeEntryPoints(raw []byte) ([]common.Address, error) {
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil || list == nil {
		return nil, errors.New("something other than a list of addresses")
	}
	eps := make([]common.Address, len(list))
	for i, s := range list {
		hasPrefix := strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X")
		if len(s) != 2+2*common.AddressLength || !hasPrefix || !common.IsHexAddress(s) {
			return nil, fmt.Errorf("a list whose entry %d is not an address", i)
		}
		eps[i] = common.HexToAddress(s)
	}
	return eps, nil
}

// Host is the host of a bundler's URL, the part of it that messages and
// logs show: its path or query may hold a provider's API key.
func Host(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return "(an unparsable URL)"
	}
	return u.Host
}

// callError describes a failed call without what could hold a provider's
// key: a JSON-RPC error's code and message, an HTTP error's status (not
// its body), or a transport error without the request's URL.
func callError(err error) error {
	var rerr rpc.Error
	var herr rpc.HTTPError
	switch {
	case errors.As(err, &rerr):
		return fmt.Errorf("JSON-RPC error %d: %s", rerr.ErrorCode(), rerr.Error())
	case errors.As(err, &herr):
		return fmt.Errorf("HTTP %s", herr.Status)
	}
	return withoutURL(err)
}

// withoutURL is err without the request's URL that net/http puts in it,
// which may hold a provider's API key.
func withoutURL(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}
