package exact

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/facilitator/scheme"
)

// Check 5 reads, for each payment, the latest block's time, the payer's
// balance and the authorization's state (and whether the payer has code,
// which a contract wallet's verification needs). As three JSON-RPC calls (the block
// and two eth_calls) they cost more than the rest of a verification: the
// node sets up an EVM for each eth_call, and encodes the whole block, with
// its transactions' hashes, to tell its time. Instead one eth_call without
// a recipient runs init code (stateCode) that makes both reads of each
// payment with STATICCALL and returns them with the block's TIMESTAMP: the
// node runs it as the simulation of a contract creation and answers with
// what the code returns, every read at one block. Nothing is deployed.
// Concurrent verifications share such a call (reader), up to GroupSize
// payments each. A node that refuses it is read the plain way (readEach).

// maxGroupSize bounds the payments of one state call: its init code, 72
// bytes a payment and about 140 more, stays under EIP-3860's 49,152
// bytes.
const maxGroupSize = 256

// chainState is what check 5 reads of one payment, at one block.
type chainState struct {
	time    uint64   // the block's timestamp
	balance *big.Int // the payer's balance of the token
	used    bool     // authorizationState(from, nonce)
	// hasCode reports whether the payer has code: a contract wallet, or
	// an EIP-7702 account's delegation.
	hasCode bool
}

// stateQuery names one payment's chain reads.
type stateQuery struct {
	token, from common.Address
	nonce       [32]byte
}

// The EVM opcodes of the state code.
const (
	opADD            = 0x01
	opGT             = 0x11
	opEQ             = 0x14
	opISZERO         = 0x15
	opAND            = 0x16
	opSHL            = 0x1b
	opCODECOPY       = 0x39
	opTIMESTAMP      = 0x42
	opPOP            = 0x50
	opMLOAD          = 0x51
	opMSTORE         = 0x52
	opMSTORE8        = 0x53
	opJUMPI          = 0x57
	opGAS            = 0x5a
	opJUMPDEST       = 0x5b
	opPUSH1          = 0x60
	opDUP1           = 0x80
	opDUP2           = 0x81
	opDUP5           = 0x84
	opDUP6           = 0x85
	opSWAP1          = 0x90
	opRETURNDATASIZE = 0x3d
	opEXTCODESIZE    = 0x3b
	opSTATICCALL     = 0xfa
	opRETURN         = 0xf3
)

var (
	selBalanceOf          = crypto.Keccak256([]byte("balanceOf(address)"))[:4]
	selAuthorizationState = crypto.Keccak256([]byte("authorizationState(address,bytes32)"))[:4]
)

// Where the state code keeps things in memory: the calldata of balanceOf
// (36 bytes) and of authorizationState (68 bytes), the latter's answer,
// and the code's own answer: the block's time (a word), then for each
// payment its balance (a word) and five flag bytes (answerFlags). The
// answer is what the node encodes as hex and the facilitator decodes, so
// a payment's is kept to 37 bytes.
const (
	memBalanceOf  = 0x00
	memAuthState  = 0x40
	memState      = 0xc0
	memAnswer     = 0x100
	answerPerRead = 32 + answerFlags
)

// A payment's entry in the state code's table: the payer, the nonce and
// the token. It is copied to memEntry, which puts the payer and the nonce
// in authorizationState's calldata, and the token in the low 20 bytes of
// the word at memEntryToken (the rest of which is the nonce's end).
const (
	stateEntry    = 20 + 32 + 20
	memEntry      = memAuthState + 4 + 12
	memEntryToken = memEntry + stateEntry - 32
)

// The flag bytes after each payment's balance in the state code's answer,
// each 0 or 1.
const (
	flagBalance   = iota // balanceOf succeeded and answered a word at least
	flagAuthState        // so did authorizationState
	flagBoolean          // authorizationState's word is 0 or 1
	flagUsed             // authorizationState's word is 1
	flagCode             // the payer has code
	answerFlags
)

// evm is EVM code being written.
type evm []byte

func (c *evm) op(ops ...byte) { *c = append(*c, ops...) }

// push pushes v, 1 to 32 bytes, with PUSH1 to PUSH32.
func (c *evm) push(v []byte) {
	*c = append(*c, opPUSH1-1+byte(len(v)))
	*c = append(*c, v...)
}

// pushUint pushes v in as few bytes as it takes (one at least).
func (c *evm) pushUint(v uint64) {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	i := 0
	for i < 7 && b[i] == 0 {
		i++
	}
	c.push(b[i:])
}

