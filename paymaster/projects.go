package paymaster

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"time"
	"unicode/utf8"
)

// KV is a key-value space with atomic updates, for the project store and
// the keys' usage. A bucket of the facilitator's store (store.KV) has these
// methods; the PostgreSQL store's Update is atomic across processes.
type KV interface {
	// Get returns the value of key, or nil if there is none.
	Get(key []byte) ([]byte, error)
	// ForEach calls fn for every entry until fn fails; fn must not write.
	ForEach(fn func(key, value []byte) error) error
	// Update atomically replaces the value of key with what fn returns for
	// the current one (nil if there is none). If fn returns nil or an
	// error, nothing is written; the error is returned, possibly wrapped.
	// fn may run more than once.
	Update(key []byte, fn func(old []byte) ([]byte, error)) error
}

// Limits are a stored project's limits, as CreateProject and EditProject
// take them: zero values (0, nil) take the defaults of Project's fields of
// the same names. In a ProjectInfo they are the limits in force, with the
// defaults applied.
type Limits struct {
	// TxPerMinute is how many operations per minute one sender may have
	// sponsored; default 30.
	TxPerMinute int
	// MaxInFlight is how many sponsored operations may be pending at once;
	// default 50.
	MaxInFlight int
	// CallsPerMinute is how many JSON-RPC calls one API key of the project
	// may make per minute, whatever their outcome; default 120.
	CallsPerMinute int
	// DailyGasCap bounds the wei charged per UTC day; default the funding.
	DailyGasCap *big.Int
	// MaxFeePerGas is the highest maxFeePerGas sponsored; nil derives it
	// from the network, also in a ProjectInfo.
	MaxFeePerGas *big.Int
	// MaxOpCost bounds one operation's maximum cost in wei; default 1% of
	// DailyGasCap.
	MaxOpCost *big.Int
}

// Errors of the project API, for the caller to branch on.
var (
	// ErrUnknownProject: no project, configured or stored, has the name.
	ErrUnknownProject = errors.New("unknown project")
	// ErrProjectExists: CreateProject was given a name already taken by
	// a stored or a configured project.
	ErrProjectExists = errors.New("a project of that name exists")
	// ErrConfiguredProject: the project's limits come from the Caddyfile,
	// so they are edited there, not through EditProject.
	ErrConfiguredProject = errors.New("the project is configured in the Caddyfile: edit its limits there and reload the configuration")
	// ErrNoProjectStore: the Service has no Config.ProjectStore, so it
	// cannot create projects.
	ErrNoProjectStore = errors.New("no project store is configured: projects come from the Caddyfile only")
	// ErrInvalid: an argument of a project's creation, edit or top-up, or
	// of a key's creation or rotation, is not valid (a name, a network,
	// limits, an amount, a note, scopes); the message says which and why.
	ErrInvalid = errors.New("invalid argument")
)

// invalidError is an ErrInvalid with its own message.
type invalidError string

func (e invalidError) Error() string { return string(e) }

// Is makes errors.Is(err, ErrInvalid) hold.
func (invalidError) Is(target error) bool { return target == ErrInvalid }

func invalidf(format string, args ...any) error {
	return invalidError(fmt.Sprintf(format, args...))
}

// MaxNoteLength is the most characters a top-up's note may have.
const MaxNoteLength = 200

// ValidateProjectName reports whether name may name a stored project: 1 to
// 64 characters of a-z, 0-9, _ and -.
func ValidateProjectName(name string) error {
	ok := len(name) >= 1 && len(name) <= 64
	for i := 0; ok && i < len(name); i++ {
		c := name[i]
		ok = c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-'
	}
	if !ok {
		return invalidf("project name %q: want 1 to 64 characters of a-z, 0-9, _ and -", name)
	}
	return nil
}

func validateNetwork(network string) error {
	if network != NetworkTestnet && network != NetworkMainnet {
		return invalidf("network %q: want %s or %s", network, NetworkTestnet, NetworkMainnet)
	}
	return nil
}

