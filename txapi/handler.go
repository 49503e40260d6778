package txapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/big"
	"mime"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/common/hexutil"
	"github.com/ethereum/go-ethereum/core/types"
	"go.uber.org/zap"

	"github.com/caddy-x402/caddy-x402/contracts"
	"github.com/caddy-x402/caddy-x402/edge"
	"github.com/caddy-x402/caddy-x402/facilitator/sender"
	"github.com/caddy-x402/caddy-x402/x402"
)

// MaxBodySize caps request bodies.
const MaxBodySize = 16 << 10

// Record is a transaction sent by the API, as returned and as stored.
type Record struct {
	ID      string `json:"id"`
	Kind    string `json:"kind"` // transaction, message or faucet
	Name    string `json:"name"`
	TxHash  string `json:"txHash"`
	From    string `json:"from"`
	To      string `json:"to"`
	Value   string `json:"value"`             // native coin, decimal
	Message string `json:"message,omitempty"` // sendMessage
	// Faucet records: the token amount and the native-coin transaction.
	Amount       string `json:"amount,omitempty"`
	Token        string `json:"token,omitempty"`
	NativeTxHash string `json:"nativeTxHash,omitempty"`
	// Status is pending, confirmed or failed; BlockNumber once mined.
	Status      string    `json:"status"`
	BlockNumber uint64    `json:"blockNumber,omitempty"`
	Created     time.Time `json:"created"`
}

// apiError is the error body: {"error":{"code","message"}}.
type apiError struct {
	status      int
	Code        string `json:"code"`
	Message     string `json:"message"`
	NextAllowed string `json:"nextAllowedAt,omitempty"`
	retryAfter  time.Duration
}

func fail(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

func writeError(w http.ResponseWriter, e *apiError) {
	if e.retryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(e.retryAfter.Seconds())+1))
	}
	edge.WriteJSON(w, e.status, map[string]*apiError{"error": e})
}

// ServeHTTP routes /api/v1/… (matched by suffix, so it can be mounted
// under any prefix).
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	path := strings.TrimRight(r.URL.Path, "/")
	i := strings.Index(path, "/api/v1/")
	if i < 0 {
		writeError(w, fail(http.StatusNotFound, "not_found", "routes are under /api/v1/"))
		return
	}
	route := path[i+len("/api/v1/"):]
	if r.Method == http.MethodPost {
		// Writers that cannot set deadlines (test recorders) leave it to
		// the server's timeouts.
		http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.conf().BodyTimeout))
	}
	switch {
	case route == "transactions" || route == "sendMessage" || route == "userFaucet":
		if r.Method != http.MethodPost {
			w.Header().Set("Allow", "POST")
			writeError(w, fail(http.StatusMethodNotAllowed, "method_not_allowed", "POST only"))
			return
		}
		var (
			rec  *Record
			aerr *apiError
		)
		switch route {
		case "transactions":
			rec, aerr = s.transaction(r)
		case "sendMessage":
			rec, aerr = s.message(r)
		default:
			rec, aerr = s.faucetRequest(r)
		}
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		edge.WriteJSON(w, http.StatusCreated, rec)
	case strings.HasPrefix(route, "transactions/") && !strings.Contains(route[len("transactions/"):], "/"):
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET")
			writeError(w, fail(http.StatusMethodNotAllowed, "method_not_allowed", "GET only"))
			return
		}
		rec, aerr := s.lookup(r.Context(), route[len("transactions/"):])
		if aerr != nil {
			writeError(w, aerr)
			return
		}
		edge.WriteJSON(w, http.StatusOK, rec)
	default:
		writeError(w, fail(http.StatusNotFound, "not_found", "no route /api/v1/%s", route))
	}
}

// decode reads a JSON body strictly: JSON content, capped, no unknown
// fields, nothing after the object.
func decode(r *http.Request, v any) *apiError {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
			return fail(http.StatusUnsupportedMediaType, "unsupported_media_type", "content type must be application/json")
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(nil, r.Body, MaxBodySize))
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return fail(http.StatusRequestEntityTooLarge, "body_too_large", "the body is over %d bytes", MaxBodySize)
	case errors.Is(err, os.ErrDeadlineExceeded):
		return fail(http.StatusRequestTimeout, "request_timeout", "the body was not received in time")
	case err != nil:
		return fail(http.StatusBadRequest, "invalid_body", "the body could not be read")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fail(http.StatusBadRequest, "invalid_json", "the body is not the expected JSON object: %v", err)
	}
	if dec.More() {
		return fail(http.StatusBadRequest, "invalid_json", "the body has data after the JSON object")
	}
	return nil
}