// mstore writes the word on top of the stack at offset.
func (c *evm) mstore(offset uint64) {
	c.pushUint(offset)
	c.op(opMSTORE)
}

// staticcallTo calls the token, the sixth item of the stack once the
// call's arguments are pushed (the fourth before), with the calldata at
// in; the two items on top of the stack are where its answer goes and how
// much of it (the answer's size and offset, in the order the call takes
// them). It leaves 1 on the stack if the call succeeded and answered a
// word at least, 0 if not.
func (c *evm) staticcallTo(in, inSize uint64) {
	c.pushUint(inSize)
	c.pushUint(in)
	c.op(opDUP6, opGAS, opSTATICCALL)
	c.pushUint(31)
	c.op(opRETURNDATASIZE, opGT, opAND) // success && returndatasize > 31
}

// flag stores the byte on top of the stack as the payment's flag f: at
// out + 32 + f, out being the nth item of the stack.
func (c *evm) flag(n int, f uint64) {
	c.op(opDUP1 - 1 + byte(n))
	c.pushUint(32 + f)
	c.op(opADD, opMSTORE8)
}

// stateCode is the init code that reads qs and returns their answer
// (memAnswer's layout). It is a loop over a table of the payments, which
// follows it in the code (stateEntry bytes each, copied to memory with
// CODECOPY): the code the node decodes, and the facilitator encodes as
// hex, is about half of what a run of each payment's reads would be.
func stateCode(qs []stateQuery) []byte {
	c := make(evm, 0, 160+stateEntry*len(qs))
	c.push(selBalanceOf)
	c.pushUint(224)
	c.op(opSHL)
	c.mstore(memBalanceOf)
	c.push(selAuthorizationState)
	c.pushUint(224)
	c.op(opSHL)
	c.mstore(memAuthState)
	c.op(opTIMESTAMP)
	c.mstore(memAnswer)
	// The stack holds the answer's offset for the payment (out) and its
	// entry's offset in the code (at).
	c.pushUint(memAnswer + 32)
	c.push([]byte{0, 0}) // at: the table's offset, set below
	at := len(c) - 2
	loop := len(c)
	c.op(opJUMPDEST)
	// The entry lays the payer and the nonce where authorizationState's
	// calldata wants them, and the token after.
	c.pushUint(stateEntry)
	c.op(opDUP2)
	c.pushUint(memEntry)
	c.op(opCODECOPY)
	// The stack holds the token and the payer for the payment's reads (an
	// address's upper 96 bits are ignored, and under the payer's are
	// zeros, as memory starts).
	c.pushUint(memEntryToken)
	c.op(opMLOAD)
	c.pushUint(memAuthState + 4)
	c.op(opMLOAD, opDUP1)
	c.mstore(memBalanceOf + 4)
	// Stack: out, at, token, payer.
	c.pushUint(32)
	c.op(opDUP5) // out
	c.staticcallTo(memBalanceOf, 4+32)
	c.flag(5, flagBalance)
	c.pushUint(32)
	c.pushUint(memState)
	c.staticcallTo(memAuthState, 4+64)
	c.flag(5, flagAuthState)
	c.pushUint(memState)
	c.op(opMLOAD, opDUP1)
	c.pushUint(2)
	c.op(opGT) // 2 > state
	c.flag(6, flagBoolean)
	c.pushUint(1)
	c.op(opEQ)
	c.flag(5, flagUsed)
	c.op(opEXTCODESIZE, opISZERO, opISZERO)
	c.flag(4, flagCode)
	c.op(opPOP)
	// The next entry and answer, while entries are left.
	c.pushUint(stateEntry)
	c.op(opADD, opSWAP1)
	c.pushUint(answerPerRead)
	c.op(opADD, opSWAP1, opDUP1)
	c.push([]byte{0, 0}) // the table's end, set below
	end := len(c) - 2
	c.op(opGT) // end > at
	c.push([]byte{byte(loop >> 8), byte(loop)})
	c.op(opJUMPI)
	c.pushUint(uint64(32 + len(qs)*answerPerRead))
	c.pushUint(memAnswer)
	c.op(opRETURN)
	binary.BigEndian.PutUint16(c[at:], uint16(len(c)))
	binary.BigEndian.PutUint16(c[end:], uint16(len(c)+stateEntry*len(qs)))
	for _, q := range qs {
		c = append(c, q.from[:]...)
		c = append(c, q.nonce[:]...)
		c = append(c, q.token[:]...)
	}
	return c
}

