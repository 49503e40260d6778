// Package clientaddr names the client a per-client limit counts: the
// anonymous sponsorship budget of the facilitator's /sponsor, the faucet of
// /api/v1 and any other limit keyed by where a request comes from.
//
// A limit keyed by the whole client address is cheap to escape on IPv6: one
// subscriber is routinely given a /64, 2^64 addresses, and can send each
// request from a new one. Key therefore counts an IPv6 client by its /64,
// the smallest prefix a network hands to one subscriber, and an IPv4 client
// by its whole address. An IPv4 address written as IPv4-mapped IPv6
// (::ffff:1.2.3.4, as a dual-stack listener reports it) is the IPv4 client
// it maps, so the two spellings share one count. A zone (fe80::1%eth0)
// names an interface, not a client, and is dropped.
package clientaddr

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// IPv6Prefix is the prefix length an IPv6 client is counted by.
const IPv6Prefix = 64

// Key is the name under which a per-client limit counts the client at
// addr: an IPv4 address as itself ("192.0.2.1"), an IPv6 address as its
// /64 ("2001:db8:1:2::/64"), an IPv4-mapped IPv6 address as its IPv4
// address. addr may carry a port ("[2001:db8::1]:443", "192.0.2.1:80") or
// a zone. What is not an IP address (a Unix socket's name, say) is
// returned as given, so that it is still one client.
func Key(addr string) string {
	ip, ok := parse(addr)
	if !ok {
		return addr
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, err := ip.Prefix(IPv6Prefix)
	if err != nil { // cannot happen for a valid IPv6 address
		return ip.String()
	}
	return p.String()
}

// parse reads addr as an IP address, with or without a port; a /64 that
// Key returned reads as its first address, so Key(Key(a)) == Key(a).
func parse(addr string) (netip.Addr, bool) {
	addr = strings.TrimSpace(addr)
	if ip, err := netip.ParseAddr(addr); err == nil {
		return ip, true
	}
	if host, _, err := net.SplitHostPort(addr); err == nil {
		if ip, err := netip.ParseAddr(host); err == nil {
			return ip, true
		}
	}
	if p, err := netip.ParsePrefix(addr); err == nil && p.Addr().Is6() && p.Bits() == IPv6Prefix {
		return p.Addr(), true
	}
	if ip, err := netip.ParseAddr(strings.Trim(addr, "[]")); err == nil {
		return ip, true
	}
	return netip.Addr{}, false
}

// FromRequest is the key of r's direct peer (its RemoteAddr), for a
// server that no proxy fronts. Behind a proxy, pass the address the proxy
// vouches for to Key instead (Caddy's client IP, which honours its
// trusted_proxies).
func FromRequest(r *http.Request) string { return Key(r.RemoteAddr) }
