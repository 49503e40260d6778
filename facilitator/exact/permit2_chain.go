package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
	"github.com/caddy-x402/caddy-x402/x402"
)

// What a Permit2 payment reads of the chain: the checks before its
// settlement (one batch at the latest block, with a simulation of the very
// settlement call) and the search for a transaction that settled it.

// usedBy lists the transactions that settled this very payment since
// block from. Permit2 logs no event of a signature transfer's nonce, and
// the proxy's Settled names no payment, so they are found in three steps,
// all bounded by one head block: Permit2's nonce bitmap at the head says
// whether the nonce is used at all (if not, nothing up to the head used
// it); the token's Transfer logs from the payer to the witness's recipient
// name the candidates; and a candidate counts only if it is a call to the
// payment's proxy whose arguments are this payment's signed permit (see
// carriedBy). The reorganisations in between are the caller's to mind: a
// candidate's receipt is read again, and a settlement's finality is
// watched by the facilitator. A proxy called from inside another contract is
// not found: only a transaction's own calldata is read.
func (p *Permit2Payment) usedBy(ctx context.Context, chain scheme.Chain, _ *scheme.Payment, from uint64) ([]common.Hash, error) {
	rd, ok := chain.(permit2Chain)
	if !ok {
		return nil, fmt.Errorf("the chain access (%T) cannot read contract state and transactions", chain)
	}
	head, err := chain.BlockNumber(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the head: %w", err)
	}
	if from > head {
		return nil, nil
	}
	at := new(big.Int).SetUint64(head)
	bits, err := rd.CallContract(ctx, ethereum.CallMsg{To: &Permit2, Data: permit2ABI.PackNonceBitmap(p.From, new(big.Int).Rsh(p.Nonce, 8))}, at)
	if err != nil {
		return nil, fmt.Errorf("reading Permit2's nonce bitmap: %w", err)
	}
	if len(bits) != 32 {
		return nil, errors.New("reading Permit2's nonce bitmap: Permit2 answered less than a word")
	}
	if !p.nonceUsed(bits) {
		return nil, nil
	}
	logs, err := chain.FilterLogs(ctx, ethereum.FilterQuery{
		FromBlock: new(big.Int).SetUint64(from), ToBlock: at, Addresses: []common.Address{p.Token},
		Topics: [][]common.Hash{{transferTopic}, {common.BytesToHash(p.From[:])}, {common.BytesToHash(p.To[:])}},
	})
	if err != nil {
		return nil, err
	}
	var txs []common.Hash
	seen := make(map[common.Hash]bool, len(logs))
	for i := len(logs) - 1; i >= 0; i-- { // the newest first
		l := logs[i]
		if l.Removed || seen[l.TxHash] {
			continue
		}
		seen[l.TxHash] = true
		tx, pending, err := rd.TransactionByHash(ctx, l.TxHash)
		switch {
		case errors.Is(err, ethereum.NotFound):
			continue // reorganised out since the logs were read
		case err != nil:
			return nil, fmt.Errorf("reading transaction %s: %w", l.TxHash, err)
		case pending || tx.To() == nil || *tx.To() != p.target():
			continue
		}
		if p.carriedBy(tx.Data()) {
			txs = append(txs, l.TxHash)
		}
	}
	return txs, nil
}

// nonceUsed reports whether bitmap, the word of Permit2's nonceBitmap
// that holds the payment's nonce, marks it used.
func (p *Permit2Payment) nonceUsed(bitmap []byte) bool {
	bit := new(big.Int).And(p.Nonce, big.NewInt(0xff)).Int64()
	return new(big.Int).SetBytes(bitmap).Bit(int(bit)) == 1
}

// permit2Chain is the chain access usedBy needs beyond scheme.Chain;
// *ethclient.Client has it.
type permit2Chain interface {
	CallContract(ctx context.Context, msg ethereum.CallMsg, block *big.Int) ([]byte, error)
	TransactionByHash(ctx context.Context, hash common.Hash) (tx *types.Transaction, pending bool, err error)
}

