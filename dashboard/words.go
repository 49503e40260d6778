package dashboard

import "strings"

// networkNames are the names of well-known chains, by CAIP-2 id.
var networkNames = map[string]string{
	"eip155:1":        "Ethereum",
	"eip155:11155111": "Sepolia",
	"eip155:8453":     "Base",
	"eip155:84532":    "Base Sepolia",
	"eip155:10":       "OP Mainnet",
	"eip155:42161":    "Arbitrum One",
	"eip155:137":      "Polygon",
	"eip155:43114":    "Avalanche C-Chain",
	"eip155:1689":     "NERO Chain",
	"eip155:689":      "NERO Testnet",
}

// NetworkName is a network's name for people, such as "Base Sepolia",
// or its CAIP-2 id for a chain it does not know. The caller names a
// devnet itself (its chain id may stand in for a real chain's).
func NetworkName(caip2 string) string {
	if n, ok := networkNames[caip2]; ok {
		return n
	}
	return caip2
}

// reasonWords say what each refusal reason means to a merchant, and what
// the payer can do about it: the group of the Refused page.
var reasonWords = map[string]string{
	"malformed_request":     "The payment could not be read",
	"replay":                "The payment was already used",
	"invalid_inner_payload": "The payment does not work on chain (often: the payer's balance is too low, or the authorization has expired)",
	"scheme_mismatch":       "The payment uses another scheme than the offer",
	"network_mismatch":      "The payment is for another network than the offer",
	"asset_not_allowed":     "The payment is in a token the offer does not take",
	"amount_mismatch":       "The payment's amount is not the price",
	"signature_invalid":     "The payment's signature is wrong",
	ReasonServedUnpaid:      "Served on broadcast, then the settlement failed (the payer front-ran it)",
	"other":                 "Refused by the remote facilitator for a reason of its own",
	"unknown":               "Refused without a reason",
}

// ReasonWords is what a refusal reason code means, in a sentence; the
// code itself for one it does not know.
func ReasonWords(code string) string {
	if w, ok := reasonWords[code]; ok {
		return w
	}
	return strings.ReplaceAll(code, "_", " ")
}
