package entrypoint

import (
	"errors"
	"fmt"
	"math/big"
	"slices"

	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/common"
)

// decodeAccountCall reads execute(dest, value, func) or executeBatch of
// the SimpleAccount whose ABI is account: executeBatch(dest[], func[])
// (v0.6) or executeBatch(dest[], value[], func[]) with value[] empty or as
// long as dest[] (v0.7).
func decodeAccountCall(account *abi.ABI, callData []byte) (string, []Call, error) {
	if len(callData) < 4 {
		return "", nil, errors.New("callData is empty")
	}
	m, err := account.MethodById(callData[:4])
	if err != nil || (m.Name != "execute" && m.Name != "executeBatch") {
		return "", nil, errors.New("callData is not a SimpleAccount execute or executeBatch call")
	}
	args, err := m.Inputs.Unpack(callData[4:])
	if err != nil {
		return m.Name, nil, fmt.Errorf("callData does not decode as %s: %v", m.Name, err)
	}
	if m.Name == "execute" {
		dest, _ := args[0].(common.Address)
		value, _ := args[1].(*big.Int)
		data, _ := args[2].([]byte)
		return m.Name, []Call{{Target: dest, Value: value, Data: data}}, nil
	}
	var values []*big.Int
	if len(args) == 3 {
		values, _ = args[1].([]*big.Int)
		args = []any{args[0], args[2]}
	}
	dest, ok1 := args[0].([]common.Address)
	datas, ok2 := args[1].([][]byte)
	if !ok1 || !ok2 || len(dest) != len(datas) || (len(values) != 0 && len(values) != len(dest)) {
		return m.Name, nil, errors.New("executeBatch's targets, values and calls differ in number")
	}
	calls := make([]Call, len(dest))
	for i := range dest {
		calls[i] = Call{Target: dest[i], Value: new(big.Int), Data: datas[i]}
		if len(values) > 0 && values[i] != nil {
			calls[i].Value = values[i]
		}
	}
	return m.Name, calls, nil
}

// encodeAccountCall is execute for one call, executeBatch for more: with
// values when withValues (v0.7, whose executeBatch takes an empty value[]
// for none), refusing a value without.
func encodeAccountCall(account *abi.ABI, calls []Call, withValues bool) ([]byte, error) {
	if len(calls) == 1 {
		return account.Pack("execute", calls[0].Target, orZero(calls[0].Value), calls[0].Data)
	}
	dest := make([]common.Address, len(calls))
	datas := make([][]byte, len(calls))
	valued := slices.ContainsFunc(calls, func(c Call) bool { return c.Value != nil && c.Value.Sign() != 0 })
	for i, c := range calls {
		dest[i], datas[i] = c.Target, c.Data
	}
	if !withValues {
		if valued {
			return nil, errors.New("this SimpleAccount's executeBatch sends no value")
		}
		return account.Pack("executeBatch", dest, datas)
	}
	values := []*big.Int{}
	if valued {
		for _, c := range calls {
			values = append(values, orZero(c.Value))
		}
	}
	return account.Pack("executeBatch", dest, values, datas)
}

// mustABI is a generated binding's parsed ABI.
func mustABI(a *abi.ABI, err error) *abi.ABI {
	if err != nil {
		panic(fmt.Sprintf("parsing a generated ABI: %v", err)) // checked by go generate
	}
	return a
}

// bundleSenders reads the senders of handleOps calldata input, whose
// method is m and whose operations are Ts.
func bundleSenders[T any](m abi.Method, input []byte, sender func(T) common.Address) ([]common.Address, bool) {
	if len(input) < 4 || string(input[:4]) != string(m.ID) {
		return nil, false
	}
	args, err := m.Inputs.Unpack(input[4:])
	if err != nil || len(args) != 2 {
		return nil, false
	}
	ops, ok := abi.ConvertType(args[0], new([]T)).(*[]T)
	if !ok {
		return nil, false
	}
	out := make([]common.Address, len(*ops))
	for i, op := range *ops {
		out[i] = sender(op)
	}
	return out, true
}
