package exact

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
)

// A wrong EIP-712 name or version of an asset makes every exact payment
// in it fail on chain, after it verified: the payer signs in the domain
// the offer names, the facilitator checks the signature in that same
// domain, and only the token, which has its own, refuses it. CheckTokens
// reads each asset's domain and decimals from the chain, so that the
// configuration is refused at start, or the asset's payments are refused
// at first contact, rather than each one reverting.

// ErrTokenMismatch is wrapped by a TokenMismatch.
var ErrTokenMismatch = errors.New("the token on chain disagrees with its configuration")

// TokenMismatch is an asset whose token on chain disagrees with its
// configuration. Its message names the right values.
type TokenMismatch struct {
	// Asset is the configured asset.
	Asset Asset
	// Problems say what disagrees, one sentence each.
	Problems []string
	// Name, Version and Decimals are the token's own, where read.
	Name, Version string
	Decimals      uint8
	// Domain reports whether Name and Version are known.
	Domain bool
}

func (e *TokenMismatch) Error() string {
	msg := fmt.Sprintf("asset %s: %s", e.Asset.Address, strings.Join(e.Problems, "; "))
	switch {
	case e.Domain:
		msg += fmt.Sprintf(`; give: asset %s %q %q %d`, e.Asset.Address, e.Name, e.Version, e.Decimals)
	case e.Decimals != 0 && e.Asset.Name == "":
		msg += fmt.Sprintf(`; give: asset %s %d`, e.Asset.Address, e.Decimals)
	}
	return msg
}

// Unwrap makes a TokenMismatch match ErrTokenMismatch.
func (e *TokenMismatch) Unwrap() error { return ErrTokenMismatch }

// The reads of a token: ERC-5267's eip712Domain(), and the older
// name(), version(), decimals() and DOMAIN_SEPARATOR().
var (
	selEIP712Domain    = crypto.Keccak256([]byte("eip712Domain()"))[:4]
	selName            = crypto.Keccak256([]byte("name()"))[:4]
	selVersion         = crypto.Keccak256([]byte("version()"))[:4]
	selDecimals        = crypto.Keccak256([]byte("decimals()"))[:4]
	selDomainSeparator = crypto.Keccak256([]byte("DOMAIN_SEPARATOR()"))[:4]
	tokenReads         = [][]byte{selEIP712Domain, selName, selVersion, selDecimals, selDomainSeparator}
)

// eip712DomainOut is the answer of ERC-5267's eip712Domain().
var eip712DomainOut = func() abi.Arguments {
	typ := func(s string) abi.Type {
		t, err := abi.NewType(s, "", nil)
		if err != nil {
			panic(err)
		}
		return t
	}
	return abi.Arguments{
		{Type: typ("bytes1")}, {Type: typ("string")}, {Type: typ("string")}, {Type: typ("uint256")},
		{Type: typ("address")}, {Type: typ("bytes32")}, {Type: typ("uint256[]")},
	}
}()

// abiString decodes a string answer.
var abiString = func() abi.Arguments {
	t, _ := abi.NewType("string", "", nil)
	return abi.Arguments{{Type: t}}
}()

// domainFields is the fields bitmap of a domain of name, version, chain
// id and verifying contract: the EIP712Domain of EIP-3009 tokens.
const domainFields = 0x0f

// tokenState is what a token answered; nil fields did not answer.
type tokenState struct {
	domain    *onChainDomain
	name      *string
	version   *string
	decimals  *uint8
	separator *common.Hash
}

// onChainDomain is an eip712Domain() answer.
type onChainDomain struct {
	fields        byte
	name, version string
	chainID       *big.Int
	contract      common.Address
}

// CheckTokens reads every asset's EIP-712 domain and decimals from the
// chain with one batch, and returns, for each asset, nil when the token
// agrees with it, a *TokenMismatch when it does not, or another error
// when the chain could not be read (which says nothing of the token).
// An asset without a name (no EIP-3009) has its decimals checked only;
// zero decimals are not checked.
func CheckTokens(ctx context.Context, chain Chain, chainID *big.Int, assets []Asset) []error {
	batch := make([]rpc.BatchElem, 0, len(assets)*len(tokenReads))
	answers := make([]hexutil.Bytes, len(assets)*len(tokenReads))
	for i, a := range assets {
		for j, sel := range tokenReads {
			batch = append(batch, rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: &a.Address, Data: sel}, "latest"}, Result: &answers[i*len(tokenReads)+j]})
		}
	}
	errs := make([]error, len(assets))
	if err := chain.BatchCallContext(ctx, batch); err != nil {
		for i := range errs {
			errs[i] = fmt.Errorf("reading the token %s: %w", assets[i].Address, err)
		}
		return errs
	}
	for i, a := range assets {
		var st tokenState
		for j := range tokenReads {
			k := i*len(tokenReads) + j
			if err := batch[k].Error; err != nil {
				if !reverted(err) {
					errs[i] = fmt.Errorf("reading the token %s: %w", a.Address, err)
					break
				}
				continue
			}
			st.decode(j, answers[k])
		}
		if errs[i] == nil {
			errs[i] = st.compare(a, chainID)
		}
	}
	return errs
}

