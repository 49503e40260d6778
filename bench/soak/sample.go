package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// sample is the Caddy process at one moment, and the load since the
// previous sample.
type sample struct {
	label string
	at    time.Duration // since the load began

	rssKB, anonKB, fileKB int64 // VmRSS, RssAnon and RssFile of /proc/<pid>/status
	storeKB               int64 // of rssKB, the store file's mapped pages
	threads, fds          int
	goroutines            int     // go_goroutines of the admin endpoint's /metrics
	heapInuse             float64 // go_memstats_heap_inuse_bytes
	devnetRSSKB           int64
	err                   error // what could not be read

	// The load between the previous sample and this one.
	interval time.Duration
	requests int
	paid     []latency
}

// load runs the workers at the configured rate for the configured
// duration, sampling the Caddy process along the way.
func (d *driver) load(ctx context.Context) {
	lctx, cancel := context.WithTimeout(ctx, d.cfg.Duration)
	defer cancel()
	d.began = time.Now()
	tick := time.NewTicker(time.Duration(float64(time.Second) / d.cfg.Rate))
	defer tick.Stop()
	var wg sync.WaitGroup
	for range d.cfg.Concurrency {
		wg.Go(func() { d.worker(lctx, tick.C) })
	}
	d.sampleLoad(lctx)
	wg.Wait()
}

// sampleLoad takes cfg.Samples samples while the load runs: the first
// (start) after a warm-up of a tenth of the run (at most 30 s), the last
// (end) just before it ends, the others evenly between.
func (d *driver) sampleLoad(ctx context.Context) {
	n := d.cfg.Samples
	warm := min(30*time.Second, d.cfg.Duration/10)
	tail := min(5*time.Second, d.cfg.Duration/40)
	span := d.cfg.Duration - warm - tail
	prevAt, prevReq, latIdx := time.Duration(0), 0, 0
	for i := range n {
		at := warm + span*time.Duration(i)/time.Duration(n-1)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Until(d.began.Add(at))):
		}
		label := ""
		switch i {
		case 0:
			label = "start"
		case (n - 1) / 2:
			label = "middle"
		case n - 1:
			label = "end"
		}
		s := d.sample(ctx, label)
		if label != "" {
			d.saveGoroutines(ctx, label)
		}
		s.at = time.Since(d.began)
		s.interval = s.at - prevAt
		req := d.tally.requests()
		s.requests = req - prevReq
		s.paid, latIdx = d.lat.since(latIdx)
		prevAt, prevReq = s.at, req
		d.samples = append(d.samples, s)
		logf("sample %-6s at %5s: RSS %s MiB, goroutines %d, fds %d, %.0f req/s, %.1f paid/s",
			label, s.at.Round(time.Second), mib(s.rssKB), s.goroutines, s.fds, perSecond(s.requests, s.interval), perSecond(len(s.paid), s.interval))
	}
}

// sample reads the Caddy (and devnet) processes and Caddy's metrics.
func (d *driver) sample(ctx context.Context, label string) sample {
	s := sample{label: label}
	var err error
	if s.rssKB, s.anonKB, s.fileKB, s.threads, err = procStatus(d.cfg.CaddyPID); err != nil {
		s.err = err
	}
	if d.cfg.StorePath != "" {
		if s.storeKB, err = mappedKB(d.cfg.CaddyPID, d.cfg.StorePath); err != nil {
			s.err = err
		}
	}
	if ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", d.cfg.CaddyPID)); err == nil {
		s.fds = len(ents)
	}
	if d.cfg.DevnetPID > 0 {
		s.devnetRSSKB, _, _, _, _ = procStatus(d.cfg.DevnetPID)
	}
	m, err := d.metrics(ctx)
	if err != nil {
		s.err = err
		return s
	}
	s.goroutines = int(m.sum("go_goroutines", nil))
	s.heapInuse = m.sum("go_memstats_heap_inuse_bytes", nil)
	return s
}

// saveGoroutines saves Caddy's goroutine profile (the admin endpoint's
// /debug/pprof/goroutine?debug=1) as goroutines-<label>.txt in cfg.OutDir,
// to tell what a growth is made of.
func (d *driver) saveGoroutines(ctx context.Context, label string) {
	if d.cfg.OutDir == "" {
		return
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.cfg.Admin+"/debug/pprof/goroutine?debug=1", nil)
	if err != nil {
		return
	}
	resp, err := d.http.Do(req)
	if err != nil {
		logf("goroutine profile %s: %v", label, err)
		return
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err == nil {
		name := "goroutines-" + strings.NewReplacer(", ", "-", " ", "-").Replace(label) + ".txt"
		err = os.WriteFile(filepath.Join(d.cfg.OutDir, name), body, 0o644)
	}
	if err != nil {
		logf("goroutine profile %s: %v", label, err)
	}
}

// procStatus reads VmRSS, RssAnon, RssFile (kB) and Threads of a process.
func procStatus(pid int) (rss, anon, file int64, threads int, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, v, _ := strings.Cut(sc.Text(), ":")
		fields := strings.Fields(v)
		if len(fields) == 0 {
			continue
		}
		n, _ := strconv.ParseInt(fields[0], 10, 64)
		switch name {
		case "VmRSS":
			rss = n
		case "RssAnon":
			anon = n
		case "RssFile":
			file = n
		case "Threads":
			threads = int(n)
		}
	}
	return rss, anon, file, threads, sc.Err()
}

// mappedKB is the resident size (kB) of a process's mappings of one file,
// from /proc/<pid>/smaps.
func mappedKB(pid int, path string) (int64, error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/smaps", pid))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var total int64
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":"):
			// A mapping's header: range, perms, offset, dev, inode[, path].
			in = len(fields) >= 6 && fields[5] == path
		case in && len(fields) >= 2 && fields[0] == "Rss:":
			n, _ := strconv.ParseInt(fields[1], 10, 64)
			total += n
		}
	}
	return total, sc.Err()
}

// scrape is the admin endpoint's /metrics, by metric name.
type scrape map[string][]series

// series is one series of a metric.
type series struct {
	labels map[string]string
	value  float64
}

var metricLabel = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

// metrics scrapes Caddy's admin /metrics.
func (d *driver) metrics(ctx context.Context) (scrape, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.cfg.Admin+"/metrics", nil)
	if err != nil {
		return nil, err
	}
	resp, err := d.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("admin /metrics: %d", resp.StatusCode)
	}
	out := scrape{}
	for line := range strings.SplitSeq(string(body), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, rest, hasLabels := strings.Cut(line, "{")
		labels := map[string]string{}
		if hasLabels {
			set, after, _ := strings.Cut(rest, "}")
			for _, m := range metricLabel.FindAllStringSubmatch(set, -1) {
				labels[m[1]] = m[2]
			}
			rest = after
		} else {
			name, rest, _ = strings.Cut(line, " ")
		}
		fields := strings.Fields(rest)
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			continue
		}
		out[name] = append(out[name], series{labels: labels, value: v})
	}
	return out, nil
}

// sum adds the values of the series of name whose labels include want.
func (s scrape) sum(name string, want map[string]string) float64 {
	total := 0.0
	for _, se := range s[name] {
		match := true
		for k, v := range want {
			match = match && se.labels[k] == v
		}
		if match {
			total += se.value
		}
	}
	return total
}

// percentile is the p-th percentile (0-100) of ds, or 0 without any.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p / 100)
	return s[i]
}

func mib(kb int64) string { return fmt.Sprintf("%.1f", float64(kb)/1024) }

func perSecond(n int, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}