// checkName validates the request's name: 1 to 64 printable characters.
func checkName(name string) *apiError {
	if name == "" || utf8.RuneCountInString(name) > 64 || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return fail(http.StatusBadRequest, "invalid_name", "name must be 1 to 64 printable characters")
	}
	return nil
}

// parseAddress accepts an address in one case, or mixed case only with a
// valid EIP-55 checksum.
func parseAddress(field, s string) (common.Address, *apiError) {
	if !common.IsHexAddress(s) || !strings.HasPrefix(s, "0x") {
		return common.Address{}, fail(http.StatusBadRequest, "invalid_address", "%s %q is not an address", field, s)
	}
	a := common.HexToAddress(s)
	body := s[2:]
	if body != strings.ToLower(body) && body != strings.ToUpper(body) && a.Hex() != s {
		return common.Address{}, fail(http.StatusBadRequest, "invalid_checksum", "%s %q fails its EIP-55 checksum (did you mean %s?)", field, s, a.Hex())
	}
	return a, nil
}

// parseDecimal parses a positive decimal amount (a JSON string or number)
// into base units with the given decimals, refusing more precision than
// the unit has; a refusal is invalid_<field>.
func parseDecimal(field string, n json.Number, decimals int) (*big.Int, *apiError) {
	v, err := x402.ParseDecimal(string(n), uint8(decimals))
	if err != nil {
		return nil, fail(http.StatusBadRequest, "invalid_"+field, "%s %v", field, err)
	}
	return v, nil
}

// formatDecimal is the inverse of parseDecimal.
func formatDecimal(v *big.Int, decimals int) string { return x402.FormatDecimal(v, uint8(decimals)) }

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return "tx_" + hex.EncodeToString(b[:])
}

// put stores rec.
func (s *Service) put(rec *Record) error {
	raw, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	return s.records.Put([]byte(rec.ID), raw)
}

// recorder is send's record callback for rec: it sets the signed
// transaction with set and stores rec.
func (s *Service) recorder(rec *Record, set func(rec *Record, tx *types.Transaction)) func(*types.Transaction) error {
	return func(tx *types.Transaction) error {
		set(rec, tx)
		return s.put(rec)
	}
}

// forget deletes the record of a transaction that was certainly not sent.
func (s *Service) forget(rec *Record) {
	if err := s.records.Delete([]byte(rec.ID)); err != nil {
		s.log.Error("deleting the record of a transaction that was not sent", zap.String("id", rec.ID), zap.Error(err))
	}
}

func (s *Service) sendFailed(err error) *apiError {
	var r refused
	if errors.As(err, &r) {
		return r.e
	}
	if errors.Is(err, errRecord) {
		s.log.Error("storing a transaction record", zap.Error(err))
		return fail(http.StatusInternalServerError, "internal_error", "the transaction's record could not be stored; nothing was sent")
	}
	s.log.Warn("sending a transaction", zap.Error(err))
	if errors.Is(err, errWouldFail) {
		return fail(http.StatusUnprocessableEntity, "transaction_would_fail", "the node's gas estimate says the transaction reverts")
	}
	return fail(http.StatusServiceUnavailable, "chain_unavailable", "the chain could not take the transaction; retry")
}

// setTx records tx as rec's transaction.
func setTx(rec *Record, tx *types.Transaction) { rec.TxHash = tx.Hash().Hex() }

