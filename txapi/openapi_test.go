package txapi

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestOpenAPIListsEveryErrorCode keeps openapi.yaml honest: every error code
// the package's handlers can answer is documented there. CI also lints the
// document with an OpenAPI linter (txapi/lint).
func TestOpenAPIListsEveryErrorCode(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	doc, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`fail\(http\.Status\w+, "(\w+)"`).FindAllStringSubmatch(src.String(), -1)
	if len(codes) < 10 {
		t.Fatalf("found only %d codes in the package's sources", len(codes))
	}
	for _, c := range codes {
		if c[1] == "internal_error" || c[1] == "not_found" || c[1] == "method_not_allowed" || c[1] == "unsupported_media_type" || c[1] == "body_too_large" {
			continue // generic HTTP answers
		}
		if !strings.Contains(string(doc), c[1]) {
			t.Errorf("openapi.yaml does not mention %s", c[1])
		}
	}
}
