// Package bundler submits ERC-4337 UserOperations (EntryPoint v0.6 and v0.7)
// for the facilitator.
//
// [BuiltIn] is the facilitator's own bundler: it packs the operations that
// arrive within a short window into one EntryPoint.handleOps transaction,
// sent from the settler key through the nonce-ordered sender. [External]
// hands operations to an ERC-4337 bundler over ERC-7769 JSON-RPC
// (eth_sendUserOperation, eth_getUserOperationReceipt), and
// [SupportedEntryPoints] asks such a bundler which EntryPoints it serves.
//
// Each bundle the built-in bundler sends is an OpenTelemetry span,
// x402.bundle, made with the tracer provider of its operations' Submit
// contexts (never the global one). A bundle serves several requests, so
// its span is the child of its first traced operation's span and links
// the others'. It carries x402.bundle.operations, x402.bundle.dropped
// (operations the simulation refused, each also an "operation dropped"
// event), x402.bundle.gas_limit, x402.transaction and x402.result (sent,
// empty or failed); a failure's x402.reason and status are a fixed code
// (estimate_failed, sign_failed, record_failed, send_failed), not the
// node's text. A bundle of untraced operations records nothing.
package bundler

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"
	"go.opentelemetry.io/otel/trace"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/entrypoint"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
)

var (
	// ErrRejected wraps an operation the EntryPoint refuses (FailedOp in
	// the bundle's simulation); it was not submitted.
	ErrRejected = errors.New("user operation rejected")
	// ErrNotSent wraps failures before the bundle was broadcast (estimate,
	// signing, recording): nothing went out.
	ErrNotSent = errors.New("bundle not sent")
)

// Result is the outcome of one operation in a mined bundle.
type Result struct {
	TxHash        common.Hash
	Success       bool
	RevertReason  []byte
	ActualGasCost *big.Int
	ActualGasUsed *big.Int
}

// Estimator estimates a bundle's gas; *ethclient.Client has it.
type Estimator interface {
	EstimateGas(ctx context.Context, msg ethereum.CallMsg) (uint64, error)
}

// Caller makes raw JSON-RPC calls; *rpc.Client has it. The bundler uses it
// to simulate a bundle at the time it will be mined.
type Caller interface {
	CallContext(ctx context.Context, result any, method string, args ...any) error
}

// BuiltIn bundles operations into handleOps transactions. It is safe for
// concurrent use.
type BuiltIn struct {
	// EntryPoint is the EntryPoint bundled for, of any version: it packs
	// handleOps and decodes its FailedOp. One BuiltIn serves one
	// EntryPoint; the bundlers of several can share a Sender.
	EntryPoint entrypoint.EntryPoint
	// Sender signs and sends from the settler key.
	Sender *sender.Sender
	// Chain estimates gas.
	Chain Estimator
	// RPC simulates bundles as they will be mined (eth_call with a block
	// override of the time); nil skips that simulation.
	RPC Caller
	// InclusionMargin is how far past the next block's time a bundle is
	// simulated: an operation whose validity ends before the bundle can be
	// mined is dropped rather than revert the whole bundle. Default 12 s.
	InclusionMargin time.Duration
	// Now is the clock; default time.Now.
	Now func() time.Time
	// Logger receives diagnostics; nil logs nothing.
	Logger *zap.Logger
	// MaxBundle is the most operations per bundle; default 50.
	MaxBundle int
	// MaxWait is how long the first operation waits for company; default
	// 50 ms.
	MaxWait time.Duration
	// MaxBundleGas bounds a bundle's estimated gas; a larger bundle is split.
	// Default 12,000,000, which with headroom stays under the 2^24
	// per-transaction cap of EIP-7825 (Osaka).
	MaxBundleGas uint64

	noOverrides atomic.Bool
	once        sync.Once
	root        context.Context // cancelled by Close
	stop        context.CancelFunc
	wg          sync.WaitGroup // bundles being sent
	closed      bool           // guarded by mu
	mu          sync.Mutex
	queue       []*entry
	timer       *time.Timer
	flush       sync.Mutex
	// sent holds the sender and nonce of each operation in a bundle sent
	// and perhaps not mined yet, until when a later operation of the same
	// pair is refused (guarded by mu): a bundle is simulated on the latest
	// block, where the earlier bundle is not yet, so the later one would
	// pass and then revert the whole bundle when mined after it (AA25).
	sent map[sentOp]sentUntil
}

// sentUntil is which operation of a sender and nonce was sent (its
// fingerprint: the same operation sent again, as after a bundle the chain
// reverted for another's fault, is not refused), and until when.
type sentUntil struct {
	op    common.Hash
	until time.Time
}

// fingerprint tells one operation from another of the same sender and
// nonce.
func fingerprint(op *entrypoint.UserOperation) common.Hash {
	return crypto.Keccak256Hash(op.CallData, op.Signature, op.PaymasterData, op.InitCode())
}