// reverted reports whether err is a call that the contract refused (or
// a function it lacks), rather than a node that did not answer.
func reverted(err error) bool {
	var de rpc.DataError
	if errors.As(err, &de) {
		return true
	}
	var re rpc.Error
	if errors.As(err, &re) && re.ErrorCode() == 3 {
		return true
	}
	return strings.Contains(strings.ToLower(err.Error()), "revert")
}

// decode records the answer of read j; one that does not decode is left
// out, as a function the contract lacks.
func (st *tokenState) decode(j int, out []byte) {
	switch j {
	case 0:
		v, err := eip712DomainOut.Unpack(out)
		if err != nil {
			return
		}
		fields, _ := v[0].([1]byte)
		name, _ := v[1].(string)
		version, _ := v[2].(string)
		id, _ := v[3].(*big.Int)
		contract, _ := v[4].(common.Address)
		st.domain = &onChainDomain{fields: fields[0], name: name, version: version, chainID: id, contract: contract}
	case 1, 2:
		v, err := abiString.Unpack(out)
		if err != nil {
			return
		}
		s, _ := v[0].(string)
		if j == 1 {
			st.name = &s
		} else {
			st.version = &s
		}
	case 3:
		if len(out) != 32 || new(big.Int).SetBytes(out).Cmp(big.NewInt(255)) > 0 {
			return
		}
		d := out[31]
		st.decimals = &d
	case 4:
		if len(out) != 32 {
			return
		}
		h := common.BytesToHash(out)
		st.separator = &h
	}
}

// compare checks a against what the token answered.
func (st *tokenState) compare(a Asset, chainID *big.Int) error {
	m := &TokenMismatch{Asset: a}
	if st.decimals != nil {
		m.Decimals = *st.decimals
	}
	switch {
	case st.decimals == nil && st.name == nil && st.domain == nil && st.separator == nil:
		m.Problems = append(m.Problems, "no ERC-20 token answers at that address on this chain (no decimals(), name() or EIP-712 domain)")
		return m
	case st.decimals == nil:
		m.Problems = append(m.Problems, "the token answers no decimals()")
	case a.Decimals != 0 && *st.decimals != a.Decimals:
		m.Problems = append(m.Problems, fmt.Sprintf("the token has %d decimals, not %d", *st.decimals, a.Decimals))
	}
	if a.Name != "" {
		m.Problems = append(m.Problems, st.compareDomain(a, chainID, m)...)
	}
	if len(m.Problems) == 0 {
		return nil
	}
	return m
}

// compareDomain checks a's EIP-712 name and version against the token's
// domain: its eip712Domain() (ERC-5267) if it has one, else its
// DOMAIN_SEPARATOR(), else its name() and version().
func (st *tokenState) compareDomain(a Asset, chainID *big.Int, m *TokenMismatch) []string {
	ours := DomainSeparator(a.Name, a.Version, chainID, a.Address)
	if d := st.domain; d != nil {
		if d.fields != domainFields || d.chainID == nil || d.chainID.Cmp(chainID) != 0 || d.contract != a.Address {
			return []string{fmt.Sprintf("the token's EIP-712 domain (fields %#x, chain %v, contract %s) is not the name, version, chain id and contract that EIP-3009 payments are signed in; give it without a name and version, for aa-native only", d.fields, d.chainID, d.contract)}
		}
		m.Name, m.Version, m.Domain = d.name, d.version, true
		if d.name != a.Name || d.version != a.Version {
			return []string{fmt.Sprintf("the token's EIP-712 domain is name %q version %q, not name %q version %q", d.name, d.version, a.Name, a.Version)}
		}
		return nil
	}
	if sep := st.separator; sep != nil {
		if *sep == ours {
			m.Name, m.Version, m.Domain = a.Name, a.Version, true
			return nil
		}
		if st.name != nil && st.version != nil && DomainSeparator(*st.name, *st.version, chainID, a.Address) == *sep {
			m.Name, m.Version, m.Domain = *st.name, *st.version, true
			return []string{fmt.Sprintf("the token's EIP-712 domain is name %q version %q, not name %q version %q", *st.name, *st.version, a.Name, a.Version)}
		}
		return []string{fmt.Sprintf("the token's DOMAIN_SEPARATOR() is %s, not the %s of name %q version %q (its name() and version() do not give it either; find the EIP-712 name and version its issuer publishes)", sep.Hex(), ours.Hex(), a.Name, a.Version)}
	}
	if st.name != nil && st.version != nil {
		if *st.name != a.Name || *st.version != a.Version {
			m.Name, m.Version, m.Domain = *st.name, *st.version, true
			return []string{fmt.Sprintf("the token's name() and version() are %q and %q, not %q and %q", *st.name, *st.version, a.Name, a.Version)}
		}
		m.Name, m.Version, m.Domain = a.Name, a.Version, true
		return nil
	}
	return []string{"the token answers neither eip712Domain() nor DOMAIN_SEPARATOR() (nor name() and version()), so it is no EIP-3009 token; give it without a name and version, for aa-native only"}
}
