// Package channelstest signs batch-settlement payments for tests, as
// upstream's client does: deposits through EIP-3009, vouchers and refunds
// of one channel.
package channelstest

import (
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/batchsettle"
	"github.com/caddy-x402/caddy-x402/x402"
)

// Payer signs the payments of one channel of an offer.
type Payer struct {
	// Key is the payer's key, which is also its payer authorizer.
	Key *ecdsa.PrivateKey
	// Config is the channel; a test may change it before signing (a
	// swapped receiver, say).
	Config batchsettle.ChannelConfig
	// Offer is the offer paid, and Domain the settlement contract's.
	Offer  x402.PaymentRequirements
	Domain batchsettle.Domain
	// Collector is the ERC-3009 deposit collector, and Token the EIP-712
	// domain of the offer's asset, for deposits.
	Collector common.Address
	Token     contracts.TokenDomain
}

// New is the payer with key of a channel of offer, in the settlement
// contract's domain dom; deposits go to collector in token's domain.
func New(key *ecdsa.PrivateKey, offer x402.PaymentRequirements, dom batchsettle.Domain, collector common.Address, token contracts.TokenDomain) *Payer {
	addr := crypto.PubkeyToAddress(key.PublicKey)
	return &Payer{Key: key, Offer: offer, Domain: dom, Collector: collector, Token: token, Config: batchsettle.ChannelConfig{
		Payer: addr, PayerAuthorizer: addr, Receiver: common.HexToAddress(offer.PayTo),
		ReceiverAuthorizer: common.HexToAddress(offer.Extra.ReceiverAuthorizer),
		Token:              common.HexToAddress(offer.Asset), WithdrawDelay: big.NewInt(int64(offer.Extra.WithdrawDelay)),
	}}
}

// ID is the channel's id.
func (p *Payer) ID() common.Hash { return p.Domain.ChannelID(p.Config) }

func (p *Payer) sign(digest common.Hash) (string, error) {
	sig, err := batchsettle.Sign(digest, p.Key)
	return hexutil.Encode(sig), err
}

// Header is a PAYMENT-SIGNATURE of typ ("deposit", "voucher" or "refund")
// whose voucher's ceiling is max; a deposit also moves deposit into the
// channel, and a refund asks for refund back (0: everything).
func (p *Payer) Header(typ string, max, deposit, refund int64) (string, error) {
	cfg := p.Config
	vsig, err := p.sign(p.Domain.VoucherDigest(p.ID(), big.NewInt(max)))
	if err != nil {
		return "", err
	}
	pl := map[string]any{
		"type": typ,
		"channelConfig": map[string]any{
			"payer": cfg.Payer.Hex(), "payerAuthorizer": cfg.PayerAuthorizer.Hex(), "receiver": cfg.Receiver.Hex(),
			"receiverAuthorizer": cfg.ReceiverAuthorizer.Hex(), "token": cfg.Token.Hex(), "withdrawDelay": cfg.WithdrawDelay.Int64(),
			"salt": hexutil.Encode(cfg.Salt[:]),
		},
		"voucher": map[string]any{"channelId": p.ID().Hex(), "maxClaimableAmount": fmt.Sprint(max), "signature": vsig},
	}
	if refund > 0 {
		pl["amount"] = fmt.Sprint(refund)
	}
	if typ == "deposit" {
		salt := big.NewInt(time.Now().UnixNano())
		auth := batchsettle.ReceiveAuthorization{
			From: cfg.Payer, To: p.Collector, Value: big.NewInt(deposit),
			ValidAfter: new(big.Int), ValidBefore: big.NewInt(time.Now().Add(time.Hour).Unix()), Nonce: batchsettle.DepositNonce(p.ID(), salt),
		}
		digest, err := auth.Digest(p.Token)
		if err != nil {
			return "", err
		}
		dsig, err := p.sign(digest)
		if err != nil {
			return "", err
		}
		pl["deposit"] = map[string]any{"amount": fmt.Sprint(deposit), "authorization": map[string]any{"erc3009Authorization": map[string]any{
			"validAfter": "0", "validBefore": auth.ValidBefore.String(), "salt": salt.String(), "signature": dsig,
		}}}
	}
	raw, err := json.Marshal(pl)
	if err != nil {
		return "", err
	}
	return x402.EncodeHeader(x402.PaymentPayload{X402Version: x402.Version, Accepted: p.Offer, Payload: raw})
}