func (l *Limits) validate() error {
	if l.TxPerMinute < 0 || l.MaxInFlight < 0 || l.CallsPerMinute < 0 {
		return invalidf("limits: TxPerMinute, MaxInFlight and CallsPerMinute must not be negative (0 is the default)")
	}
	for _, v := range []struct {
		name string
		v    *big.Int
	}{{"DailyGasCap", l.DailyGasCap}, {"MaxFeePerGas", l.MaxFeePerGas}, {"MaxOpCost", l.MaxOpCost}} {
		if v.v != nil && v.v.Sign() < 0 {
			return invalidf("limits: %s %s must not be negative (nil is the default)", v.name, v.v)
		}
	}
	return nil
}

// recordVersion is written into every stored project; a record of another
// version is refused rather than misread.
const recordVersion = 1

// projectRecord is a stored project's record, under its name.
type projectRecord struct {
	V            int       `json:"v"`
	Network      string    `json:"network"`
	TxPerMinute  int       `json:"txPerMinute,omitempty"`
	MaxInFlight  int       `json:"maxInFlight,omitempty"`
	CallsPerMin  int       `json:"callsPerMinute,omitempty"`
	DailyGasCap  *big.Int  `json:"dailyGasCap,omitempty"`
	MaxFeePerGas *big.Int  `json:"maxFeePerGas,omitempty"`
	MaxOpCost    *big.Int  `json:"maxOpCost,omitempty"`
	Created      time.Time `json:"created"`
	Updated      time.Time `json:"updated"`
}

func (r *projectRecord) setLimits(l Limits) {
	r.TxPerMinute, r.MaxInFlight, r.CallsPerMin = l.TxPerMinute, l.MaxInFlight, l.CallsPerMinute
	r.DailyGasCap, r.MaxFeePerGas, r.MaxOpCost = cloneInt(l.DailyGasCap), cloneInt(l.MaxFeePerGas), cloneInt(l.MaxOpCost)
}

func decodeStored(name string, raw []byte) (*projectRecord, error) {
	var r projectRecord
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("decoding stored project %q: %w", name, err)
	}
	if r.V != recordVersion {
		return nil, fmt.Errorf("stored project %q has version %d; this paymaster reads version %d", name, r.V, recordVersion)
	}
	return &r, nil
}

// definition is the project a record defines.
func (r *projectRecord) definition(name string) *project {
	p := newProject(Project{Name: name, TxPerMinute: r.TxPerMinute, MaxInFlight: r.MaxInFlight, CallsPerMinute: r.CallsPerMin, DailyGasCap: r.DailyGasCap, MaxFeePerGas: r.MaxFeePerGas, MaxOpCost: r.MaxOpCost}, r.Network)
	p.stored, p.created, p.updated = true, r.Created, r.Updated
	return p
}

// lookup returns a project's definition in force: a configured one, else
// a stored one as the store holds it now; nil if there is neither.
func (s *Service) lookup(name string) (*project, error) {
	if p := s.project(name); p != nil {
		return p, nil
	}
	if s.cfg.ProjectStore == nil || name == "" {
		return nil, nil
	}
	raw, err := s.cfg.ProjectStore.Get([]byte(name))
	if err != nil {
		return nil, fmt.Errorf("reading stored project %q: %w", name, err)
	}
	if raw == nil {
		return nil, nil
	}
	r, err := decodeStored(name, raw)
	if err != nil {
		return nil, err
	}
	return r.definition(name), nil
}

// storedProjects returns every stored project, of either network, in
// name order.
func (s *Service) storedProjects() ([]*project, error) {
	if s.cfg.ProjectStore == nil {
		return nil, nil
	}
	var out []*project
	err := s.cfg.ProjectStore.ForEach(func(k, v []byte) error {
		r, err := decodeStored(string(k), v)
		if err != nil {
			return err
		}
		out = append(out, r.definition(string(k)))
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading the stored projects: %w", err)
	}
	slices.SortFunc(out, func(a, b *project) int { return cmp.Compare(a.cfg.Name, b.cfg.Name) })
	return out, nil
}

// CreateProject stores a new project named name (see
// ValidateProjectName) on network ("testnet" or "mainnet"; "" is the
// Service's), with limits l. It starts with no funding, so it sponsors
// nothing until it is topped up (TopUp); only a Service of its network
// sponsors for it. The name may not be a configured project's, and every
// Service sharing the project store sees the project at its next request.
func (s *Service) CreateProject(name, network string, l Limits) error {
	if s.cfg.ProjectStore == nil {
		return ErrNoProjectStore
	}
	if network == "" {
		network = s.cfg.Network
	}
	if err := errors.Join(ValidateProjectName(name), validateNetwork(network), l.validate()); err != nil {
		return err
	}
	if s.project(name) != nil {
		return fmt.Errorf("creating project %q: it is configured in the Caddyfile: %w", name, ErrProjectExists)
	}
	now := s.cfg.Now().UTC()
	rec := projectRecord{V: recordVersion, Network: network, Created: now, Updated: now}
	rec.setLimits(l)
	raw, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("creating project %q: %w", name, err)
	}
	err = s.cfg.ProjectStore.Update([]byte(name), func(old []byte) ([]byte, error) {
		if old != nil {
			return nil, ErrProjectExists
		}
		return raw, nil
	})
	if err != nil {
		return fmt.Errorf("creating project %q: %w", name, err)
	}
	return nil
}

