// Package caddyx402 adds caddy-x402 to a Caddy binary: importing it
// registers the x402 app, the http.handlers.x402, x402_dashboard,
// x402_facilitator, x402_paymaster and x402_txapi handlers, the
// admin.api.x402 admin API, their Caddyfile directives and the `caddy x402`
// command. It is what
//
//	xcaddy build --with github.com/caddy-x402/caddy-x402
//
// imports. The modules themselves are in package caddymodule.
package caddyx402

import (
	// The Caddy modules and CLI command register themselves on import.
	_ "github.com/caddy-x402/caddy-x402/caddymodule"
)
