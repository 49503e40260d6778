package caddymodule

import (
	"errors"
	"fmt"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
)

// configValue names a string option of the config, for expand.
type configValue struct {
	field string
	v     *string
}

// expand resolves the {env.*} and {file.*} placeholders of config values in
// place, at provision time, as Caddy's own modules resolve theirs: so that
// `rpc {env.X402_RPC_URL}` dials the URL in the environment, and a
// Kubernetes ConfigMap can take the payout address from a variable. A
// placeholder that is unset, empty or unknown at provision time is an error
// naming the field; the value is trimmed of surrounding white space, as a
// mounted file's often ends in a newline. Secrets are not resolved here:
// they stay placeholders in the config and are read where they are used.
func expand(vals ...configValue) error {
	repl := caddy.NewReplacer()
	var errs []error
	for _, c := range vals {
		if !strings.Contains(*c.v, "{") {
			continue
		}
		out, err := repl.ReplaceOrErr(*c.v, true, true)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", c.field, *c.v, err))
			continue
		}
		*c.v = strings.TrimSpace(out)
	}
	return errors.Join(errs...)
}

// configAddress parses an address of the config: 0x and 40 hex digits. A
// mixed-case address must carry a valid EIP-55 checksum, so that a typo in
// a payout or contract address is refused, with the correct form suggested,
// rather than used; an all-lowercase or all-uppercase one carries no
// checksum and is taken as it is. This is the rule txapi applies to the
// addresses it is sent.
func configAddress(field, s string) (common.Address, error) {
	if len(s) != 42 || !strings.HasPrefix(s, "0x") || !common.IsHexAddress(s) {
		return common.Address{}, fmt.Errorf("%s %q: want 0x and 40 hex digits", field, s)
	}
	a := common.HexToAddress(s)
	if body := s[2:]; body != strings.ToLower(body) && body != strings.ToUpper(body) && a.Hex() != s {
		return common.Address{}, fmt.Errorf("%s %q fails its EIP-55 checksum (did you mean %s?)", field, s, a.Hex())
	}
	return a, nil
}