// sentOp is an operation's sender and nonce.
type sentOp struct {
	sender common.Address
	nonce  string
}

func sentOpOf(op *entrypoint.UserOperation) sentOp {
	k := sentOp{sender: op.Sender}
	if op.Nonce != nil {
		k.nonce = op.Nonce.String()
	}
	return k
}

type entry struct {
	op      entrypoint.UserOperation
	persist func(*types.Transaction) error
	done    chan submitted
	span    trace.Span // the span of the Submit's context, for the bundle's
}

type submitted struct {
	tx  *types.Transaction
	err error
}

func (b *BuiltIn) init() {
	b.once.Do(func() {
		if b.MaxBundle <= 0 {
			b.MaxBundle = 50
		}
		if b.MaxWait <= 0 {
			b.MaxWait = 50 * time.Millisecond
		}
		if b.MaxBundleGas == 0 {
			b.MaxBundleGas = 12_000_000
		}
		if b.InclusionMargin <= 0 {
			b.InclusionMargin = 12 * time.Second
		}
		if b.Now == nil {
			b.Now = time.Now
		}
		if b.Logger == nil {
			b.Logger = zap.NewNop()
		}
		b.root, b.stop = context.WithCancel(context.Background())
	})
}

// Submit queues op for the next bundle and returns the bundle transaction
// once it is broadcast. persist is called with the signed transaction
// before it is broadcast, so the caller can record it durably; if persist
// fails, nothing is broadcast. A refused operation is ErrRejected with the
// EntryPoint's reason; sender errors (sender.ErrUnreachable, …) pass through.
func (b *BuiltIn) Submit(ctx context.Context, op entrypoint.UserOperation, persist func(*types.Transaction) error) (*types.Transaction, error) {
	return b.submit(ctx, &entry{op: op, persist: persist, done: make(chan submitted, 1), span: trace.SpanFromContext(ctx)})
}

func (b *BuiltIn) submit(ctx context.Context, e *entry) (*types.Transaction, error) {
	b.init()
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return nil, fmt.Errorf("%w: the bundler is closed", ErrNotSent)
	}
	b.queue = append(b.queue, e)
	switch {
	case len(b.queue) >= b.MaxBundle:
		if b.timer != nil {
			b.timer.Stop()
			b.timer = nil
		}
		b.spawnLocked()
	case len(b.queue) == 1:
		b.timer = time.AfterFunc(b.MaxWait, b.spawn)
	}
	b.mu.Unlock()
	select {
	case r := <-e.done:
		return r.tx, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// spawn sends a bundle in a goroutine that Close waits for.
func (b *BuiltIn) spawn() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.spawnLocked()
}

// spawnLocked is spawn with b.mu held.
func (b *BuiltIn) spawnLocked() {
	if b.closed {
		return
	}
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		b.send()
	}()
}

// Close stops the bundler: operations still queued fail with ErrNotSent
// (nothing of them went out), a bundle being sent is cancelled, and Close
// returns once no goroutine of the bundler runs.
func (b *BuiltIn) Close() {
	b.init()
	b.mu.Lock()
	b.closed = true
	if b.timer != nil {
		b.timer.Stop()
		b.timer = nil
	}
	queued := b.queue
	b.queue = nil
	b.mu.Unlock()
	for _, e := range queued {
		e.done <- submitted{err: fmt.Errorf("%w: the bundler is closed", ErrNotSent)}
	}
	b.stop()
	b.wg.Wait()
}

