package paywall_test

import (
	"context"
	"crypto/ecdsa"
	"encoding/json"
	"fmt"
	"math/big"
	"strings"
	"sync"

	"github.com/ethereum/go-ethereum/rpc"

	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/signer/core/apitypes"
)

// testWallet is the Go side of the injected provider: one account, on one
// chain at a time.
type testWallet struct {
	key    *ecdsa.PrivateKey
	devnet uint64      // the chain id that eth_call reaches, through rpc
	rpc    *rpc.Client // the devnet's
	// refuseSign and refuseSwitch make the user say no (EIP-1193 4001).
	refuseSign, refuseSwitch bool

	mu      sync.Mutex
	chain   uint64          // the chain the wallet is on
	known   map[uint64]bool // the chains it can switch to
	asked   []string        // the methods asked, in order
	added   []json.RawMessage
	signed  int // signatures made
	refused int // requests refused
}

func newTestWallet(e *env, key *ecdsa.PrivateKey, on uint64, known ...uint64) *testWallet {
	w := &testWallet{key: key, devnet: e.chain.ChainID.Uint64(), chain: on, known: map[uint64]bool{on: true}}
	for _, k := range known {
		w.known[k] = true
	}
	var err error
	if w.rpc, err = rpc.Dial(e.chain.URL); err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(w.rpc.Close)
	return w
}

type walletRequest struct {
	Method string            `json:"method"`
	Params []json.RawMessage `json:"params"`
}

type walletError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

type walletAnswer struct {
	Result any          `json:"result"`
	Error  *walletError `json:"error,omitempty"`
}

// walletState is what a wallet did, at one moment.
type walletState struct {
	chain           uint64
	added           []json.RawMessage
	signed, refused int
}

func (w *testWallet) state() walletState {
	w.mu.Lock()
	defer w.mu.Unlock()
	return walletState{w.chain, append([]json.RawMessage(nil), w.added...), w.signed, w.refused}
}

func (w *testWallet) count(method string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	n := 0
	for _, m := range w.asked {
		if m == method {
			n++
		}
	}
	return n
}

// handle answers one EIP-1193 request.
func (w *testWallet) handle(ctx context.Context, req walletRequest) (walletAnswer, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.asked = append(w.asked, req.Method)
	from := crypto.PubkeyToAddress(w.key.PublicKey)
	refuse := func() (walletAnswer, error) {
		w.refused++
		return walletAnswer{Error: &walletError{4001, "User rejected the request."}}, nil
	}
	param := func(i int, v any) error {
		if i >= len(req.Params) {
			return fmt.Errorf("%s: no parameter %d", req.Method, i)
		}
		return json.Unmarshal(req.Params[i], v)
	}
	switch req.Method {
	case "eth_requestAccounts", "eth_accounts":
		return walletAnswer{Result: []string{strings.ToLower(from.Hex())}}, nil
	case "eth_chainId":
		return walletAnswer{Result: hexutil.EncodeUint64(w.chain)}, nil
	case "wallet_switchEthereumChain", "wallet_addEthereumChain":
		var p struct {
			ChainID hexutil.Uint64 `json:"chainId"`
		}
		if err := param(0, &p); err != nil {
			return walletAnswer{}, err
		}
		if w.refuseSwitch {
			return refuse()
		}
		if req.Method == "wallet_addEthereumChain" {
			w.added = append(w.added, req.Params[0])
			w.known[uint64(p.ChainID)] = true
		}
		if !w.known[uint64(p.ChainID)] {
			return walletAnswer{Error: &walletError{4902, "Unrecognized chain ID."}}, nil
		}
		w.chain = uint64(p.ChainID) // adding switches too, as wallets do
		return walletAnswer{}, nil
	case "eth_call":
		if w.chain != w.devnet {
			return walletAnswer{Error: &walletError{-32000, "this test wallet reads only the devnet"}}, nil
		}
		var out json.RawMessage
		if err := w.rpc.CallContext(ctx, &out, "eth_call", req.Params[0], req.Params[1]); err != nil {
			return walletAnswer{Error: &walletError{-32000, err.Error()}}, nil
		}
		return walletAnswer{Result: out}, nil
	case "eth_signTypedData_v4":
		var who, doc string
		if err := param(0, &who); err != nil {
			return walletAnswer{}, err
		}
		if err := param(1, &doc); err != nil {
			return walletAnswer{}, err
		}
		if !strings.EqualFold(who, from.Hex()) {
			return walletAnswer{Error: &walletError{4100, "not this wallet's account"}}, nil
		}
		var td apitypes.TypedData
		if err := json.Unmarshal([]byte(doc), &td); err != nil {
			return walletAnswer{Error: &walletError{-32602, err.Error()}}, nil
		}
		if td.Domain.ChainId == nil || (*big.Int)(td.Domain.ChainId).Uint64() != w.chain {
			return walletAnswer{Error: &walletError{-32602, "the domain's chainId is not the wallet's chain"}}, nil
		}
		if w.refuseSign {
			return refuse()
		}
		hash, _, err := apitypes.TypedDataAndHash(td)
		if err != nil {
			return walletAnswer{Error: &walletError{-32602, err.Error()}}, nil
		}
		sig, err := crypto.Sign(hash, w.key)
		if err != nil {
			return walletAnswer{}, err
		}
		sig[64] += 27
		w.signed++
		return walletAnswer{Result: hexutil.Encode(sig)}, nil
	}
	return walletAnswer{Error: &walletError{4200, "unsupported method " + req.Method}}, nil
}

// providerJS is injected before the page's scripts: it records Content-
// Security-Policy violations and, with a wallet, announces the provider.
const providerJS = `(() => {
  window.__csp = [];
  document.addEventListener('securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
  if (!WALLET) return;
  const listeners = {};
  const emit = (ev, v) => (listeners[ev] || []).forEach(f => f(v));
  const provider = {
    async request({ method, params }) {
      const a = await window.x402TestWallet({ method, params: params || [] });
      if (a.error) throw Object.assign(new Error(a.error.message), { code: a.error.code });
      if (method === 'wallet_switchEthereumChain' || method === 'wallet_addEthereumChain') emit('chainChanged', params[0].chainId);
      return a.result;
    },
    on(ev, f) { (listeners[ev] = listeners[ev] || []).push(f); },
    removeListener(ev, f) { listeners[ev] = (listeners[ev] || []).filter(g => g !== f); },
  };
  const detail = Object.freeze({ provider, info: Object.freeze({
    uuid: '8f7c4b52-0f7e-4c55-9f0a-3c1f2a7d6b10', name: 'Test Wallet', rdns: 'org.caddy-x402.test',
    icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 20"%3E%3Crect width="20" height="20" rx="4" fill="%232456d6"/%3E%3C/svg%3E' }) });
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }));
  window.addEventListener('eip6963:requestProvider', announce);
  announce();
  window.ethereum = provider;
})();`
