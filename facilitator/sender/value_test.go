package sender

import (
	"context"
	"errors"
	"math/big"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/params"
	"github.com/ethereum/go-ethereum/rpc"
)

// freshAddress is an address nobody has sent to.
func freshAddress(t *testing.T) common.Address {
	t.Helper()
	key, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return crypto.PubkeyToAddress(key.PublicKey)
}

// sendValue signs c on s, sends it, checks Delivered, and waits for its
// receipt.
func sendValue(t *testing.T, s *Sender, c Call) (*types.Transaction, *types.Receipt) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	tx, err := s.SignCall(ctx, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Send(ctx, tx); err != nil {
		t.Fatal(err)
	}
	if err := s.Delivered(ctx, tx.Hash()); err != nil {
		t.Fatalf("delivered: %v", err)
	}
	r, err := s.Wait(ctx, tx.Hash())
	if err != nil || r.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("receipt %v, %v", r, err)
	}
	return tx, r
}

// checkArrived asserts that to holds exactly want wei, and that the mined
// transaction carries the value and data of c.
func checkArrived(t *testing.T, eth *ethclient.Client, r *types.Receipt, c Call, want *big.Int) {
	t.Helper()
	ctx := t.Context()
	if got, err := eth.BalanceAt(ctx, c.To, nil); err != nil || got.Cmp(want) != 0 {
		t.Fatalf("the recipient holds %v wei (%v), want %v", got, err, want)
	}
	mined, _, err := eth.TransactionByHash(ctx, r.TxHash)
	if err != nil {
		t.Fatal(err)
	}
	if mined.Value().Cmp(c.Value) != 0 || string(mined.Data()) != string(c.Data) || *mined.To() != c.To {
		t.Fatalf("mined %v to %v with data %x, want %v to %v with data %x", mined.Value(), mined.To(), mined.Data(), c.Value, c.To, c.Data)
	}
}

// A call with a value, signed by SignCall, arrives with its value and
// data, and the fee cap it asks for, at most the Sender's ceiling.
func TestSignCallValue(t *testing.T) {
	t.Parallel()
	d, rc, eth := startChain(t)
	ceiling := big.NewInt(50 * params.GWei)
	s := newSender(t, Config{Backend: eth, Batcher: rc, Key: d.Accounts[6].Key, ChainID: d.ChainID, MaxFeePerGas: ceiling})
	head, err := eth.HeaderByNumber(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	// Enough for the base fee and a tip, below the Sender's own choice.
	ownCap := new(big.Int).Add(head.BaseFee, big.NewInt(params.GWei))
	for _, tc := range []struct {
		name       string
		value      int64
		data       []byte
		feeCap     *big.Int
		wantFeeCap *big.Int // nil: the Sender's choice
	}{
		{name: "value", value: 1e15},
		{name: "value and data", value: 12345, data: []byte("gm")},
		{name: "own fee cap", value: 1, feeCap: ownCap, wantFeeCap: ownCap},
		{name: "fee cap over the ceiling", value: 2, feeCap: big.NewInt(80 * params.GWei), wantFeeCap: ceiling},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := Call{To: freshAddress(t), Value: big.NewInt(tc.value), Data: tc.data, Gas: 30_000, FeeCap: tc.feeCap}
			tx, r := sendValue(t, s, c)
			checkArrived(t, eth, r, c, c.Value)
			if tc.wantFeeCap != nil && tx.GasFeeCap().Cmp(tc.wantFeeCap) != 0 {
				t.Fatalf("fee cap %v, want %v", tx.GasFeeCap(), tc.wantFeeCap)
			}
			if tx.GasFeeCap().Cmp(ceiling) > 0 || tx.GasTipCap().Cmp(tx.GasFeeCap()) > 0 {
				t.Fatalf("fee cap %v over the ceiling %v, or tip %v over it", tx.GasFeeCap(), ceiling, tx.GasTipCap())
			}
		})
	}
}

// A call that is not one is refused before a nonce is handed out.
func TestSignCallInvalid(t *testing.T) {
	t.Parallel()
	key, _ := crypto.GenerateKey()
	// Never reaches the chain: the call is refused first.
	s := newSender(t, Config{Backend: &ethclient.Client{}, Batcher: &rpc.Client{}, Key: key, ChainID: big.NewInt(1)})
	for name, c := range map[string]Call{
		"negative value": {To: common.Address{1}, Value: big.NewInt(-1), Gas: 21_000},
		"zero fee cap":   {To: common.Address{1}, Gas: 21_000, FeeCap: new(big.Int)},
	} {
		if _, err := s.SignCall(t.Context(), c); err == nil {
			t.Errorf("%s: signed", name)
		}
	}
}

// In a fleet, a value transfer signed by the replica that does not deliver
// arrives through the one that does; one the node refuses (more than the
// key holds) is reported by Delivered and Wait as rejected, and its nonce
// is filled so the transfer after it arrives too.
func TestFleetValueTransfer(t *testing.T) {
	t.Parallel()
	cfg := fleetSchema(t)
	d, _, eth := startChain(t)
	key := fundedKey(t, d, eth)
	tune := func(c *Config) { c.CheckInterval = 100 * time.Millisecond }
	deliverer := startReplica(t, d, key, cfg, tune)
	waitFor(t, "the first replica delivers", deliverer.s.fleet.leading.Load)
	other := startReplica(t, d, key, cfg, tune)

	c := Call{To: freshAddress(t), Value: big.NewInt(3e15), Data: []byte{0xca, 0xfe}, Gas: 30_000}
	_, r := sendValue(t, other.s, c)
	checkArrived(t, eth, r, c, c.Value)

	ctx, cancel := context.WithTimeout(t.Context(), waitLimit)
	defer cancel()
	tooMuch, err := other.s.SignCall(ctx, Call{To: c.To, Value: new(big.Int).Mul(big.NewInt(1000), big.NewInt(params.Ether)), Gas: 21_000})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.s.Send(ctx, tooMuch); err != nil {
		t.Fatal(err)
	}
	if err := other.s.Delivered(ctx, tooMuch.Hash()); !errors.Is(err, ErrRejected) {
		t.Fatalf("delivered: %v; want ErrRejected", err)
	}
	if r, err := other.s.Wait(ctx, tooMuch.Hash()); !errors.Is(err, ErrRejected) {
		t.Fatalf("wait: %v, %v; want ErrRejected", r, err)
	}
	after := Call{To: c.To, Value: big.NewInt(5), Gas: 21_000}
	tx, r := sendValue(t, other.s, after)
	checkArrived(t, eth, r, after, new(big.Int).Add(c.Value, after.Value))
	if tx.Nonce() != tooMuch.Nonce()+1 {
		t.Fatalf("the transfer after the refused one has nonce %d, want %d", tx.Nonce(), tooMuch.Nonce()+1)
	}
	if n := other.sends.n.Load(); n != 0 {
		t.Fatalf("the replica that does not deliver broadcast %d transactions", n)
	}
}