// decodeStates reads the answer of stateCode(qs): the states, or for each
// query the reason its state is unknown.
func decodeStates(out []byte, qs []stateQuery) ([]chainState, []error, error) {
	if want := 32 + len(qs)*answerPerRead; len(out) != want {
		return nil, nil, fmt.Errorf("the state call answered %d bytes, want %d", len(out), want)
	}
	if !fitsUint64(out[:32]) {
		return nil, nil, errors.New("the state call answered a block time past 2^64")
	}
	time := binary.BigEndian.Uint64(out[24:32])
	states, errs := make([]chainState, len(qs)), make([]error, len(qs))
	for i, q := range qs {
		w := out[32+i*answerPerRead:]
		flags := w[32 : 32+answerFlags]
		switch {
		case flags[flagBalance] != 1:
			errs[i] = fmt.Errorf("balanceOf of %s reverted or answered less than a word", q.token)
		case flags[flagAuthState] != 1:
			errs[i] = fmt.Errorf("authorizationState of %s reverted or answered less than a word", q.token)
		case flags[flagBoolean] != 1:
			errs[i] = fmt.Errorf("authorizationState of %s answered a word that is not a boolean", q.token)
		default:
			states[i] = chainState{time: time, balance: new(big.Int).SetBytes(w[:32]), used: flags[flagUsed] == 1, hasCode: flags[flagCode] == 1}
		}
	}
	return states, errs, nil
}

// fitsUint64 reports whether a big-endian word holds a uint64.
func fitsUint64(word []byte) bool {
	for _, b := range word[:24] {
		if b != 0 {
			return false
		}
	}
	return true
}

// callArgs are the arguments of an eth_call.
type callArgs struct {
	To   *common.Address `json:"to,omitempty"`
	Data hexutil.Bytes   `json:"data"`
}

// readStates reads qs at the latest block: with one state call, or, if the
// node refuses it (a node that cannot run init code in eth_call), with the
// block and two eth_calls each. An error says nothing could be read;
// otherwise errs says which states are unknown.
func (s *Scheme) readStates(ctx context.Context, qs []stateQuery) ([]chainState, []error, error) {
	var out hexutil.Bytes
	batch := []rpc.BatchElem{{Method: "eth_call", Args: []any{callArgs{Data: stateCode(qs)}, "latest"}, Result: &out}}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return nil, nil, err
	}
	if batch[0].Error == nil {
		return decodeStates(out, qs)
	}
	states, errs, err := s.readEach(ctx, qs)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (and the state call failed: %v)", err, batch[0].Error)
	}
	return states, errs, nil
}

// readEach reads qs as the block and, for each query, two eth_calls, in one
// batch.
func (s *Scheme) readEach(ctx context.Context, qs []stateQuery) ([]chainState, []error, error) {
	var head struct {
		Time hexutil.Uint64 `json:"timestamp"`
	}
	answers := make([]hexutil.Bytes, 3*len(qs))
	batch := make([]rpc.BatchElem, 1, 1+len(answers))
	batch[0] = rpc.BatchElem{Method: "eth_getBlockByNumber", Args: []any{"latest", false}, Result: &head}
	for i, q := range qs {
		batch = append(batch,
			rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: &q.token, Data: s.token.PackBalanceOf(q.from)}, "latest"}, Result: &answers[3*i]},
			rpc.BatchElem{Method: "eth_call", Args: []any{callArgs{To: &q.token, Data: s.token.PackAuthorizationState(q.from, q.nonce)}, "latest"}, Result: &answers[3*i+1]},
			rpc.BatchElem{Method: "eth_getCode", Args: []any{q.from, "latest"}, Result: &answers[3*i+2]})
	}
	if err := s.cfg.Chain.BatchCallContext(ctx, batch); err != nil {
		return nil, nil, err
	}
	if err := batch[0].Error; err != nil {
		return nil, nil, fmt.Errorf("eth_getBlockByNumber: %w", err)
	}
	states, errs := make([]chainState, len(qs)), make([]error, len(qs))
	for i, q := range qs {
		bal, used, code := &batch[1+3*i], &batch[2+3*i], &batch[3+3*i]
		if errs[i] = errors.Join(bal.Error, used.Error, code.Error); errs[i] != nil {
			continue
		}
		balance, err := s.token.UnpackBalanceOf(answers[3*i])
		if err != nil {
			errs[i] = fmt.Errorf("decoding balanceOf of %s: %w", q.token, err)
			continue
		}
		isUsed, err := s.token.UnpackAuthorizationState(answers[3*i+1])
		if err != nil {
			errs[i] = fmt.Errorf("decoding authorizationState of %s: %w", q.token, err)
			continue
		}
		states[i] = chainState{time: uint64(head.Time), balance: balance, used: isUsed, hasCode: len(answers[3*i+2]) > 0}
	}
	return states, errs, nil
}

