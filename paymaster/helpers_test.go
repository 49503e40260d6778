package paymaster

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/rand"
	"encoding/json"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
	"github.com/ethereum/go-ethereum/rpc"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store"
	"github.com/caddy-x402/caddy-x402/x402"
)

type env struct {
	t        testing.TB
	chain    *devnet.Devnet
	rpc      *rpc.Client
	eth      *ethclient.Client
	svc      *Service
	srv      *httptest.Server
	sponsor  string // a key with paymaster:sponsor
	readOnly string // a key with paymaster:read only

	path   string       // the store file, which keeps keys and ledger
	st     *store.Store // open while the service runs
	cfg    Config       // the service's configuration
	ledger LedgerStore  // the running service's ledger
}

// newEnv serves a Service on a devnet, with its keys and ledger in a store
// file, as the Caddy app runs it.
func newEnv(t testing.TB, projects ...Project) *env {
	t.Helper()
	return newEnvOn(t, devnet.Config{Addr: "127.0.0.1:0"}, projects...)
}

// newEnvOn is newEnv on a devnet of configuration dc.
func newEnvOn(t testing.TB, dc devnet.Config, projects ...Project) *env {
	t.Helper()
	d, err := devnet.Start(context.Background(), dc)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	rc, err := rpc.Dial(d.URL)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(rc.Close)
	if len(projects) == 0 {
		projects = []Project{{Name: "demo", Balance: ether(10)}}
	}
	e := &env{
		t: t, chain: d, rpc: rc, eth: ethclient.NewClient(rc), path: filepath.Join(t.TempDir(), "x402.db"),
		cfg: Config{
			ChainID: d.ChainID, EntryPoint: d.Contracts.EntryPoint, Paymaster: d.Contracts.Paymaster,
			Signer: d.PaymasterSigner.Key, Chain: rc, Projects: projects,
		},
	}
	e.start(nil)
	t.Cleanup(e.stop)
	if e.sponsor, _, err = e.svc.Keys().Create(projects[0].Name, "testnet", []string{ScopeSponsor}); err != nil {
		t.Fatal(err)
	}
	if e.readOnly, _, err = e.svc.Keys().Create(projects[0].Name, "testnet", []string{ScopeRead}); err != nil {
		t.Fatal(err)
	}
	return e
}

// start opens the store file and serves a new Service on it. change, if
// set, edits the configuration first (after Keys, Ledger, ProjectStore and
// KeyUsage are set to the store's buckets); the edit stays for later
// starts.
func (e *env) start(change func(*Config)) {
	e.t.Helper()
	st, err := store.Open(store.Config{Path: e.path})
	if err != nil {
		e.t.Fatal(err)
	}
	keys, err := st.Bucket("paymaster_keys")
	if err != nil {
		e.t.Fatal(err)
	}
	ledger, err := st.Bucket("paymaster_ledger")
	if err != nil {
		e.t.Fatal(err)
	}
	projects, err := st.Bucket("paymaster_projects")
	if err != nil {
		e.t.Fatal(err)
	}
	usage, err := st.Bucket("paymaster_key_usage")
	if err != nil {
		e.t.Fatal(err)
	}
	e.cfg.Keys, e.cfg.Ledger, e.cfg.ProjectStore, e.cfg.KeyUsage = keys, SerialLedger(ledger), projects, usage
	if change != nil {
		change(&e.cfg)
	}
	svc, err := New(e.cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	e.st, e.svc, e.ledger, e.srv = st, svc, e.cfg.Ledger, httptest.NewServer(svc)
}

// stop ends the service as a process exit does: the server finishes its
// requests, then the store file is closed.
func (e *env) stop() {
	if e.srv == nil {
		return
	}
	e.srv.Close()
	if err := e.st.Close(); err != nil {
		e.t.Error(err)
	}
	e.srv, e.st = nil, nil
}

// restart stops the service and starts a new one on the same store file.
func (e *env) restart(change func(*Config)) {
	e.t.Helper()
	e.stop()
	e.start(change)
}

func ether(n int64) *big.Int { return new(big.Int).Mul(big.NewInt(n), big.NewInt(1e18)) }

// rpcResponse is a JSON-RPC answer.
type rpcResponse struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *Error          `json:"error"`
}

