package x402

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// caip2 is the CAIP-2 syntax: namespace ":" reference.
var caip2 = regexp.MustCompile(`^([-a-z0-9]{3,8}):([-_a-zA-Z0-9]{1,32})$`)

// ParseNetwork parses a CAIP-2 network id of the eip155 namespace, such as
// "eip155:8453", and returns its chain id. A well-formed id of another
// namespace and a malformed id are both errors, with different messages.
func ParseNetwork(network string) (uint64, error) {
	// The form every request carries, without the regular expression.
	if ref, ok := strings.CutPrefix(network, "eip155:"); ok && len(ref) > 0 && len(ref) < 20 && ref[0] != '0' {
		if id, err := strconv.ParseUint(ref, 10, 64); err == nil {
			return id, nil
		}
	}
	m := caip2.FindStringSubmatch(network)
	if m == nil {
		return 0, fmt.Errorf("network %q is not a CAIP-2 id (want eip155:<chain id>)", network)
	}
	if m[1] != "eip155" {
		return 0, fmt.Errorf("network %q: namespace %q is not supported (want eip155)", network, m[1])
	}
	ref := m[2]
	if ref[0] == '0' {
		return 0, fmt.Errorf("network %q: chain id must be a positive decimal without leading zeros", network)
	}
	id, err := strconv.ParseUint(ref, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("network %q: chain id must be a positive decimal that fits in 64 bits", network)
	}
	return id, nil
}

// FormatNetwork returns the CAIP-2 id of an EVM chain.
func FormatNetwork(chainID uint64) string {
	return "eip155:" + strconv.FormatUint(chainID, 10)
}