// defaultReadTimeout bounds a shared state call whose callers set no
// deadline.
const defaultReadTimeout = 10 * time.Second

// reader shares state calls between concurrent verifications. A read is
// sent at once while fewer than parallel calls are under way (one, for a
// near node: see limit); otherwise it waits for the next call, which
// takes every read that waited (up to size), and goes out as soon as a
// call returns or size reads wait. An idle facilitator's read is never
// delayed; a busy one's waits at most one call, and makes one call where
// it made one a read.
type reader struct {
	read     func(context.Context, []stateQuery) ([]chainState, []error, error)
	size     int
	parallel int
	// near is nearNode, or another time in tests.
	near time.Duration

	mu       sync.Mutex
	waiting  []*stateRead
	underway int
	// took is how long the calls take: a moving average (each call an
	// eighth of it), zero before the first call returns.
	took time.Duration
	// started is when the last call started.
	started time.Time
	// bounded are the reads whose deadline the reader enforces (their
	// verification's context is a *scheme.Bound, whose Done it does not
	// ask for), from when they come until they are answered; sweeper
	// answers those past their deadline, at sweepAt, the earliest.
	bounded map[*stateRead]struct{}
	sweeper *time.Timer
	sweepAt time.Time
}

// nearNode is the average time of a state call under which the node is
// near (the same machine or network): a busy facilitator's reads then
// share one call under way at a time, whatever parallel says, as long as
// that call is younger than nearNode. Waiting for it costs a read a few
// milliseconds at most, while each call it saves costs the facilitator
// and the node a round trip and an EVM (about 110 µs of the facilitator's
// CPU on a small machine, as much as two verifications' JSON and HTTP;
// docs/performance.md). A call that outlives nearNode no longer holds the
// reads back: they go out in a call of their own, up to parallel, as they
// would against a far node, whose round trip is what parallel calls save
// a read.
const nearNode = 5 * time.Millisecond

// nearTime is r.near, or nearNode if it is not set.
func (r *reader) nearTime() time.Duration {
	if r.near > 0 {
		return r.near
	}
	return nearNode
}

// limit is how many calls may be under way before a read waits, at now;
// r.mu is held.
func (r *reader) limit(now time.Time) int {
	if near := r.nearTime(); r.took > 0 && r.took < near && now.Sub(r.started) < near {
		return 1
	}
	return r.parallel
}

// timed adds a call's time to r.took; r.mu is held.
func (r *reader) timed(d time.Duration) {
	if r.took == 0 {
		r.took = d
		return
	}
	r.took += (d - r.took) / 8
}

// overdue sends the reads waiting for a near node's call in a call of
// their own, if that call is still under way once it is older than the
// node's calls should be (limit).
func (r *reader) overdue() {
	r.mu.Lock()
	var group []*stateRead
	if len(r.waiting) > 0 && r.underway < r.limit(time.Now()) {
		group = r.take()
	}
	r.mu.Unlock()
	if group != nil {
		go r.run(group)
	}
}

// stateRead is one verification's read, waiting for its answer.
type stateRead struct {
	ctx   context.Context
	query stateQuery
	// deadline is the one the reader enforces, if bounded.
	deadline time.Time
	bounded  bool
	state    chainState
	err      error
	// answered is set by the first answer: the call's, or the sweeper's
	// at the deadline.
	answered atomic.Bool
	done     chan struct{}
}

// answer gives rd its state or error, unless it was answered before.
func (rd *stateRead) answer(st chainState, err error) bool {
	if !rd.answered.CompareAndSwap(false, true) {
		return false
	}
	rd.state, rd.err = st, err
	close(rd.done)
	return true
}

// state reads one payment's chain state. A verification's context is
// usually a *scheme.Bound: the read then waits for its answer or for the
// request to be abandoned, and the reader answers it at its deadline
// (sweep), so that the verification makes no timer of its own.
func (r *reader) state(ctx context.Context, q stateQuery) (chainState, error) {
	rd := &stateRead{ctx: ctx, query: q, done: make(chan struct{})}
	var abandoned <-chan struct{}
	if b, ok := ctx.(*scheme.Bound); ok {
		abandoned = b.Abandoned()
		rd.deadline, rd.bounded = b.Deadline()
	} else {
		abandoned = ctx.Done()
	}
	r.mu.Lock()
	if rd.bounded {
		r.enforce(rd)
	}
	r.waiting = append(r.waiting, rd)
	var group []*stateRead
	now := time.Now()
	switch limit := r.limit(now); {
	case r.underway < limit || len(r.waiting) >= r.size:
		group = r.take()
	case limit < r.parallel && len(r.waiting) == 1:
		// The first read to wait for a near node's call: should that call
		// outlive a near node's, the reads waiting then go out without it.
		time.AfterFunc(r.started.Add(r.nearTime()).Sub(now), r.overdue)
	}
	r.mu.Unlock()
	if group != nil {
		// In a goroutine of its own, so that a verification that gives up
		// returns at once.
		go r.run(group)
	}
	select {
	case <-rd.done:
		return rd.state, rd.err
	case <-abandoned:
		err := ctx.Err()
		if err == nil {
			// The parent closes its channel before it cancels its
			// children, which a Bound's timed context is.
			err = context.Canceled
		}
		return chainState{}, err
	}
}