// The proxies' ABIs, to read a settlement call's arguments.
var (
	exactProxyABI = contracts.NewX402ExactPermit2Proxy().GetABI()
	uptoProxyABI  = contracts.NewX402UptoPermit2Proxy().GetABI()
)

// carriedBy reports whether data, the calldata of a transaction to the
// payment's proxy, settles this payment: it is the proxy's settle or
// settleWithPermit, and its owner, permit (token, amount, nonce,
// deadline) and witness (recipient, validAfter and, for upto, the
// facilitator) are the payment's. Those and the spender (the proxy the
// transaction called) are everything the payer's Permit2 signature covers,
// and Permit2 checked that signature on chain for them: a transaction
// with the same owner and nonce but any other term is another payment (a
// neighbour with the same amounts differs at least in its nonce), while
// this payment's signature in another encoding (Permit2 also takes a
// 64-byte compact one) is still this payment. The amount an upto call
// settled is the record's to judge (Outcome).
func (p *Permit2Payment) carriedBy(data []byte) bool {
	if len(data) < 4 {
		return false
	}
	a := exactProxyABI
	if p.Upto {
		a = uptoProxyABI
	}
	m, err := a.MethodById(data[:4])
	if err != nil || (m.Name != "settle" && m.Name != "settleWithPermit") {
		return false
	}
	args := map[string]any{}
	if err := m.Inputs.UnpackIntoMap(args, data[4:]); err != nil {
		return false
	}
	owner, ok := args["owner"].(common.Address)
	if !ok || owner != p.From {
		return false
	}
	permit, ok := abi.ConvertType(args["permit"], new(contracts.Permit2PermitTransferFrom)).(*contracts.Permit2PermitTransferFrom)
	if !ok || permit.Permitted.Token != p.Token || !equal(permit.Permitted.Amount, p.Amount) ||
		!equal(permit.Nonce, p.Nonce) || !equal(permit.Deadline, p.Deadline) {
		return false
	}
	if p.Upto {
		w, ok := abi.ConvertType(args["witness"], new(contracts.X402UptoPermit2ProxyWitness)).(*contracts.X402UptoPermit2ProxyWitness)
		return ok && w.To == p.To && w.Facilitator == p.Facilitator && equal(w.ValidAfter, p.ValidAfter)
	}
	w, ok := abi.ConvertType(args["witness"], new(contracts.X402ExactPermit2ProxyWitness)).(*contracts.X402ExactPermit2ProxyWitness)
	return ok && w.To == p.To && equal(w.ValidAfter, p.ValidAfter)
}

// equal reports whether a and b are both set and equal.
func equal(a, b *big.Int) bool { return a != nil && b != nil && a.Cmp(b) == 0 }

var (
	permit2ABI   = contracts.NewPermit2()
	selAllowance = crypto.Keccak256([]byte("allowance(address,address)"))[:4]
)

// permit2State is what checkPermit2Chain read of the payer: whether code
// checks its signatures, and the most its settlements in flight may take
// (Funds).
type permit2State struct {
	hasCode bool
	funds   *big.Int
}