// call posts one JSON-RPC request with the key in the header (if not empty).
func (e *env) call(key, method string, params ...any) (rpcResponse, *http.Response) {
	e.t.Helper()
	return e.callAt(e.srv.URL, key, method, params...)
}

// callAt is call to the service at url.
func (e *env) callAt(url, key, method string, params ...any) (rpcResponse, *http.Response) {
	e.t.Helper()
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	return e.postTo(url, key, body)
}

func (e *env) post(key string, body []byte) (rpcResponse, *http.Response) {
	e.t.Helper()
	return e.postTo(e.srv.URL, key, body)
}

func (e *env) postTo(url, key string, body []byte) (rpcResponse, *http.Response) {
	e.t.Helper()
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var out rpcResponse
	if len(raw) > 0 && raw[0] == '{' {
		if err := json.Unmarshal(raw, &out); err != nil {
			e.t.Fatalf("answer %s: %v", raw, err)
		}
	}
	return out, resp
}

// account is a counterfactual SimpleAccount of a fresh owner.
type account struct {
	owner    *ecdsa.PrivateKey
	sender   common.Address
	initCode []byte
}

func (e *env) newAccount() account {
	e.t.Helper()
	owner, _ := crypto.GenerateKey()
	f := contracts.NewSimpleAccountFactory()
	ownerAddr := crypto.PubkeyToAddress(owner.PublicKey)
	var out hexutil.Bytes
	e.ethCall(e.chain.Contracts.AccountFactory, f.PackGetAddress(ownerAddr, big.NewInt(0)), &out)
	sender, err := f.UnpackGetAddress(out)
	if err != nil {
		e.t.Fatal(err)
	}
	return account{owner: owner, sender: sender, initCode: append(e.chain.Contracts.AccountFactory.Bytes(), f.PackCreateAccount(ownerAddr, big.NewInt(0))...)}
}

func (e *env) ethCall(to common.Address, data []byte, out *hexutil.Bytes) {
	e.t.Helper()
	if err := e.rpc.Call(out, "eth_call", map[string]any{"to": to, "data": hexutil.Bytes(data)}, "latest"); err != nil {
		e.t.Fatal(err)
	}
}

// settleCall is the aa-native payment callData: approve and settle.
func (e *env) settleCall(token common.Address, amount int64) []byte {
	var rh [32]byte
	rand.Read(rh[:])
	a, tok, st := contracts.NewSimpleAccount(), contracts.NewDevUSD(), contracts.NewX402Settlement()
	return a.PackExecuteBatch(
		[]common.Address{token, e.chain.Contracts.Settlement},
		[][]byte{tok.PackApprove(e.chain.Contracts.Settlement, big.NewInt(amount)), st.PackSettle(e.chain.Accounts[2].Address, token, big.NewInt(amount), rh)},
	)
}

// unsigned is the wire form of an operation left for the paymaster to
// complete (gas fields empty).
func unsigned(a account, nonce int64, withInit bool, callData []byte) x402.UserOperation {
	op := x402.UserOperation{Sender: a.sender.Hex(), Nonce: hexutil.EncodeBig(big.NewInt(nonce)), InitCode: "0x", CallData: hexutil.Encode(callData), Signature: "0x"}
	if withInit {
		op.InitCode = hexutil.Encode(a.initCode)
	}
	return op
}

func (e *env) send(key *ecdsa.PrivateKey, to common.Address, data []byte, gas uint64) *types.Receipt {
	e.t.Helper()
	ctx := context.Background()
	nonce, _ := e.eth.PendingNonceAt(ctx, crypto.PubkeyToAddress(key.PublicKey))
	tx, _ := types.SignNewTx(key, types.LatestSignerForChainID(e.chain.ChainID), &types.DynamicFeeTx{
		ChainID: e.chain.ChainID, Nonce: nonce, To: &to, Data: data, Gas: gas, GasTipCap: big.NewInt(1e9), GasFeeCap: big.NewInt(1e11),
	})
	if err := e.eth.SendTransaction(ctx, tx); err != nil {
		e.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	r, err := e.chain.Wait(ctx, tx.Hash())
	if err != nil {
		e.t.Fatal(err)
	}
	return r
}
