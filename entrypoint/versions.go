package entrypoint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ethereum/go-ethereum/common"
)

// versions are the constructors of the versions this package implements,
// by name; each version's file adds its own in an init function, so a new
// version is a new file. The map is written only before main runs.
var versions = map[string]func(common.Address) EntryPoint{}

// DefaultVersion is the version of an offer that names none: offers
// carried no entryPointVersion before there was a second version.
const DefaultVersion = "0.6"

// New is the EntryPoint of version (DefaultVersion when empty) deployed at
// address; an unknown version is an error naming the known ones.
func New(version string, address common.Address) (EntryPoint, error) {
	if version == "" {
		version = DefaultVersion
	}
	ctor, ok := versions[version]
	if !ok {
		return nil, fmt.Errorf("EntryPoint version %q is unknown: this build knows %s", version, strings.Join(Versions(), ", "))
	}
	return ctor(address), nil
}

// Versions are the names of the versions this package implements, in
// order.
func Versions() []string {
	out := make([]string, 0, len(versions))
	for v := range versions {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}
