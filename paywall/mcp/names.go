package mcp

import (
	"strings"
	"unicode"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// foldName is the form in which two tool names that a person (or a
// lenient server) could take for one another are equal: compatibility
// normalized (NFKC), case folded, and without format characters (zero
// width joiners, bidirectional marks). Priced tools are matched by their
// exact names; a call whose name is not a priced tool's but folds to one
// is refused, so that no spelling of a priced tool reaches the upstream
// unpaid, whatever the upstream does with names.
func foldName(name string) string {
	name = strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	return cases.Fold().String(norm.NFKC.String(name))
}
