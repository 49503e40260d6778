package clientaddr

import (
	"net/http/httptest"
	"testing"
)

func TestKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, addr, want string
	}{
		{"IPv4", "192.0.2.1", "192.0.2.1"},
		{"IPv4 with port", "192.0.2.1:54321", "192.0.2.1"},
		{"IPv4 neighbours are two clients", "192.0.2.2", "192.0.2.2"},
		{"IPv4-mapped IPv6", "::ffff:1.2.3.4", "1.2.3.4"},
		{"IPv4-mapped IPv6 with port", "[::ffff:1.2.3.4]:80", "1.2.3.4"},
		{"IPv4-mapped in hex", "::ffff:0102:0304", "1.2.3.4"},
		{"IPv6", "2001:db8:1:2::1", "2001:db8:1:2::/64"},
		{"IPv6 same /64", "2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"},
		{"IPv6 next /64", "2001:db8:1:3::1", "2001:db8:1:3::/64"},
		{"IPv6 with port", "[2001:db8:1:2:aaaa::7]:443", "2001:db8:1:2::/64"},
		{"IPv6 upper case", "2001:DB8:1:2::ABCD", "2001:db8:1:2::/64"},
		{"IPv6 zone", "fe80::1%eth0", "fe80::/64"},
		{"IPv6 zone with port", "[fe80::1234%eth1]:8080", "fe80::/64"},
		{"IPv6 loopback", "::1", "::/64"},
		{"IPv6 in brackets", "[2001:db8:1:2::5]", "2001:db8:1:2::/64"},
		{"a key is its own key", "2001:db8:1:2::/64", "2001:db8:1:2::/64"},
		{"a Unix socket", "@", "@"},
		{"empty", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Key(tc.addr); got != tc.want {
				t.Errorf("Key(%q) = %q, want %q", tc.addr, got, tc.want)
			}
		})
	}
}

func TestFromRequest(t *testing.T) {
	t.Parallel()
	r := httptest.NewRequest("POST", "/", nil)
	for addr, want := range map[string]string{
		"[2001:db8:9:9::1]:1234": "2001:db8:9:9::/64",
		"[2001:db8:9:9::2]:1234": "2001:db8:9:9::/64",
		"[::ffff:10.0.0.7]:99":   "10.0.0.7",
		"10.0.0.7:100":           "10.0.0.7",
	} {
		r.RemoteAddr = addr
		if got := FromRequest(r); got != want {
			t.Errorf("FromRequest(RemoteAddr %q) = %q, want %q", addr, got, want)
		}
	}
}
