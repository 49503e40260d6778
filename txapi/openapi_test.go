package txapi

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestOpenAPIListsEveryErrorCode keeps openapi.yaml honest: every error code
// the handlers can answer is documented there.
func TestOpenAPIListsEveryErrorCode(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("handler.go")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("openapi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	codes := regexp.MustCompile(`fail\(http\.Status\w+, "(\w+)"`).FindAllStringSubmatch(string(src), -1)
	if len(codes) < 10 {
		t.Fatalf("found only %d codes in handler.go", len(codes))
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
