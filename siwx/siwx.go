// Package siwx is x402's sign-in-with-x extension for EVM accounts, as
// upstream's @x402/extensions (2.27.0) speaks it: the challenge a 402
// declares in extensions["sign-in-with-x"], the proof a client sends back
// in the SIGN-IN-WITH-X header (base64 JSON), the CAIP-122 message that
// proof signs (EIP-4361, "Sign-In with Ethereum", byte for byte as the
// siwe library writes it), and the check of its EIP-191 signature.
//
// Only EOA signatures (eip191) are checked; smart-account signatures
// (EIP-1271, EIP-6492) and Solana accounts are refused. The signer's
// address is recovered by a function the caller supplies (go-ethereum's
// crypto.SigToPub does it), so this package, like the paywall that uses
// it, needs no go-ethereum.
package siwx

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"golang.org/x/crypto/sha3"

	"github.com/caddy-x402/caddy-x402/x402"
)

// Extension is the extension's key in a 402's extensions.
const Extension = "sign-in-with-x"

// Header carries a client's proof.
const Header = "SIGN-IN-WITH-X"

// MaxHeaderSize bounds the SIGN-IN-WITH-X header a server decodes.
const MaxHeaderSize = 8 << 10

// Info is the challenge's info: what the server asks the client to sign.
type Info struct {
	Domain         string   `json:"domain"`
	URI            string   `json:"uri"`
	Statement      string   `json:"statement,omitempty"`
	Version        string   `json:"version"`
	Nonce          string   `json:"nonce"`
	IssuedAt       string   `json:"issuedAt"`
	ExpirationTime string   `json:"expirationTime,omitempty"`
	Resources      []string `json:"resources,omitempty"`
}

// Chain is a chain the server accepts sign-ins from.
type Chain struct {
	// ChainID is its CAIP-2 id, such as eip155:8453.
	ChainID string `json:"chainId"`
	// Type is the signature type: eip191 for EVM accounts.
	Type string `json:"type"`
}

// Declaration is the extension's entry in a 402's extensions.
type Declaration struct {
	Info            Info            `json:"info"`
	SupportedChains []Chain         `json:"supportedChains"`
	Schema          json.RawMessage `json:"schema"`
}

// schema is upstream's buildSIWxSchema(), the JSON Schema of a proof.
var schema = json.RawMessage(`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"domain":{"type":"string"},"address":{"type":"string"},"statement":{"type":"string"},"uri":{"type":"string","format":"uri"},"version":{"type":"string"},"chainId":{"type":"string"},"type":{"type":"string"},"nonce":{"type":"string"},"issuedAt":{"type":"string","format":"date-time"},"expirationTime":{"type":"string","format":"date-time"},"notBefore":{"type":"string","format":"date-time"},"requestId":{"type":"string"},"resources":{"type":"array","items":{"type":"string","format":"uri"}},"signature":{"type":"string"}},"required":["domain","address","uri","version","chainId","type","nonce","issuedAt","signature"]}`)

// Declare returns the extension's declaration for info, accepting EOA
// sign-ins from the chains (CAIP-2 ids) given.
func Declare(info Info, chains []string) Declaration {
	d := Declaration{Info: info, Schema: schema}
	for _, c := range chains {
		d.SupportedChains = append(d.SupportedChains, Chain{ChainID: c, Type: "eip191"})
	}
	return d
}

// Payload is a client's proof, the SIGN-IN-WITH-X header's JSON.
type Payload struct {
	Domain          string   `json:"domain"`
	Address         string   `json:"address"`
	Statement       *string  `json:"statement,omitempty"`
	URI             string   `json:"uri"`
	Version         string   `json:"version"`
	ChainID         string   `json:"chainId"`
	Type            string   `json:"type"`
	Nonce           string   `json:"nonce"`
	IssuedAt        string   `json:"issuedAt"`
	ExpirationTime  string   `json:"expirationTime,omitempty"`
	NotBefore       string   `json:"notBefore,omitempty"`
	RequestID       *string  `json:"requestId,omitempty"`
	Resources       []string `json:"resources,omitempty"`
	SignatureScheme string   `json:"signatureScheme,omitempty"`
	Signature       string   `json:"signature"`
}

