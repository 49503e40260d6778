package tokens

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestTokensDocTable: docs/tokens.md lists every token of the table, as
// the table has it.
func TestTokensDocTable(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/tokens.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := 0
	for _, line := range strings.Split(string(doc), "\n") {
		if strings.HasPrefix(line, "| `eip155:") {
			rows++
		}
	}
	for _, tok := range All() {
		row := fmt.Sprintf("| `%s` | %s | %s | `%s` | %s | %s | %d | %s |", tok.Network, tok.Chain, tok.Symbol, tok.Address.Hex(), tok.Name, tok.Version, tok.Decimals, tok.Peg)
		if !strings.Contains(string(doc), row+"\n") {
			t.Errorf("docs/tokens.md lacks the row\n%s", row)
		}
	}
	if rows != len(All()) {
		t.Errorf("docs/tokens.md has %d rows, the table %d tokens", rows, len(All()))
	}
}