// send builds, persists and broadcasts one bundle of the queued operations.
func (b *BuiltIn) send() {
	b.flush.Lock()
	defer b.flush.Unlock()
	b.mu.Lock()
	batch := b.queue
	if len(batch) > b.MaxBundle {
		batch, b.queue = batch[:b.MaxBundle], batch[b.MaxBundle:]
		b.spawnLocked()
	} else {
		b.queue = nil
	}
	b.timer = nil
	b.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(b.root, time.Minute)
	defer cancel()
	ctx, span := startBundle(ctx, batch)
	defer span.End()
	dropped := 0
	drop := func(idx int, err error) {
		batch[idx].done <- submitted{err: err}
		batch = append(batch[:idx], batch[idx+1:]...)
		dropped++
		if span.IsRecording() {
			span.AddEvent("operation dropped", trace.WithAttributes(attrIndex.Int(idx)))
		}
	}
	beneficiary, entryPoint := b.Sender.Address(), b.EntryPoint.Address()
	for _, idx := range b.inSentBundle(batch) {
		op := &batch[idx].op
		drop(idx, fmt.Errorf("%w: AA25 invalid account nonce: an operation of %s with nonce %s is in a bundle sent and not mined yet", ErrRejected, op.Sender, op.Nonce))
	}
	for len(batch) > 0 {
		data, auths := b.handleOps(batch, beneficiary), authorizations(batch)
		// One operation must never revert the whole bundle: simulate it at
		// the time it will be mined and drop the operation that fails.
		if idx, reason, ok := b.simulate(ctx, beneficiary, data, auths); ok && idx >= 0 && idx < len(batch) {
			drop(idx, fmt.Errorf("%w: %s (at the time the bundle would be mined)", ErrRejected, reason))
			continue
		}
		gas, err := b.Chain.EstimateGas(ctx, ethereum.CallMsg{From: beneficiary, To: &entryPoint, Data: data, AuthorizationList: auths})
		if err != nil {
			// A FailedOp names the operation to drop; anything else fails
			// the bundle.
			if idx, reason, ok := b.failedOp(err); ok && idx >= 0 && idx < len(batch) {
				drop(idx, fmt.Errorf("%w: %s", ErrRejected, reason))
				continue
			}
			for _, e := range batch {
				e.done <- submitted{err: fmt.Errorf("%w: estimating the bundle: %w", ErrNotSent, err)}
			}
			fail(span, "estimate_failed")
			return
		}
		if gas > b.MaxBundleGas && len(batch) > 1 {
			// Too big for one transaction: send the first half now and put
			// the rest back at the front of the queue.
			half := len(batch) / 2
			b.mu.Lock()
			if b.closed {
				for _, e := range batch[half:] {
					e.done <- submitted{err: fmt.Errorf("%w: the bundler is closed", ErrNotSent)}
				}
			} else {
				b.queue = append(append([]*entry(nil), batch[half:]...), b.queue...)
				b.spawnLocked()
			}
			b.mu.Unlock()
			batch = batch[:half]
			continue
		}
		limit := min(gas+gas/5+uint64(len(batch))*10_000, txGasCap)
		tx, err := b.Sender.SignCall(ctx, sender.Call{To: entryPoint, Data: data, Gas: limit, AuthList: auths})
		if err != nil {
			for _, e := range batch {
				e.done <- submitted{err: fmt.Errorf("%w: %w", ErrNotSent, err)}
			}
			fail(span, "sign_failed")
			return
		}
		if span.IsRecording() {
			span.SetAttributes(attrOperations.Int(len(batch)), attrDropped.Int(dropped), attrGasLimit.Int64(int64(limit)))
		}
		for _, e := range batch {
			if err := e.persist(tx); err != nil {
				b.Sender.Release(tx.Nonce())
				for _, f := range batch {
					f.done <- submitted{err: fmt.Errorf("%w: recording the bundle: %w", ErrNotSent, err)}
				}
				fail(span, "record_failed")
				return
			}
		}
		if span.IsRecording() {
			span.SetAttributes(attrTx.String(tx.Hash().Hex()))
		}
		err = b.Sender.Send(ctx, tx)
		if err == nil {
			b.remember(batch)
		}
		for _, e := range batch {
			e.done <- submitted{tx: tx, err: err}
		}
		if err != nil {
			fail(span, "send_failed")
		} else if span.IsRecording() {
			span.SetAttributes(attrResult.String("sent"))
		}
		return
	}
	// Every operation was dropped: nothing to send.
	if span.IsRecording() {
		span.SetAttributes(attrResult.String("empty"), attrDropped.Int(dropped))
	}
}

// inSentBundle returns the indexes, highest first, of batch's operations
// whose sender and nonce another operation has in a bundle sent and
// perhaps not mined yet (see sent), and forgets the pairs whose time is
// up.
func (b *BuiltIn) inSentBundle(batch []*entry) []int {
	now := b.Now()
	b.mu.Lock()
	defer b.mu.Unlock()
	for k, v := range b.sent {
		if !now.Before(v.until) {
			delete(b.sent, k)
		}
	}
	var out []int
	for i := len(batch) - 1; i >= 0; i-- {
		op := &batch[i].op
		if v, ok := b.sent[sentOpOf(op)]; ok && v.op != fingerprint(op) {
			out = append(out, i)
		}
	}
	return out
}

// remember records the operations of a bundle just sent (see sent), for
// twice the inclusion margin: by then the bundle is mined, and the latest
// block's simulation refuses a spent nonce itself, or it was not, and the
// operation may be tried again.
func (b *BuiltIn) remember(batch []*entry) {
	until := b.Now().Add(2 * b.InclusionMargin)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.sent == nil {
		b.sent = make(map[sentOp]sentUntil)
	}
	for _, e := range batch {
		b.sent[sentOpOf(&e.op)] = sentUntil{op: fingerprint(&e.op), until: until}
	}
}

// txGasCap is EIP-7825's per-transaction gas cap (Osaka).
const txGasCap = 1 << 24

