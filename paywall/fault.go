//go:build !x402faults

package paywall

// fault is a fault-injection point: a test binary built with the
// x402faults tag may kill its process there (see fault_x402faults.go).
// In every other build it is empty, and the compiler removes its calls.
func fault(point string) {}
