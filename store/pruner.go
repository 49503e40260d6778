package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"go.uber.org/zap"
)

// DefaultPruneInterval is how often a Pruner prunes by default.
const DefaultPruneInterval = time.Hour

// PrunerConfig configures a Pruner.
type PrunerConfig struct {
	// Store is the store whose final records are pruned: any Backend.
	// Required.
	Store FinalPruner
	// Retention is how long a final record is kept after it became final.
	// It must be at least MinRetention.
	Retention time.Duration
	// Interval is the time between two passes; default
	// DefaultPruneInterval.
	Interval time.Duration
	// Logger receives a line for each pass that pruned records, and the
	// errors of passes; nil means none.
	Logger *zap.Logger
	// Now is the clock the cutoff is taken from; nil means time.Now.
	Now func() time.Time
}

// Validate reports what is wrong with the configuration.
func (c PrunerConfig) Validate() error {
	switch {
	case c.Store == nil:
		return errors.New("pruner: no store")
	case c.Retention < MinRetention:
		return fmt.Errorf("pruner: retention %s is shorter than the minimum of %s", c.Retention, MinRetention)
	case c.Interval < 0:
		return fmt.Errorf("pruner: interval %s is negative", c.Interval)
	}
	return nil
}

// Pruner deletes a store's final settlement records once they are older
// than the retention, in the background: a pass when it starts, then one
// every interval. A pass deletes every such record, in the store's short
// write transactions (see FinalPruner). Each replica of a fleet may run
// one on the shared store: their passes delete disjoint records. Its owner
// closes it before the store.
type Pruner struct {
	cfg PrunerConfig
	log *zap.Logger

	// ctx ends when Close starts; it bounds the loop and its passes.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex // guards started and closed, so wg.Add never races Close's Wait
	started bool
	closed  bool
}

// NewPruner returns a Pruner of cfg; Start starts it.
func NewPruner(cfg PrunerConfig) (*Pruner, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.Interval == 0 {
		cfg.Interval = DefaultPruneInterval
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	log := cfg.Logger
	if log == nil {
		log = zap.NewNop()
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Pruner{cfg: cfg, log: log, ctx: ctx, cancel: cancel}, nil
}

// Start starts the pruning loop: a pass at once, then one every
// interval, until Close. Calls after the first, or after Close, do
// nothing.
func (p *Pruner) Start() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.started || p.closed {
		return
	}
	p.started = true
	p.wg.Add(1)
	go p.loop()
}

// loop runs a pass, then one every interval, until Close.
func (p *Pruner) loop() {
	defer p.wg.Done()
	t := time.NewTicker(p.cfg.Interval)
	defer t.Stop()
	for p.ctx.Err() == nil {
		p.Prune(p.ctx)
		select {
		case <-p.ctx.Done():
		case <-t.C:
		}
	}
}

// Prune runs one pass now: it deletes every final record that became
// final more than the retention ago, logs how many, and returns that
// number. It stops early, with an error, when ctx ends or Close starts.
func (p *Pruner) Prune(ctx context.Context) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(p.ctx, cancel)
	defer stop()
	start := p.cfg.Now()
	cutoff := start.Add(-p.cfg.Retention)
	n, err := p.cfg.Store.PruneFinal(ctx, cutoff, math.MaxInt)
	if n > 0 {
		p.log.Info("pruned final settlement records",
			zap.Int("records", n), zap.Time("final_before", cutoff), zap.Duration("took", p.cfg.Now().Sub(start)))
	}
	if err != nil && p.ctx.Err() == nil {
		p.log.Warn("pruning final settlement records", zap.Int("records", n), zap.Error(err))
	}
	return n, err
}

// Close stops the loop, ending a pass under way between two of its
// transactions, and waits for it. It is idempotent and returns nil.
func (p *Pruner) Close() error {
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	p.cancel()
	p.wg.Wait()
	return nil
}