// ErrMalformed is wrapped by every error of Parse.
var ErrMalformed = errors.New("malformed sign-in-with-x proof")

var (
	chainPattern   = regexp.MustCompile(`^eip155:[1-9][0-9]{0,18}$`)
	addressPattern = regexp.MustCompile(`^0x[0-9a-fA-F]{40}$`)
	noncePattern   = regexp.MustCompile(`^[A-Za-z0-9]{8,128}$`)
)

// Parse decodes a SIGN-IN-WITH-X header and checks its shape: every
// required field, an eip155 chain, an eip191 signature of 65 bytes, a
// 0x address, an alphanumeric nonce, RFC 3339 times, and no line breaks
// or other control characters in any field (which could make one signed
// message read as another).
func Parse(header string) (*Payload, error) {
	if len(header) > MaxHeaderSize {
		return nil, fmt.Errorf("%w: larger than %d bytes", ErrMalformed, MaxHeaderSize)
	}
	var p Payload
	if err := x402.DecodeHeader(header, &p); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if err := p.check(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return &p, nil
}

func (p *Payload) check() error {
	fields := []struct{ name, value string }{
		{"domain", p.Domain}, {"address", p.Address}, {"uri", p.URI}, {"version", p.Version},
		{"chainId", p.ChainID}, {"type", p.Type}, {"nonce", p.Nonce}, {"issuedAt", p.IssuedAt}, {"signature", p.Signature},
	}
	for _, f := range fields {
		if f.value == "" {
			return fmt.Errorf("%s is missing", f.name)
		}
	}
	all := []string{p.Domain, p.Address, p.URI, p.Version, p.ChainID, p.Type, p.Nonce, p.IssuedAt, p.ExpirationTime, p.NotBefore, p.SignatureScheme, p.Signature}
	if p.Statement != nil {
		if *p.Statement == "" {
			return errors.New("statement is empty")
		}
		all = append(all, *p.Statement)
	}
	if p.RequestID != nil {
		all = append(all, *p.RequestID)
	}
	all = append(all, p.Resources...)
	for _, v := range all {
		if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return errors.New("a field holds a control character")
		}
	}
	switch {
	case p.Type != "eip191":
		return fmt.Errorf("type %q: only eip191 (an EVM account's signature) is accepted", p.Type)
	case p.SignatureScheme != "" && p.SignatureScheme != "eip191":
		return fmt.Errorf("signatureScheme %q: only eip191 is accepted", p.SignatureScheme)
	case !chainPattern.MatchString(p.ChainID):
		return fmt.Errorf("chainId %q: want eip155:<number>", p.ChainID)
	case !addressPattern.MatchString(p.Address):
		return errors.New("address: want 0x and 40 hex digits")
	case !noncePattern.MatchString(p.Nonce):
		return errors.New("nonce: want 8 to 128 letters or digits")
	case p.Version != "1":
		return fmt.Errorf("version %q: want 1", p.Version)
	}
	if _, err := p.signature(); err != nil {
		return err
	}
	for _, t := range []struct{ name, value string }{{"issuedAt", p.IssuedAt}, {"expirationTime", p.ExpirationTime}, {"notBefore", p.NotBefore}} {
		if t.value == "" {
			continue
		}
		if _, err := time.Parse(time.RFC3339Nano, t.value); err != nil {
			return fmt.Errorf("%s: want an RFC 3339 time", t.name)
		}
	}
	return nil
}

// Times returns the proof's issuedAt, and its expirationTime and notBefore
// (zero when absent), from a Payload that Parse returned.
func (p *Payload) Times() (issued, expires, notBefore time.Time) {
	issued, _ = time.Parse(time.RFC3339Nano, p.IssuedAt)
	if p.ExpirationTime != "" {
		expires, _ = time.Parse(time.RFC3339Nano, p.ExpirationTime)
	}
	if p.NotBefore != "" {
		notBefore, _ = time.Parse(time.RFC3339Nano, p.NotBefore)
	}
	return issued, expires, notBefore
}

