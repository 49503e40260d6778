package caddymodule

import (
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/paywall"
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

// checkAddresses checks the addresses of the config that are set (see
// configAddress).
func checkAddresses(vals ...configValue) error {
	var errs []error
	for _, c := range vals {
		if *c.v == "" {
			continue
		}
		if _, err := configAddress(c.field, *c.v); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// isPlaceholder reports whether s is an {env.*} or {file.*} placeholder,
// the only form a secret of the config may take.
func isPlaceholder(s string) bool {
	return strings.HasPrefix(s, "{env.") || strings.HasPrefix(s, "{file.")
}

// checkSecrets refuses a secret option that is set to anything but an
// {env.*} or {file.*} placeholder: the config, with its literal values,
// is shown by the admin API and may be logged. The errors name the
// option, never its value.
func checkSecrets(vals ...configValue) error {
	var errs []error
	for _, c := range vals {
		if *c.v != "" && !isPlaceholder(*c.v) {
			errs = append(errs, fmt.Errorf("%s must be an {env.*} or {file.*} placeholder, so that the secret stays out of the config and the admin API", c.field))
		}
	}
	return errors.Join(errs...)
}

// secret resolves the placeholder of a secret option, trimmed of
// surrounding white space. Errors name the option and its placeholder,
// never the value.
func secret(field, placeholder string) (string, error) {
	v, err := caddy.NewReplacer().ReplaceOrErr(placeholder, true, true)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", field, placeholder, err)
	}
	if v = strings.TrimSpace(v); v == "" {
		return "", fmt.Errorf("%s %s is empty", field, placeholder)
	}
	return v, nil
}

// secretKey resolves the placeholder of a private key option: 64 hex
// digits, with or without 0x.
func secretKey(field, placeholder string) (*ecdsa.PrivateKey, error) {
	raw, err := secret(field, placeholder)
	if err != nil {
		return nil, err
	}
	key, err := crypto.HexToECDSA(strings.TrimPrefix(raw, "0x"))
	if err != nil {
		return nil, fmt.Errorf("%s %s is not a hex secp256k1 private key", field, placeholder)
	}
	return key, nil
}

// units converts an amount of the config in whole units, such as "0.5"
// ETH or "100" tokens, to atomic units with decimals. An empty value is
// nil, which the plain packages take as their default.
func units(field, v string, decimals uint8) (*big.Int, error) {
	if v == "" {
		return nil, nil
	}
	s, err := paywall.ParsePrice(v, decimals)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	n, _ := new(big.Int).SetString(s, 10)
	return n, nil
}
