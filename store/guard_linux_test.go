package store

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A read of a mapped page the file no longer covers raises SIGBUS, which
// kills a Go program unless the goroutine asked to panic on faults.
func TestGuardTurnsAFaultIntoAnError(t *testing.T) {
	t.Parallel()
	f, err := os.Create(filepath.Join(t.TempDir(), "mapped"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(int64(os.Getpagesize())); err != nil {
		t.Fatal(err)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, os.Getpagesize(), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Munmap(data)
	if err := f.Truncate(0); err != nil {
		t.Fatal(err)
	}
	err = guard(func() error {
		if data[0] != 0 {
			return errors.New("the truncated page reads as data")
		}
		return nil
	})
	if !errors.Is(err, errPanicked) {
		t.Fatalf("guard = %v", err)
	}
	if err := guard(func() error { panic("assertion failed") }); !errors.Is(err, errPanicked) {
		t.Fatalf("guard of a panic = %v", err)
	}
}