// checkPermit2Chain reads, in one batch at the latest block, the block's
// time, the payer's balance, its allowance of Permit2 and the word of
// Permit2's nonce bitmap, and simulates the settlement call.
func (s *Scheme) checkPermit2Chain(ctx context.Context, asset common.Address, p *Permit2Payment, now time.Time) (st permit2State, err error) {
	inFlight := new(big.Int)
	if c := s.cfg.Committed; c != nil {
		inFlight = c(p.From, asset)
	}
	var (
		head                                struct{ Time hexutil.Uint64 }
		balance, allowance, bits, sim, code hexutil.Bytes
		proxy                               = p.target()
		permit2                             = Permit2
		amount                              = p.moves()
	)
	allowanceCall := append(append([]byte{}, selAllowance...), append(common.LeftPadBytes(p.From[:], 32), common.LeftPadBytes(Permit2[:], 32)...)...)
	batch := []rpc.BatchElem{
		{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head},
		{Method: "eth_call", Args: []any{callArgs{To: &asset, Data: s.token.PackBalanceOf(p.From)}, "latest"}, Result: &balance},
		{Method: "eth_call", Args: []any{callArgs{To: &asset, Data: allowanceCall}, "latest"}, Result: &allowance},
		{Method: "eth_call", Args: []any{callArgs{To: &permit2, Data: permit2ABI.PackNonceBitmap(p.From, new(big.Int).Rsh(p.Nonce, 8))}, "latest"}, Result: &bits},
		{Method: "eth_call", Args: []any{simArgs{From: s.cfg.Settler, To: proxy, Data: p.calldata(s)}, "latest"}, Result: &sim},
		{Method: "eth_getCode", Args: []any{p.From, "latest"}, Result: &code},
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return st, fmt.Errorf("reading chain state: %w", err)
	}
	for _, b := range append(batch[:4:4], batch[5]) {
		if b.Error != nil {
			return st, fmt.Errorf("reading chain state (%s): %w", b.Method, b.Error)
		}
	}
	st.hasCode = len(code) > 0
	if len(balance) != 32 || len(allowance) != 32 || len(bits) != 32 {
		return st, errors.New("reading chain state: the token or Permit2 answered less than a word")
	}
	chainNow := max(now.Unix(), int64(min(uint64(head.Time), math.MaxInt64)))
	if need := chainNow + int64(s.cfg.MinValidity/time.Second); p.Deadline.IsInt64() && p.Deadline.Int64() < need {
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "permit expires too soon for the chain's clock: deadline %s, latest block at %d", p.Deadline, head.Time)
	}
	if p.nonceUsed(bits) {
		return st, x402.Invalid(x402.ReasonReplay, "Permit2 nonce %s of %s is already used or invalidated", p.Nonce, p.From)
	}
	bal := new(big.Int).SetBytes(balance)
	// What a fleet's funded claim checks this payment and the payer's
	// other settlements in flight against: the balance, and without a
	// permit in the payment the allowance Permit2 has too (a permit sets
	// the allowance to this payment's amount, and is refused above while
	// other settlements are in flight).
	st.funds = new(big.Int).Set(bal)
	if need := new(big.Int).Add(amount, inFlight); bal.Cmp(need) < 0 {
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "insufficient balance: %s holds %s; the payment needs %s and its settlements in flight %s", p.From, bal, amount, inFlight)
	}
	allowed := new(big.Int).SetBytes(allowance)
	if p.Permit == nil && allowed.Cmp(st.funds) < 0 {
		st.funds.Set(allowed)
	}
	if p.Permit == nil {
		if need := new(big.Int).Add(amount, inFlight); allowed.Cmp(need) < 0 {
			return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "permit2_allowance_required: %s allows Permit2 %s of the token; the payment needs %s and its settlements in flight %s (approve Permit2, or send an eip2612GasSponsoring permit)", p.From, allowed, amount, inFlight)
		}
	} else if inFlight.Sign() > 0 && allowed.Cmp(new(big.Int).Add(amount, inFlight)) < 0 {
		// The permit sets the allowance to this payment's amount: it
		// would take the allowance the settlements in flight count on.
		return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "a settlement of %s is in flight and this payment's EIP-2612 permit would replace its allowance; retry once it is mined", p.From)
	}
	if err := batch[4].Error; err != nil {
		var de rpc.DataError
		if errors.As(err, &de) || strings.Contains(err.Error(), "revert") {
			return st, x402.Invalid(x402.ReasonInvalidInnerPayload, "the settlement's simulation reverted: %v", err)
		}
		return st, fmt.Errorf("simulating the settlement: %w", err)
	}
	return st, nil
}

// simArgs are the arguments of the settlement's simulation: from the
// settler, which the upto proxy requires to be the witness's facilitator.
type simArgs struct {
	From common.Address `json:"from"`
	To   common.Address `json:"to"`
	Data hexutil.Bytes  `json:"data"`
}
