package x402

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// specTable returns the first column of the Markdown table that follows the
// heading in the spec, skipping the header and separator rows.
func specTable(t *testing.T, spec []byte, heading string) []string {
	t.Helper()
	sc := bufio.NewScanner(bytes.NewReader(spec))
	var (
		found bool
		rows  []string
	)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !found {
			found = line == heading
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				break
			}
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		rows = append(rows, strings.TrimSpace(cells[0]))
	}
	if !found || len(rows) < 3 {
		t.Fatalf("spec has no table under %q", heading)
	}
	return rows[2:] // header and separator
}

func readSpec(t *testing.T) []byte {
	t.Helper()
	spec, err := os.ReadFile(filepath.Join("testdata", "spec.md"))
	if err != nil {
		t.Fatal(err)
	}
	return spec
}

// TestSpecCopyIsCurrent checks the vendored spec against the shared one when
// the shared one is beside the checkout (as it is in CI and development).
func TestSpecCopyIsCurrent(t *testing.T) {
	t.Parallel()
	shared, err := os.ReadFile(filepath.Join("..", "..", "shared", "spec", "facilitator-and-paymaster.md"))
	if err != nil {
		t.Skipf("shared spec not beside the checkout: %v", err)
	}
	if !bytes.Equal(shared, readSpec(t)) {
		t.Fatal("x402/testdata/spec.md differs from ../shared/spec/facilitator-and-paymaster.md; copy it again and update the codes")
	}
}

func TestCodesMatchSpec(t *testing.T) {
	t.Parallel()
	spec := readSpec(t)

	t.Run("invalidReason", func(t *testing.T) {
		t.Parallel()
		var got []string
		for _, r := range InvalidReasons {
			got = append(got, string(r))
		}
		if want := specTable(t, spec, "### /verify: invalidReason values"); !slices.Equal(got, want) {
			t.Errorf("InvalidReasons = %q, spec says %q", got, want)
		}
	})
	t.Run("errorCode", func(t *testing.T) {
		t.Parallel()
		var got []string
		for _, c := range ErrorCodes {
			got = append(got, string(c))
		}
		if want := specTable(t, spec, "### /settle: errorCode values"); !slices.Equal(got, want) {
			t.Errorf("ErrorCodes = %q, spec says %q", got, want)
		}
	})
	t.Run("paymaster", func(t *testing.T) {
		t.Parallel()
		var got []string
		for _, c := range RPCErrorCodes {
			got = append(got, strconv.Itoa(int(c)))
		}
		if want := specTable(t, spec, "### Paymaster JSON-RPC error codes"); !slices.Equal(got, want) {
			t.Errorf("RPCErrorCodes = %q, spec says %q", got, want)
		}
	})
}

func TestRetryClasses(t *testing.T) {
	t.Parallel()
	for _, c := range ErrorCodes {
		want := c == ErrorBundlerUnreachable || c == ErrorReceiptTimeout
		if c.Transient() != want {
			t.Errorf("%s.Transient() = %v, want %v", c, c.Transient(), want)
		}
	}
	for _, c := range RPCErrorCodes {
		want := c == -32503 || c == -32504
		if c.Retryable() != want {
			t.Errorf("%d.Retryable() = %v, want %v", c, c.Retryable(), want)
		}
	}
}