// POST /api/v1/transactions {name, data:{to, value, data?}}
func (s *Service) transaction(r *http.Request) (*Record, *apiError) {
	var body struct {
		Name string `json:"name"`
		Data struct {
			To    string      `json:"to"`
			Value json.Number `json:"value"`
			Data  string      `json:"data,omitempty"`
		} `json:"data"`
	}
	keyID, aerr := s.authorize(r)
	if aerr != nil {
		return nil, aerr
	}
	if err := decode(r, &body); err != nil {
		return nil, err
	}
	if err := checkName(body.Name); err != nil {
		return nil, err
	}
	to, aerr := parseAddress("data.to", body.Data.To)
	if aerr != nil {
		return nil, aerr
	}
	value, aerr := parseDecimal("value", body.Data.Value, 18)
	if aerr != nil {
		return nil, aerr
	}
	if value.Cmp(s.conf().MaxValue) > 0 {
		return nil, fail(http.StatusBadRequest, "value_too_large", "value %s exceeds the limit of %s", body.Data.Value, formatDecimal(s.conf().MaxValue, 18))
	}
	var data []byte
	if body.Data.Data != "" {
		var err error
		if data, err = hexutil.Decode(body.Data.Data); err != nil {
			return nil, fail(http.StatusBadRequest, "invalid_data", "data.data: want 0x hex bytes")
		}
	}
	rec := &Record{ID: newID(), Kind: "transaction", Name: body.Name, From: s.from.Hex(), To: to.Hex(),
		Value: formatDecimal(value, 18), Status: "pending", Created: s.conf().Now().UTC()}
	charge := func(cost *big.Int) (func(), *apiError) { return s.charge(keyID, cost) }
	if _, err := s.send(r.Context(), sender.Call{To: to, Value: value, Data: data}, charge, s.recorder(rec, setTx)); err != nil {
		if !maybeSent(err) {
			s.forget(rec)
		}
		return nil, s.sendFailed(err)
	}
	return rec, nil
}

// POST /api/v1/sendMessage {name, data:{to, message}}
func (s *Service) message(r *http.Request) (*Record, *apiError) {
	var body struct {
		Name string `json:"name"`
		Data struct {
			To      string `json:"to"`
			Message string `json:"message"`
		} `json:"data"`
	}
	keyID, aerr := s.authorize(r)
	if aerr != nil {
		return nil, aerr
	}
	if err := decode(r, &body); err != nil {
		return nil, err
	}
	if err := checkName(body.Name); err != nil {
		return nil, err
	}
	to, aerr := parseAddress("data.to", body.Data.To)
	if aerr != nil {
		return nil, aerr
	}
	if body.Data.Message == "" {
		return nil, fail(http.StatusBadRequest, "invalid_message", "data.message is empty")
	}
	if len(body.Data.Message) > s.conf().MaxMessage {
		return nil, fail(http.StatusBadRequest, "message_too_large", "data.message is %d bytes; the limit is %d bytes of UTF-8", len(body.Data.Message), s.conf().MaxMessage)
	}
	rec := &Record{ID: newID(), Kind: "message", Name: body.Name, From: s.from.Hex(), To: to.Hex(),
		Value: "0", Message: body.Data.Message, Status: "pending", Created: s.conf().Now().UTC()}
	charge := func(cost *big.Int) (func(), *apiError) { return s.charge(keyID, cost) }
	if _, err := s.send(r.Context(), sender.Call{To: to, Data: []byte(body.Data.Message)}, charge, s.recorder(rec, setTx)); err != nil {
		if !maybeSent(err) {
			s.forget(rec)
		}
		return nil, s.sendFailed(err)
	}
	return rec, nil
}

