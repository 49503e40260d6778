// Command xcaddy is a Caddy binary with the standard modules plus the
// caddy-x402 modules. It is the same binary that
//
//	xcaddy build --with github.com/caddy-x402/caddy-x402
//
// produces, but builds with a plain `go build ./xcaddy` or `go run ./xcaddy`
// from a checkout of this repository.
package main

import (
	caddycmd "github.com/caddyserver/caddy/v2/cmd"

	// The standard Caddy modules.
	_ "github.com/caddyserver/caddy/v2/modules/standard"

	// caddy-x402's modules and CLI subcommands.
	_ "github.com/caddy-x402/caddy-x402/caddymodule"
)

func main() {
	caddycmd.Main()
}