// simulate runs handleOps in an eth_call whose block is the next one, at
// the time the bundle can be mined at the latest (InclusionMargin past the
// next block's time), and returns the operation it fails on, if any. A node
// that does not take block overrides is not asked again.
func (b *BuiltIn) simulate(ctx context.Context, from common.Address, data []byte, auths []types.SetCodeAuthorization) (int, string, bool) {
	if b.RPC == nil || b.noOverrides.Load() {
		return 0, "", false
	}
	var head struct {
		Number hexutil.Uint64 `json:"number"`
		Time   hexutil.Uint64 `json:"timestamp"`
	}
	if err := b.RPC.CallContext(ctx, &head, "eth_getBlockByNumber", "latest", false); err != nil {
		return 0, "", false // the estimate that follows reports the chain
	}
	at := max(b.Now().Unix(), int64(head.Time)+1) + int64(b.InclusionMargin/time.Second)
	var out hexutil.Bytes
	call := map[string]any{"from": from, "to": b.EntryPoint.Address(), "data": hexutil.Bytes(data)}
	if len(auths) > 0 {
		call["authorizationList"] = auths
	}
	err := b.RPC.CallContext(ctx, &out, "eth_call", call, "latest", nil,
		map[string]any{"time": hexutil.Uint64(at), "number": head.Number + 1})
	if err == nil {
		return 0, "", false
	}
	if idx, reason, ok := b.failedOp(err); ok {
		return idx, reason, true
	}
	var rerr rpc.Error
	if errors.As(err, &rerr) && rerr.ErrorCode() == -32602 {
		b.noOverrides.Store(true)
		b.Logger.Warn("the node does not take eth_call block overrides; bundles are simulated at the latest block only", zap.Error(err))
	}
	return 0, "", false
}

// failedOp decodes a FailedOp(opIndex, reason) revert.
func (b *BuiltIn) failedOp(err error) (int, string, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return 0, "", false
	}
	s, _ := de.ErrorData().(string)
	return decodeFailedOp(b.EntryPoint, common.FromHex(s))
}

// authorizations are the EIP-7702 authorizations the batch's operations
// carry, one per account (an account's second operation in a bundle rides
// on its first's delegation; a second authorization at the same nonce
// would be void anyway): the bundle goes out as a set-code transaction
// that carries them, and is simulated and estimated with them applied.
func authorizations(batch []*entry) []types.SetCodeAuthorization {
	var out []types.SetCodeAuthorization
	seen := map[common.Address]bool{}
	for _, e := range batch {
		if a := e.op.EIP7702Auth; a != nil && !seen[e.op.Sender] {
			seen[e.op.Sender] = true
			out = append(out, *a)
		}
	}
	return out
}

// handleOps is the bundle's calldata.
func (b *BuiltIn) handleOps(batch []*entry, beneficiary common.Address) []byte {
	ops := make([]entrypoint.UserOperation, len(batch))
	for i, e := range batch {
		ops[i] = e.op
	}
	return b.EntryPoint.PackHandleOps(ops, beneficiary)
}

// Outcome finds an operation's result in its bundle's receipt.
func Outcome(receipt *types.Receipt, userOpHash common.Hash) (*Result, bool) {
	ep := contracts.NewEntryPoint()
	res := &Result{TxHash: receipt.TxHash}
	found := false
	for _, l := range receipt.Logs {
		if ev, err := ep.UnpackUserOperationEventEvent(l); err == nil && ev.UserOpHash == userOpHash {
			res.Success, res.ActualGasCost, res.ActualGasUsed, found = ev.Success, ev.ActualGasCost, ev.ActualGasUsed, true
		}
		if ev, err := ep.UnpackUserOperationRevertReasonEvent(l); err == nil && ev.UserOpHash == userOpHash {
			res.RevertReason = ev.RevertReason
		}
	}
	return res, found
}

// DecodeRevert turns a revert reason of the settlement path into text: the
// settlement contract's and the token's custom errors, or Error(string).
func DecodeRevert(reason []byte) string {
	if len(reason) < 4 {
		return "reverted without a reason"
	}
	if e, err := contracts.NewX402Settlement().UnpackError(reason); err == nil {
		return fmt.Sprintf("%T%+v", e, e)[len("*contracts.X402Settlement"):]
	}
	if e, err := contracts.NewDevUSD().UnpackError(reason); err == nil {
		return fmt.Sprintf("%T%+v", e, e)[len("*contracts.DevUSD"):]
	}
	if len(reason) >= 68 && common.Bytes2Hex(reason[:4]) == "08c379a0" {
		n := new(big.Int).SetBytes(reason[36:68]).Int64()
		if 68+n <= int64(len(reason)) {
			return string(reason[68 : 68+n])
		}
	}
	return fmt.Sprintf("reverted with 0x%x", reason)
}