// POST /api/v1/userFaucet {name, address, amount, gasPrice}
func (s *Service) faucetRequest(r *http.Request) (*Record, *apiError) {
	var body struct {
		Name     string      `json:"name"`
		Address  string      `json:"address"`
		Amount   json.Number `json:"amount"`
		GasPrice json.Number `json:"gasPrice"`
	}
	if err := decode(r, &body); err != nil {
		return nil, err
	}
	if err := checkName(body.Name); err != nil {
		return nil, err
	}
	to, aerr := parseAddress("address", body.Address)
	if aerr != nil {
		return nil, aerr
	}
	amount, aerr := parseDecimal("amount", body.Amount, int(s.conf().TokenDecimals))
	if aerr != nil {
		return nil, aerr
	}
	if amount.Cmp(s.conf().FaucetMaxAmount) > 0 {
		return nil, fail(http.StatusBadRequest, "amount_too_large", "amount %s exceeds the faucet's limit of %s", body.Amount, formatDecimal(s.conf().FaucetMaxAmount, int(s.conf().TokenDecimals)))
	}
	gasPrice, aerr := parseDecimal("gasPrice", body.GasPrice, 9) // gwei
	if aerr != nil {
		return nil, aerr
	}
	if gasPrice.Cmp(s.conf().FaucetMaxGasPrice) > 0 {
		return nil, fail(http.StatusBadRequest, "gas_price_too_high", "gasPrice %s gwei exceeds the limit of %s gwei", body.GasPrice, formatDecimal(s.conf().FaucetMaxGasPrice, 9))
	}
	head, err := s.conf().Chain.HeaderByNumber(r.Context(), nil)
	if err != nil {
		return nil, s.sendFailed(err)
	}
	if gasPrice.Cmp(head.BaseFee) < 0 {
		return nil, fail(http.StatusBadRequest, "gas_price_too_low", "gasPrice %s gwei is below the network's base fee of %s gwei", body.GasPrice, formatDecimal(head.BaseFee, 9))
	}
	if ceiling := gasCeiling(head.BaseFee); gasPrice.Cmp(ceiling) > 0 {
		return nil, fail(http.StatusBadRequest, "gas_price_too_high", "gasPrice %s gwei is over the network's ceiling of %s gwei (three times the base fee plus 2 gwei)", body.GasPrice, formatDecimal(ceiling, 9))
	}

	// The draw is counted before the tokens are sent, in the store that
	// every replica shares, and given back if they never left.
	now := s.conf().Now()
	release, aerr := s.admitFaucet(now, to, s.clientOf(r))
	if aerr != nil {
		return nil, aerr
	}
	cfg := s.conf()
	rec := &Record{ID: newID(), Kind: "faucet", Name: body.Name, From: s.from.Hex(), To: to.Hex(),
		Value: "0", Amount: formatDecimal(amount, int(cfg.TokenDecimals)), Token: cfg.Token.Hex(),
		Status: "pending", Created: now.UTC()}
	transfer := sender.Call{To: cfg.Token, Data: contracts.NewDevUSD().PackTransfer(to, amount), FeeCap: gasPrice}
	if _, err := s.send(r.Context(), transfer, nil, s.recorder(rec, setTx)); err != nil {
		if !maybeSent(err) {
			s.forget(rec)
			release()
		}
		return nil, s.sendFailed(err)
	}
	// The gas money: the record names it before it is sent, and again
	// without it if it certainly was not.
	native := sender.Call{To: to, Value: cfg.FaucetNative, FeeCap: gasPrice}
	setNative := func(rec *Record, tx *types.Transaction) {
		rec.NativeTxHash, rec.Value = tx.Hash().Hex(), formatDecimal(cfg.FaucetNative, 18)
	}
	if _, err := s.send(r.Context(), native, nil, s.recorder(rec, setNative)); err != nil {
		s.log.Warn("sending faucet gas money", zap.Error(err))
		if !maybeSent(err) {
			rec.NativeTxHash, rec.Value = "", "0"
			if err := s.put(rec); err != nil {
				s.log.Error("storing a faucet record without its gas money", zap.String("id", rec.ID), zap.Error(err))
			}
		}
	}
	return rec, nil
}

// GET /api/v1/transactions/{id}: the record, its status following the
// receipt.
func (s *Service) lookup(ctx context.Context, id string) (*Record, *apiError) {
	raw, err := s.records.Get([]byte(id))
	if err != nil {
		return nil, fail(http.StatusInternalServerError, "internal_error", "the records could not be read")
	}
	if raw == nil {
		return nil, fail(http.StatusNotFound, "not_found", "no transaction %q", id)
	}
	var rec Record
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, fail(http.StatusInternalServerError, "internal_error", "the record could not be read")
	}
	if rec.Status == "pending" {
		receipt, err := s.conf().Chain.TransactionReceipt(ctx, common.HexToHash(rec.TxHash))
		switch {
		case err == nil:
			rec.Status, rec.BlockNumber = "confirmed", receipt.BlockNumber.Uint64()
			if receipt.Status == 0 {
				rec.Status = "failed"
			}
			if raw, err := json.Marshal(&rec); err == nil {
				s.records.Put([]byte(rec.ID), raw)
			}
		case !errors.Is(err, ethereum.NotFound):
			s.log.Debug("reading a receipt", zap.Error(err))
		}
	}
	return &rec, nil
}
