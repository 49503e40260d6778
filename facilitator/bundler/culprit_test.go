package bundler

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/contracts/ep07"
	"github.com/caddy-x402/caddy-x402/entrypoint"
)

var testSenders = []common.Address{{0xa1}, {0xb2}, {0xc3}}

// epFor is a v0.7 EntryPoint, or with v07 false a v0.6 one.
func epFor(v07 bool) entrypoint.EntryPoint {
	if v07 {
		return entrypoint.NewV07(ep07.Address)
	}
	return entrypoint.NewV06(common.Address{0x06})
}

// bundleSenders reads input as each version's handleOps, as FindCulprit
// reads it as its EntryPoint's; v07 says which version read it.
func bundleSenders(input []byte) (senders []common.Address, v07, ok bool) {
	for _, v07 := range []bool{false, true} {
		if senders, ok := epFor(v07).BundleSenders(input); ok {
			return senders, v07, true
		}
	}
	return nil, false, false
}

func handleOpsV06Input() []byte {
	ops := make([]contracts.UserOperation, len(testSenders))
	for i, s := range testSenders {
		ops[i] = contracts.UserOperation{Sender: s, Nonce: big.NewInt(int64(i)), CallGasLimit: new(big.Int), VerificationGasLimit: new(big.Int),
			PreVerificationGas: new(big.Int), MaxFeePerGas: new(big.Int), MaxPriorityFeePerGas: new(big.Int)}
	}
	return contracts.NewEntryPoint().PackHandleOps(ops, common.Address{0xbe})
}

func handleOpsV07Input() []byte {
	ops := make([]ep07.PackedUserOperation, len(testSenders))
	for i, s := range testSenders {
		op := ep07.UserOperation{Sender: s, Nonce: big.NewInt(int64(i))}
		ops[i] = op.Pack()
	}
	return ep07.NewEntryPoint().PackHandleOps(ops, common.Address{0xbe})
}

func TestBundleSenders(t *testing.T) {
	t.Parallel()
	v06, v07 := handleOpsV06Input(), handleOpsV07Input()
	for _, tc := range []struct {
		name    string
		input   []byte
		ok, v07 bool
	}{
		{"v0.6", v06, true, false},
		{"v0.7", v07, true, true},
		{"empty", nil, false, false},
		{"a selector only", v06[:4], false, false},
		{"truncated", v06[:len(v06)-40], false, false},
		{"another method", append([]byte{0xde, 0xad, 0xbe, 0xef}, v06[4:]...), false, false},
		{"v0.7's selector, v0.6's operations", append(slices.Clone(v07[:4]), v06[4:]...), false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			senders, v07, ok := bundleSenders(tc.input)
			if ok != tc.ok || v07 != tc.v07 {
				t.Fatalf("ok %v v07 %v, want %v %v", ok, v07, tc.ok, tc.v07)
			}
			if ok && !slices.Equal(senders, testSenders) {
				t.Fatalf("senders %v, want %v", senders, testSenders)
			}
		})
	}
}

// errorData is the revert data of the custom error name of a, with args.
func errorData(t testing.TB, a *abi.ABI, name string, args ...any) []byte {
	t.Helper()
	e := a.Errors[name]
	data, err := e.Inputs.Pack(args...)
	if err != nil {
		t.Fatal(err)
	}
	return append(slices.Clone(e.ID[:4]), data...)
}