// EditProject replaces a stored project's limits with l. The next request
// on every Service sharing the project store is held to them. A configured
// project's limits are edited in the Caddyfile: it returns an error
// wrapping ErrConfiguredProject.
func (s *Service) EditProject(name string, l Limits) error {
	if err := l.validate(); err != nil {
		return err
	}
	if s.project(name) != nil {
		return fmt.Errorf("editing project %q: %w", name, ErrConfiguredProject)
	}
	if s.cfg.ProjectStore == nil {
		return fmt.Errorf("editing project %q: %w", name, ErrUnknownProject)
	}
	now := s.cfg.Now().UTC()
	err := s.cfg.ProjectStore.Update([]byte(name), func(old []byte) ([]byte, error) {
		if old == nil {
			return nil, ErrUnknownProject
		}
		r, err := decodeStored(name, old)
		if err != nil {
			return nil, err
		}
		r.setLimits(l)
		r.Updated = now
		return json.Marshal(r)
	})
	if err != nil {
		return fmt.Errorf("editing project %q: %w", name, err)
	}
	return nil
}

// TopUp records that amount wei (more than 0) was added to a project's
// funding, configured or stored, with a note of at most MaxNoteLength
// characters for the record. It adds to the project's ledger record in
// one atomic update, so top-ups made at once on several Services all
// count, and it applies to the next request.
func (s *Service) TopUp(name string, amount *big.Int, note string) error {
	if amount == nil || amount.Sign() <= 0 {
		return invalidf("top-up of %v wei: want a positive amount", amount)
	}
	if !utf8.ValidString(note) || utf8.RuneCountInString(note) > MaxNoteLength {
		return invalidf("top-up note: want at most %d characters of UTF-8", MaxNoteLength)
	}
	p, err := s.lookup(name)
	if err != nil {
		return fmt.Errorf("topping up project %q: %w", name, err)
	}
	if p == nil {
		return fmt.Errorf("topping up project %q: %w", name, ErrUnknownProject)
	}
	now := s.cfg.Now()
	return s.updateProject(name, func(l *projectLedger) (bool, error) {
		l.topUp(amount, note, now)
		return true, nil
	})
}

// CreateKey makes an API key for a project, configured or stored, on the
// project's network, and returns the secret, which is shown once and never
// stored. An unknown project is an error wrapping ErrUnknownProject.
func (s *Service) CreateKey(project string, scopes []string) (secret string, rec *Key, err error) {
	p, err := s.lookup(project)
	if err != nil {
		return "", nil, fmt.Errorf("creating a key: %w", err)
	}
	if p == nil {
		return "", nil, fmt.Errorf("creating a key for project %q: %w", project, ErrUnknownProject)
	}
	return s.keys.Create(project, p.network, scopes)
}

// TopUp is a recorded addition to a project's funding.
type TopUp struct {
	// At is when it was recorded.
	At time.Time
	// Amount is in wei.
	Amount *big.Int
	// Note is the operator's note.
	Note string
}

// DaySpend is what a project was charged in one UTC day: the maximum cost
// of the operations sponsored that day, less their refunds.
type DaySpend struct {
	// Day is the day's start (00:00 UTC).
	Day time.Time
	// Spent is in wei.
	Spent *big.Int
}