// signature is the 65-byte r||s||v signature, v 0 or 1.
func (p *Payload) signature() ([65]byte, error) {
	var sig [65]byte
	s := strings.TrimPrefix(p.Signature, "0x")
	if len(s) != 130 {
		return sig, errors.New("signature: want 65 bytes of hex (an EOA's eip191 signature)")
	}
	if _, err := hex.Decode(sig[:], []byte(s)); err != nil {
		return sig, errors.New("signature: not hex")
	}
	switch sig[64] {
	case 27, 28:
		sig[64] -= 27
	case 0, 1:
	default:
		return sig, errors.New("signature: v must be 27 or 28")
	}
	return sig, nil
}

// Message is the EIP-4361 message the proof signs, as the siwe library
// (4.x) that @x402/extensions uses writes it: the address in its EIP-55
// form, the statement (when there is one) between blank lines, then URI,
// Version, Chain ID, Nonce, Issued At and the optional fields.
func (p *Payload) Message() string {
	var b strings.Builder
	b.WriteString(p.Domain + " wants you to sign in with your Ethereum account:\n" + Checksum(p.Address) + "\n\n")
	if p.Statement != nil {
		b.WriteString(*p.Statement + "\n")
	}
	chain, _ := strconv.ParseUint(strings.TrimPrefix(p.ChainID, "eip155:"), 10, 64)
	fmt.Fprintf(&b, "\nURI: %s\nVersion: %s\nChain ID: %d\nNonce: %s\nIssued At: %s", p.URI, p.Version, chain, p.Nonce, p.IssuedAt)
	if p.ExpirationTime != "" {
		b.WriteString("\nExpiration Time: " + p.ExpirationTime)
	}
	if p.NotBefore != "" {
		b.WriteString("\nNot Before: " + p.NotBefore)
	}
	if p.RequestID != nil {
		b.WriteString("\nRequest ID: " + *p.RequestID)
	}
	if p.Resources != nil {
		b.WriteString("\nResources:")
		for _, r := range p.Resources {
			b.WriteString("\n- " + r)
		}
	}
	return b.String()
}

// Recover returns the address of the key that made sig (r||s||v, v 0 or
// 1) over hash. go-ethereum's crypto.SigToPub and crypto.PubkeyToAddress
// make one.
type Recover func(hash [32]byte, sig [65]byte) ([20]byte, error)

// ErrSignature is returned by Verify for a signature that is not the
// address's.
var ErrSignature = errors.New("the sign-in-with-x signature is not the address's")

// Verify checks that the proof's signature is its address's EIP-191
// (personal_sign) signature of its Message, and returns the address as
// lowercase hex.
func (p *Payload) Verify(recover Recover) (string, error) {
	sig, err := p.signature()
	if err != nil {
		return "", err
	}
	got, err := recover(TextHash([]byte(p.Message())), sig)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrSignature, err)
	}
	addr := "0x" + hex.EncodeToString(got[:])
	if !strings.EqualFold(addr, p.Address) {
		return "", ErrSignature
	}
	return addr, nil
}

// TextHash is EIP-191's hash of a personal message: keccak256 of
// "\x19Ethereum Signed Message:\n", its length in decimal, and it.
func TextHash(msg []byte) [32]byte {
	h := sha3.NewLegacyKeccak256()
	fmt.Fprintf(h, "\x19Ethereum Signed Message:\n%d", len(msg))
	h.Write(msg)
	var out [32]byte
	h.Sum(out[:0])
	return out
}

// Checksum is the EIP-55 form of a 0x address of 40 hex digits; anything
// else is returned as it is.
func Checksum(addr string) string {
	if !addressPattern.MatchString(addr) {
		return addr
	}
	lower := strings.ToLower(addr[2:])
	h := sha3.NewLegacyKeccak256()
	h.Write([]byte(lower))
	sum := h.Sum(nil)
	out := []byte(lower)
	for i, c := range out {
		if c >= 'a' && (sum[i/2]>>(4*(1-uint(i%2))))&0xf >= 8 {
			out[i] = c - 32
		}
	}
	return "0x" + string(out)
}