// enforce keeps rd among the reads whose deadline the reader enforces, and
// sets the sweeper for its deadline if that is the earliest; r.mu is held.
func (r *reader) enforce(rd *stateRead) {
	if r.bounded == nil {
		r.bounded = make(map[*stateRead]struct{})
	}
	r.bounded[rd] = struct{}{}
	switch {
	case r.sweeper == nil:
		r.sweepAt = rd.deadline
		r.sweeper = time.AfterFunc(time.Until(rd.deadline), r.sweep)
	case rd.deadline.Before(r.sweepAt):
		r.sweepAt = rd.deadline
		r.sweeper.Reset(time.Until(rd.deadline))
	}
}

// sweep answers the bounded reads past their deadline with
// context.DeadlineExceeded, as their context's Done would have, and sets
// itself for the earliest deadline left. Reads come, and most are
// answered, in about the order of their deadlines, so it runs about once
// a deadline's length (RPCTimeout) while reads come, not once a read.
func (r *reader) sweep() {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	var next time.Time
	for rd := range r.bounded {
		if !now.Before(rd.deadline) {
			rd.answer(chainState{}, context.DeadlineExceeded)
			delete(r.bounded, rd)
		} else if next.IsZero() || rd.deadline.Before(next) {
			next = rd.deadline
		}
	}
	if next.IsZero() {
		r.sweeper = nil
		return
	}
	r.sweepAt = next
	r.sweeper.Reset(time.Until(next))
}

// answered forgets group's bounded reads, which are answered.
func (r *reader) answered(group []*stateRead) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, rd := range group {
		if rd.bounded {
			delete(r.bounded, rd)
		}
	}
}

// take starts a call of every waiting read; r.mu is held. No more than
// size reads ever wait, as a read that makes size starts the call.
func (r *reader) take() []*stateRead {
	group := r.waiting
	r.waiting = make([]*stateRead, 0, cap(group))
	r.underway++
	r.started = time.Now()
	return group
}

// run answers group and then, while reads wait, the next groups. It lives
// as long as reads wait and each call lasts (within its deadline).
func (r *reader) run(group []*stateRead) {
	for group != nil {
		start := time.Now()
		called := r.call(group)
		took := time.Since(start)
		r.mu.Lock()
		if called {
			r.timed(took)
		}
		r.underway--
		group = nil
		if len(r.waiting) > 0 && r.underway < r.limit(time.Now()) {
			group = r.take()
		}
		r.mu.Unlock()
	}
}

// call makes one state call for the reads of group whose verifications
// still wait, within the latest of their deadlines, and reports whether
// it made one.
func (r *reader) call(group []*stateRead) bool {
	defer r.answered(group)
	live := group[:0:0]
	for _, rd := range group {
		if err := rd.ctx.Err(); err != nil {
			rd.answer(chainState{}, err)
			continue
		}
		if !rd.answered.Load() {
			live = append(live, rd)
		}
	}
	if len(live) == 0 {
		return false
	}
	var deadline time.Time
	for _, rd := range live {
		d, ok := rd.ctx.Deadline()
		if !ok {
			d = time.Now().Add(defaultReadTimeout)
		}
		if d.After(deadline) {
			deadline = d
		}
	}
	// One verification giving up must not fail the others' reads.
	ctx, cancel := context.WithDeadline(context.WithoutCancel(live[0].ctx), deadline)
	defer cancel()
	qs := make([]stateQuery, len(live))
	for i, rd := range live {
		qs[i] = rd.query
	}
	states, errs, err := r.read(ctx, qs)
	for i, rd := range live {
		switch {
		case err != nil:
			rd.answer(chainState{}, err)
		case errs[i] != nil:
			rd.answer(chainState{}, errs[i])
		default:
			rd.answer(states[i], nil)
		}
	}
	return true
}