// ProjectInfo describes a project and its counters, for an operator.
type ProjectInfo struct {
	// Name is the project's name.
	Name string
	// Network is "testnet" or "mainnet"; a configured project's is the
	// Service's.
	Network string
	// Configured projects come from the Caddyfile (Config.Projects); the
	// others are stored (CreateProject).
	Configured bool
	// Limits are the limits in force, with the defaults applied.
	Limits Limits
	// Funded is the funding: the configured Balance (0 for a stored
	// project) plus the top-ups.
	Funded *big.Int
	// Balance is what is left of Funded; negative if the funding was
	// lowered below what has been charged.
	Balance *big.Int
	// SpentToday is what was charged in the current UTC day; it counts
	// against Limits.DailyGasCap.
	SpentToday *big.Int
	// InFlight is how many sponsored operations are pending.
	InFlight int
	// Created and Updated are when a stored project was made and its
	// limits last edited; zero for a configured project.
	Created, Updated time.Time
	// Daily is the spend of the last 30 UTC days, oldest first, today
	// last; days without spend are 0.
	Daily []DaySpend
	// TopUps are the latest top-ups, newest first.
	TopUps []TopUp
}

// DescribeProjects describes every project, configured and stored (of
// either network), sorted by name, after releasing the operations that
// landed or expired. A stored project that a configured one of the same
// name shadows is left out.
func (s *Service) DescribeProjects(ctx context.Context) ([]ProjectInfo, error) {
	now := s.cfg.Now()
	s.refresh(ctx, now, true)
	stored, err := s.storedProjects()
	if err != nil {
		return nil, err
	}
	var defs []*project
	configured := map[string]bool{}
	for _, name := range s.configuredNames() {
		if p := s.project(name); p != nil {
			defs, configured[name] = append(defs, p), true
		}
	}
	for _, p := range stored {
		if !configured[p.cfg.Name] {
			defs = append(defs, p)
		}
	}
	slices.SortFunc(defs, func(a, b *project) int { return cmp.Compare(a.cfg.Name, b.cfg.Name) })
	out := make([]ProjectInfo, 0, len(defs))
	for _, p := range defs {
		l, err := s.loadProject(p.cfg.Name)
		if err != nil {
			return nil, err
		}
		out = append(out, describe(p, l, now))
	}
	return out, nil
}

// DescribeProject describes one project, as DescribeProjects does; an
// unknown one is an error wrapping ErrUnknownProject.
func (s *Service) DescribeProject(ctx context.Context, name string) (ProjectInfo, error) {
	now := s.cfg.Now()
	s.refresh(ctx, now, true)
	p, err := s.lookup(name)
	if err != nil {
		return ProjectInfo{}, err
	}
	if p == nil {
		return ProjectInfo{}, fmt.Errorf("project %q: %w", name, ErrUnknownProject)
	}
	l, err := s.loadProject(name)
	if err != nil {
		return ProjectInfo{}, err
	}
	return describe(p, l, now), nil
}

// describe is p's description over its counters l, as of now. It rolls
// l's day, so l is a copy read for it.
func describe(p *project, l *projectLedger, now time.Time) ProjectInfo {
	l.roll(now)
	info := ProjectInfo{
		Name: p.cfg.Name, Network: p.network, Configured: !p.stored, Limits: p.limits(l),
		Funded: l.funded(p.cfg.Balance), Balance: l.balance(p.cfg.Balance), SpentToday: new(big.Int).Set(l.Spent),
		InFlight: len(l.Reservations), Created: p.created, Updated: p.updated,
	}
	lim := &info.Limits
	lim.DailyGasCap, lim.MaxFeePerGas, lim.MaxOpCost = cloneInt(lim.DailyGasCap), cloneInt(lim.MaxFeePerGas), cloneInt(lim.MaxOpCost)
	u := now.UTC()
	today := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	spent := make(map[string]*big.Int, len(l.History)+1)
	for _, h := range l.History {
		spent[h.Day] = h.Spent
	}
	spent[l.Day] = l.Spent
	info.Daily = make([]DaySpend, historyDays)
	for i := range info.Daily {
		d := today.AddDate(0, 0, i-(historyDays-1))
		v := new(big.Int)
		if x, ok := spent[day(d)]; ok {
			v.Set(x)
		}
		info.Daily[i] = DaySpend{Day: d, Spent: v}
	}
	info.TopUps = make([]TopUp, 0, len(l.TopUps))
	for _, t := range slices.Backward(l.TopUps) {
		info.TopUps = append(info.TopUps, TopUp{At: t.At, Amount: new(big.Int).Set(t.Amount), Note: t.Note})
	}
	return info
}
