package caddymodule

import (
	"fmt"
	"io"
	"os"
)

// maxPageTemplate bounds a paywall_template file.
const maxPageTemplate = 1 << 20

// pageTemplate reads the paywall_template file, if there is one.
func (h *Handler) pageTemplate() (string, error) {
	if h.PaywallTemplate == "" {
		return "", nil
	}
	f, err := os.Open(h.PaywallTemplate)
	if err != nil {
		return "", fmt.Errorf("x402 paywall_template: %w", err)
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxPageTemplate+1))
	if err != nil {
		return "", fmt.Errorf("x402 paywall_template: %w", err)
	}
	if len(src) > maxPageTemplate {
		return "", fmt.Errorf("x402 paywall_template %s: over %d bytes", h.PaywallTemplate, maxPageTemplate)
	}
	return string(src), nil
}
