//go:build x402faults

package paywall

import (
	"os"
	"sync"
)

// The fault-injection points of a test build (go build -tags x402faults):
// a process whose X402_FAULT environment variable names a point kills
// itself there with SIGKILL, as kill -9 would, so a test can stop a real
// process exactly between two steps. Without the tag none of this is in
// the binary, and no environment variable is read.

// faultPoint is the point X402_FAULT names, read once.
var faultPoint = sync.OnceValue(func() string { return os.Getenv("X402_FAULT") })

// fault kills the process if X402_FAULT names point.
func fault(point string) {
	if point == "" || faultPoint() != point {
		return
	}
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		p.Kill()
	}
	select {} // the signal ends the process; nothing runs meanwhile
}