func TestDecodeFailedOp(t *testing.T) {
	t.Parallel()
	a06, _ := contracts.EntryPointMetaData.ParseABI()
	a07, _ := ep07.EntryPointMetaData.ParseABI()
	huge := new(big.Int).Lsh(big.NewInt(1), 200)
	inner := errorData(t, a06, "FailedOp", big.NewInt(9), "an account's own error") // any bytes
	for _, tc := range []struct {
		name   string
		data   []byte
		v07    bool
		idx    int
		reason string
		ok     bool
	}{
		{"v0.6", errorData(t, a06, "FailedOp", big.NewInt(2), "AA33 reverted"), false, 2, "AA33 reverted", true},
		{"v0.7", errorData(t, a07, "FailedOp", big.NewInt(1), "AA21 didn't pay prefund"), true, 1, "AA21 didn't pay prefund", true},
		{"v0.7 with revert", errorData(t, a07, "FailedOpWithRevert", big.NewInt(0), "AA33 reverted", inner), true, 0, "AA33 reverted: ", true},
		{"an index no bundle has", errorData(t, a06, "FailedOp", huge, "AA33 reverted"), false, -1, "AA33 reverted", true},
		{"v0.7's error read as v0.6's", errorData(t, a07, "FailedOpWithRevert", big.NewInt(0), "x", inner), false, 0, "", false},
		{"Error(string)", append([]byte{0x08, 0xc3, 0x79, 0xa0}, make([]byte, 64)...), false, 0, "", false},
		{"empty", nil, true, 0, "", false},
		{"truncated", errorData(t, a06, "FailedOp", big.NewInt(2), "AA33 reverted")[:40], false, 0, "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			idx, reason, ok := decodeFailedOp(epFor(tc.v07), tc.data)
			if ok != tc.ok || (ok && (idx != tc.idx || !strings.HasPrefix(reason, tc.reason))) {
				t.Fatalf("decoded %d %q %v, want %d %q %v", idx, reason, ok, tc.idx, tc.reason, tc.ok)
			}
		})
	}
}

func TestCulpritBySender(t *testing.T) {
	t.Parallel()
	for reason, want := range map[string]bool{
		"AA25 invalid account nonce":                   true,
		"AA33 reverted":                                true,
		"AA33 reverted: ERC20: insufficient allowance": true,
		"AA23 reverted (or OOG)":                       true,
		"AA50 postOp reverted: x":                      true,
		"AA10 sender already constructed":              false,
		"AA22 expired or not due":                      false,
		"AA31 paymaster deposit too low":               false,
		"AA34 signature error":                         false,
		"AA40 over verificationGasLimit":               false,
		"AA250 not a code":                             false,
		"":                                             false,
	} {
		if got := (&Culprit{Reason: reason}).BySender(); got != want {
			t.Errorf("%q by its sender: %v, want %v", reason, got, want)
		}
	}
}

func TestPrintable(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"AA33 reverted":          "AA33 reverted",
		"a\x00b\nc\xffd":         "a?b?c?d",
		strings.Repeat("x", 300): strings.Repeat("x", 160),
	} {
		if got := printable(in, 160); got != want {
			t.Errorf("printable(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzBundleSenders: whatever a transaction's input, bundleSenders returns
// without a panic, at most one sender per 32 bytes of it.
func FuzzBundleSenders(f *testing.F) {
	f.Add(handleOpsV06Input())
	f.Add(handleOpsV07Input())
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, input []byte) {
		if senders, _, ok := bundleSenders(input); ok && len(senders) > len(input)/32 {
			t.Fatalf("%d senders from %d bytes", len(senders), len(input))
		}
	})
}

// FuzzDecodeFailedOp: whatever a revert's data, decodeFailedOp returns
// without a panic, and an index it returns is -1 or one a bundle can have.
func FuzzDecodeFailedOp(f *testing.F) {
	a06, _ := contracts.EntryPointMetaData.ParseABI()
	a07, _ := ep07.EntryPointMetaData.ParseABI()
	f.Add(errorData(f, a06, "FailedOp", big.NewInt(2), "AA33 reverted"), false)
	f.Add(errorData(f, a07, "FailedOpWithRevert", big.NewInt(1), "AA33 reverted", []byte{1, 2, 3}), true)
	f.Fuzz(func(t *testing.T, data []byte, v07 bool) {
		if idx, _, ok := decodeFailedOp(epFor(v07), data); ok && (idx < -1 || idx > 1<<20) {
			t.Fatalf("index %d", idx)
		}
	})
}
