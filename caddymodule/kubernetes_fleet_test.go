package caddymodule

// The fleet example of examples/kubernetes/fleet: its manifests are read as
// Kubernetes reads them, and its Caddyfile is validated, and run against
// PostgreSQL, with the environment that its Deployment gives the sidecar.

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/jackc/pgx/v5"
	"go.yaml.in/yaml/v3"

	"github.com/caddy-x402/caddy-x402/devnet"
	"github.com/caddy-x402/caddy-x402/store/postgres/pgtest"
	"github.com/caddy-x402/caddy-x402/x402"
)

// fleetDir is the fleet example's directory; fleetApplied are its files
// that the README applies, and fleetSecrets the template of its Secrets.
const fleetDir = "../examples/kubernetes/fleet"

var (
	fleetApplied = []string{"fleet.yaml", "postgres.yaml"}
	fleetSecrets = "secret.example.yaml"
)

// k8sObject is what the tests read of a Kubernetes object.
type k8sObject struct {
	Kind     string `yaml:"kind"`
	Metadata struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Data       map[string]string `yaml:"data"`       // ConfigMap
	StringData map[string]string `yaml:"stringData"` // Secret
	Spec       struct {
		Replicas     *int `yaml:"replicas"`     // Deployment, StatefulSet
		MinAvailable *int `yaml:"minAvailable"` // PodDisruptionBudget
		// Selector is a Service's labels, or a workload's or a
		// PodDisruptionBudget's {matchLabels: …}.
		Selector map[string]any `yaml:"selector"`
		Ports    []struct {
			Port       int     `yaml:"port"`
			TargetPort k8sPort `yaml:"targetPort"`
		} `yaml:"ports"` // Service
		Template struct {
			Metadata struct {
				Labels map[string]string `yaml:"labels"`
			} `yaml:"metadata"`
			Spec struct {
				TerminationGracePeriodSeconds *int           `yaml:"terminationGracePeriodSeconds"`
				Containers                    []k8sContainer `yaml:"containers"`
				Volumes                       []struct {
					Name      string `yaml:"name"`
					ConfigMap *struct {
						Name string `yaml:"name"`
					} `yaml:"configMap"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// k8sContainer is what the tests read of a container.
type k8sContainer struct {
	Name  string   `yaml:"name"`
	Args  []string `yaml:"args"`
	Ports []struct {
		ContainerPort int    `yaml:"containerPort"`
		Name          string `yaml:"name"`
	} `yaml:"ports"`
	Env []struct {
		Name      string `yaml:"name"`
		Value     string `yaml:"value"`
		ValueFrom *struct {
			SecretKeyRef *struct {
				Name string `yaml:"name"`
				Key  string `yaml:"key"`
			} `yaml:"secretKeyRef"`
		} `yaml:"valueFrom"`
	} `yaml:"env"`
	ReadinessProbe *k8sProbe `yaml:"readinessProbe"`
	LivenessProbe  *k8sProbe `yaml:"livenessProbe"`
	VolumeMounts   []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
	} `yaml:"volumeMounts"`
}

// k8sProbe is an httpGet or tcpSocket probe.
type k8sProbe struct {
	HTTPGet *struct {
		Path string  `yaml:"path"`
		Port k8sPort `yaml:"port"`
	} `yaml:"httpGet"`
	TCPSocket *struct {
		Port k8sPort `yaml:"port"`
	} `yaml:"tcpSocket"`
	TimeoutSeconds int `yaml:"timeoutSeconds"`
}

// k8sPort is a port given by number or by the name of a container port.
type k8sPort string

// UnmarshalYAML takes the number or the name as it is written.
func (p *k8sPort) UnmarshalYAML(n *yaml.Node) error {
	*p = k8sPort(n.Value)
	return nil
}

// fleetExample is the fleet example as the tests read it.
type fleetExample struct {
	applied   map[string]k8sObject // "Kind/name" of the applied files
	secrets   map[string]k8sObject // name of the template's Secrets
	caddyfile string               // the ConfigMap's Caddyfile
	config    struct {             // of the adapted Caddyfile
		Apps struct {
			HTTP struct {
				GracePeriod   caddy.Duration             `json:"grace_period"`
				ShutdownDelay caddy.Duration             `json:"shutdown_delay"`
				Servers       map[string]json.RawMessage `json:"servers"`
			} `json:"http"`
			X402 App `json:"x402"`
		} `json:"apps"`
	}
}

// readFleetExample reads the fleet example's manifests and adapts its
// Caddyfile.
func readFleetExample(t *testing.T) *fleetExample {
	t.Helper()
	ex := &fleetExample{applied: map[string]k8sObject{}, secrets: map[string]k8sObject{}}
	read := func(name string) []k8sObject {
		raw, err := os.ReadFile(filepath.Join(fleetDir, name))
		if err != nil {
			t.Fatal(err)
		}
		var objs []k8sObject
		dec := yaml.NewDecoder(strings.NewReader(string(raw)))
		for {
			var o k8sObject
			if err := dec.Decode(&o); err == io.EOF {
				return objs
			} else if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			objs = append(objs, o)
		}
	}
	for _, name := range fleetApplied {
		for _, o := range read(name) {
			ex.applied[o.Kind+"/"+o.Metadata.Name] = o
		}
	}
	for _, o := range read(fleetSecrets) {
		if o.Kind != "Secret" {
			t.Fatalf("%s holds a %s", fleetSecrets, o.Kind)
		}
		ex.secrets[o.Metadata.Name] = o
	}
	for _, o := range ex.applied {
		if o.Kind == "ConfigMap" && o.Data["Caddyfile"] != "" {
			ex.caddyfile = o.Data["Caddyfile"]
		}
	}
	if ex.caddyfile == "" {
		t.Fatal("no ConfigMap of the fleet example holds a Caddyfile")
	}
	if err := json.Unmarshal(adaptCaddyfile(t, ex.caddyfile), &ex.config); err != nil {
		t.Fatal(err)
	}
	return ex
}

// deployment is the example's one Deployment.
func (ex *fleetExample) deployment(t *testing.T) k8sObject {
	t.Helper()
	var found []k8sObject
	for _, o := range ex.applied {
		if o.Kind == "Deployment" {
			found = append(found, o)
		}
	}
	if len(found) != 1 {
		t.Fatalf("the fleet example has %d Deployments, want 1", len(found))
	}
	return found[0]
}

// sidecar is the Deployment's caddy-x402 container.
func (ex *fleetExample) sidecar(t *testing.T) k8sContainer {
	t.Helper()
	for _, c := range ex.deployment(t).Spec.Template.Spec.Containers {
		if c.Name == "caddy-x402" {
			return c
		}
	}
	t.Fatal("the Deployment has no caddy-x402 container")
	return k8sContainer{}
}

// port is the number of p, a number or the name of one of c's ports.
func (c k8sContainer) port(t *testing.T, p k8sPort) int {
	t.Helper()
	if n, err := strconv.Atoi(string(p)); err == nil {
		return n
	}
	for _, cp := range c.Ports {
		if cp.Name == string(p) {
			return cp.ContainerPort
		}
	}
	t.Fatalf("container %s has no port %q", c.Name, p)
	return 0
}

// server is the adapted config's server that listens on port.
func (ex *fleetExample) server(t *testing.T, port int) string {
	t.Helper()
	for _, raw := range ex.config.Apps.HTTP.Servers {
		var srv struct {
			Listen []string `json:"listen"`
		}
		if err := json.Unmarshal(raw, &srv); err != nil {
			t.Fatal(err)
		}
		if slices.Contains(srv.Listen, fmt.Sprintf(":%d", port)) {
			return string(raw)
		}
	}
	t.Fatalf("the Caddyfile has no site on port %d", port)
	return ""
}

// optional prints a manifest's optional number.
func optional(n *int) string {
	if n == nil {
		return "unset"
	}
	return strconv.Itoa(*n)
}

// matchLabels are the labels a selector selects: a Service's map, or the
// matchLabels of a workload's or a PodDisruptionBudget's.
func matchLabels(sel map[string]any) map[string]any {
	if m, ok := sel["matchLabels"].(map[string]any); ok {
		return m
	}
	return sel
}

// TestKubernetesFleetManifests checks the fleet example's manifests
// against one another and against its Caddyfile: what the README says of
// them holds.
func TestKubernetesFleetManifests(t *testing.T) {
	t.Parallel()
	ex := readFleetExample(t)
	tests := []struct {
		name  string
		check func(t *testing.T)
	}{
		{"three replicas", func(t *testing.T) {
			if r := ex.deployment(t).Spec.Replicas; r == nil || *r != 3 {
				t.Fatalf("replicas = %s, want 3", optional(r))
			}
		}},
		{"the readiness probe is the facilitator's /health", func(t *testing.T) {
			c := ex.sidecar(t)
			p := c.ReadinessProbe
			if p == nil || p.HTTPGet == nil || path.Base(p.HTTPGet.Path) != "health" {
				t.Fatalf("readinessProbe = %+v, want an httpGet of …/health", p)
			}
			srv := ex.server(t, c.port(t, p.HTTPGet.Port))
			if !strings.Contains(srv, `"handler":"x402_facilitator"`) || !strings.Contains(srv, `"path":["`+p.HTTPGet.Path+`"]`) {
				t.Fatalf("the site on the probe's port does not serve x402_facilitator at %s: %s", p.HTTPGet.Path, srv)
			}
			// The facilitator takes up to 2 s to check its dependencies.
			if p.TimeoutSeconds <= 2 {
				t.Fatalf("readinessProbe.timeoutSeconds = %d, want more than the health check's 2 s", p.TimeoutSeconds)
			}
		}},
		{"the liveness probe depends on neither database nor chain", func(t *testing.T) {
			c := ex.sidecar(t)
			p := c.LivenessProbe
			switch {
			case p == nil:
				t.Fatal("no livenessProbe")
			case p.HTTPGet != nil:
				// x402_facilitator answers /health by its last segment.
				if path.Base(p.HTTPGet.Path) == "health" {
					t.Fatalf("livenessProbe %s is the health check", p.HTTPGet.Path)
				}
				if !strings.Contains(ex.server(t, c.port(t, p.HTTPGet.Port)), `"path":["`+p.HTTPGet.Path+`"]`) {
					t.Fatalf("the Caddyfile has no route for the liveness probe's %s", p.HTTPGet.Path)
				}
			case p.TCPSocket != nil:
				ex.server(t, c.port(t, p.TCPSocket.Port))
			default:
				t.Fatalf("livenessProbe = %+v, want httpGet or tcpSocket", p)
			}
		}},
		{"every secretKeyRef is in the Secret template", func(t *testing.T) {
			refs := 0
			for _, o := range ex.applied {
				if o.Kind == "Secret" {
					t.Fatalf("Secret %s is in a file that the README applies; keep Secrets in %s", o.Metadata.Name, fleetSecrets)
				}
				for _, c := range o.Spec.Template.Spec.Containers {
					for _, e := range c.Env {
						if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
							continue
						}
						ref := e.ValueFrom.SecretKeyRef
						refs++
						if _, ok := ex.secrets[ref.Name].StringData[ref.Key]; !ok {
							t.Errorf("%s/%s: %s reads key %q of Secret %q, which %s lacks", o.Kind, o.Metadata.Name, e.Name, ref.Key, ref.Name, fleetSecrets)
						}
					}
				}
			}
			if refs < 3 { // the settler key, the database URL, the demo's password
				t.Fatalf("%d secretKeyRefs, want the settler key's, the database URL's and the demo database's password", refs)
			}
		}},
		{"the Service sends traffic to the paid site, not the probes", func(t *testing.T) {
			c := ex.sidecar(t)
			svc, ok := ex.applied["Service/paid-api"]
			if !ok || len(svc.Spec.Ports) != 1 {
				t.Fatalf("Service paid-api = %+v, want one port", svc)
			}
			target := c.port(t, svc.Spec.Ports[0].TargetPort)
			if !strings.Contains(ex.server(t, target), `"handler":"x402"`) {
				t.Fatalf("the Service's target port %d has no paid route", target)
			}
			for _, p := range []*k8sProbe{c.ReadinessProbe, c.LivenessProbe} {
				if p != nil && p.HTTPGet != nil && c.port(t, p.HTTPGet.Port) == target {
					t.Fatalf("the Service exposes the probes' port %d", target)
				}
			}
			labels := ex.deployment(t).Spec.Template.Metadata.Labels
			for k, v := range matchLabels(svc.Spec.Selector) {
				if labels[k] != v {
					t.Fatalf("the Service selects %s=%v; the pods are labelled %v", k, v, labels)
				}
			}
		}},
		{"terminationGracePeriodSeconds exceeds shutdown_delay + grace_period", func(t *testing.T) {
			h := ex.config.Apps.HTTP
			tgp := ex.deployment(t).Spec.Template.Spec.TerminationGracePeriodSeconds
			if h.GracePeriod <= 0 || tgp == nil || time.Duration(h.ShutdownDelay+h.GracePeriod) >= time.Duration(*tgp)*time.Second {
				t.Fatalf("shutdown_delay %v + grace_period %v, terminationGracePeriodSeconds %s: want a grace_period, and their sum under the pod's",
					time.Duration(h.ShutdownDelay), time.Duration(h.GracePeriod), optional(tgp))
			}
		}},
		{"the PodDisruptionBudget keeps two pods", func(t *testing.T) {
			pdb, ok := ex.applied["PodDisruptionBudget/paid-api"]
			if !ok || pdb.Spec.MinAvailable == nil || *pdb.Spec.MinAvailable != 2 {
				t.Fatalf("PodDisruptionBudget paid-api: minAvailable = %s, want 2", optional(pdb.Spec.MinAvailable))
			}
			labels := ex.deployment(t).Spec.Template.Metadata.Labels
			for k, v := range matchLabels(pdb.Spec.Selector) {
				if labels[k] != v {
					t.Fatalf("the PodDisruptionBudget selects %s=%v; the pods are labelled %v", k, v, labels)
				}
			}
		}},
		{"the demo's max_connections covers replicas × (database_max_conns + 3)", func(t *testing.T) {
			sts, ok := ex.applied["StatefulSet/x402-postgres"]
			if !ok || len(sts.Spec.Template.Spec.Containers) != 1 {
				t.Fatal("postgres.yaml has no StatefulSet x402-postgres with one container")
			}
			maxConns := 0
			for _, a := range sts.Spec.Template.Spec.Containers[0].Args {
				if v, ok := strings.CutPrefix(a, "max_connections="); ok {
					maxConns, _ = strconv.Atoi(v)
				}
			}
			perReplica := ex.config.Apps.X402.DatabaseMaxConns
			if perReplica == 0 {
				perReplica = 10 // the default
			}
			if need := *ex.deployment(t).Spec.Replicas * (perReplica + 3); maxConns <= need {
				t.Fatalf("max_connections = %d, want more than %d", maxConns, need)
			}
		}},
		{"Caddy runs the ConfigMap's Caddyfile", func(t *testing.T) {
			c := ex.sidecar(t)
			i := slices.Index(c.Args, "--config")
			if i < 0 || i+1 == len(c.Args) || !slices.Contains(c.Args, "caddyfile") {
				t.Fatalf("args = %q, want --config <file> --adapter caddyfile", c.Args)
			}
			dir, file := filepath.Split(c.Args[i+1])
			for _, m := range c.VolumeMounts {
				if filepath.Clean(m.MountPath) != filepath.Clean(dir) {
					continue
				}
				for _, v := range ex.deployment(t).Spec.Template.Spec.Volumes {
					if v.Name == m.Name && v.ConfigMap != nil && ex.applied["ConfigMap/"+v.ConfigMap.Name].Data[file] == ex.caddyfile {
						return
					}
				}
			}
			t.Fatalf("%s is not the Caddyfile of a mounted ConfigMap", c.Args[i+1])
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.check(t)
		})
	}
}

// TestKubernetesFleetExampleValidates runs `caddy validate` on the fleet
// example's Caddyfile with the environment its Deployment gives the
// sidecar: the Secret's settler key is a test key, and its database URL
// one where nothing listens, since validating opens nothing. With
// X402_TEST_DATABASE_URL, it also runs the Caddyfile against that database
// and a devnet on the example's chain id, and checks what the probes see
// while the database answers and once it does not.
func TestKubernetesFleetExampleValidates(t *testing.T) {
	ex := readFleetExample(t)
	c := ex.sidecar(t)
	if c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet == nil || c.LivenessProbe == nil || c.LivenessProbe.HTTPGet == nil {
		t.Fatal("the sidecar's probes are not both httpGet; update this test")
	}
	settler, _ := devnet.DeriveKey(devnet.TestMnemonic, 8)
	fromSecret := map[string]string{
		"settler-key":  fmt.Sprintf("%x", crypto.FromECDSA(settler)),
		"database-url": "postgres://u:p@127.0.0.1:1/x402",
	}
	env := map[string]string{}
	for _, e := range c.Env {
		env[e.Name] = e.Value
		if e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
			v, ok := fromSecret[e.ValueFrom.SecretKeyRef.Key]
			if !ok {
				t.Fatalf("%s reads Secret key %q, which this test does not know", e.Name, e.ValueFrom.SecretKeyRef.Key)
			}
			env[e.Name] = v
		}
	}
	for _, m := range regexp.MustCompile(`\{env\.([A-Za-z0-9_]+)\}`).FindAllStringSubmatch(ex.caddyfile, -1) {
		if _, ok := env[m[1]]; !ok {
			t.Errorf("the Caddyfile reads {env.%s}, which the Deployment does not set", m[1])
		}
	}
	for _, want := range []string{"store postgres {env.X402_DATABASE_URL}", "settler_key {env.X402_SETTLER_KEY}", "rpc {env.X402_RPC_URL}", "pay_to {env.X402_PAY_TO}"} {
		if !strings.Contains(ex.caddyfile, want) {
			t.Fatalf("the example's Caddyfile no longer has %q; update this test", want)
		}
	}
	for k, v := range env {
		t.Setenv(k, v)
	}

	t.Run("the manifest's pay_to must be replaced", func(t *testing.T) {
		err := validateCaddyfile(t, ex.caddyfile)
		if err == nil || !strings.Contains(err.Error(), `x402 pay_to "`+env["X402_PAY_TO"]+`": want 0x and 40 hex digits`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Setenv("X402_PAY_TO", "0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC") // as the user sets it
	if err := validateCaddyfile(t, ex.caddyfile); err != nil {
		t.Fatalf("caddy validate: %v", err)
	}

	for _, tc := range []struct{ unset, want string }{
		{"X402_DATABASE_URL", "store postgres (database) {env.X402_DATABASE_URL}"},
		{"X402_SETTLER_KEY", "settler_key {env.X402_SETTLER_KEY}"},
		{"X402_RPC_URL", "x402 rpc {env.X402_RPC_URL}"},
	} {
		t.Run("without "+tc.unset, func(t *testing.T) {
			t.Setenv(tc.unset, "")
			if err := validateCaddyfile(t, ex.caddyfile); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to name %q", err, tc.want)
			}
		})
	}

	t.Run("caddy run", func(t *testing.T) {
		base := pgtest.URL(t, "the run against PostgreSQL")
		if ex.config.Apps.X402.Network != "eip155:84532" {
			t.Fatalf("network = %q; update this test's chain id", ex.config.Apps.X402.Network)
		}
		chain := startChain(t, 84532)
		t.Setenv("X402_RPC_URL", chain.URL)

		// A schema of its own, dropped once Caddy has stopped (cleanups run
		// last registered first), reached through a proxy that the test
		// cuts.
		const schemaLine = "database_schema x402\n"
		if !strings.Contains(ex.caddyfile, schemaLine) {
			t.Fatalf("the example's Caddyfile no longer has %q; update this test", schemaLine)
		}
		schema := pgtest.Schema(t, base, "k8s_fleet_")
		proxy := startFleetProxy(t, base)
		t.Setenv("X402_DATABASE_URL", proxy.url)

		httpPort := c.port(t, "http")
		probePort := c.port(t, c.ReadinessProbe.HTTPGet.Port)
		httpAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		probeAddr := fmt.Sprintf("127.0.0.1:%d", freePort(t))
		cf := standInToken(t, ex.caddyfile, chain) // the chain's own token for USDC
		for from, to := range map[string]string{
			fmt.Sprintf("http://:%d ", httpPort):  "http://" + httpAddr + " ",
			fmt.Sprintf("http://:%d ", probePort): "http://" + probeAddr + " ",
			schemaLine:                            "database_schema " + schema + "\n",
		} {
			if !strings.Contains(cf, from) {
				t.Fatalf("the example's Caddyfile has no %q", from)
			}
			cf = strings.ReplaceAll(cf, from, to)
		}
		if _, err := runCaddyfile(t, cf); err != nil {
			t.Fatalf("caddy run: %v", err)
		}

		get := func(addr, path string) (int, []byte) {
			t.Helper()
			res, err := http.Get("http://" + addr + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, err := io.ReadAll(res.Body)
			if err != nil {
				t.Fatal(err)
			}
			return res.StatusCode, body
		}
		health := func() (int, x402.Health) {
			t.Helper()
			status, body := get(probeAddr, c.ReadinessProbe.HTTPGet.Path)
			var h x402.Health
			if err := json.Unmarshal(body, &h); err != nil {
				t.Fatalf("/health answered %d %q: %v", status, body, err)
			}
			return status, h
		}
		live := c.LivenessProbe.HTTPGet.Path

		if status, h := health(); status != http.StatusOK || h.Status != "ok" || h.Dependencies["chain"] != "ok" || h.Dependencies["database"] != "ok" {
			t.Fatalf("readiness: %d %+v, want 200 with chain and database ok", status, h)
		}
		if status, body := get(probeAddr, live); status != http.StatusOK {
			t.Fatalf("liveness: %d %q", status, body)
		}
		if status, body := get(httpAddr, "/paid/report"); status != http.StatusPaymentRequired {
			t.Fatalf("an unpaid request to the Service's port: %d %q, want 402", status, body)
		}

		// The database becomes unreachable: the pod leaves the Service, and
		// is not restarted. /health decides within 2 s of each request; it
		// may take a few for the pool to see its connections gone.
		proxy.cut()
		deadline := time.Now().Add(30 * time.Second)
		poll := time.NewTicker(100 * time.Millisecond)
		defer poll.Stop()
		for {
			status, h := health()
			if status == http.StatusServiceUnavailable {
				if h.Status != "degraded" || h.Dependencies["database"] != "unreachable" || h.Dependencies["chain"] != "ok" {
					t.Fatalf("readiness without the database: %+v, want degraded with the database unreachable", h)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("readiness still %d %+v 30 s after the database went away", status, h)
			}
			<-poll.C
		}
		if status, body := get(probeAddr, live); status != http.StatusOK {
			t.Fatalf("liveness without the database: %d %q", status, body)
		}
	})
}

// fleetProxy forwards TCP connections to a PostgreSQL server until cut.
type fleetProxy struct {
	url    string // the database URL through the proxy
	ln     net.Listener
	wg     sync.WaitGroup
	mu     sync.Mutex
	cutOff bool
	conns  []net.Conn
}

// startFleetProxy listens on a free port of 127.0.0.1 and forwards to the
// host of dbURL; it is cut when the test ends.
func startFleetProxy(t *testing.T, dbURL string) *fleetProxy {
	t.Helper()
	cfg, err := pgx.ParseConfig(dbURL)
	if err != nil {
		t.Fatalf("X402_TEST_DATABASE_URL: %v", err)
	}
	target := net.JoinHostPort(cfg.Host, strconv.Itoa(int(cfg.Port)))
	if !strings.Contains(dbURL, "@"+target+"/") {
		t.Skipf("X402_TEST_DATABASE_URL is not of the form postgres://user@%s/db: cannot put a proxy in it", target)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &fleetProxy{ln: ln, url: strings.Replace(dbURL, "@"+target+"/", "@"+ln.Addr().String()+"/", 1)}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			in, err := ln.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			if !p.track(in, out) {
				continue
			}
			p.wg.Add(2)
			go func() { defer p.wg.Done(); io.Copy(out, in); out.Close() }()
			go func() { defer p.wg.Done(); io.Copy(in, out); in.Close() }()
		}
	}()
	t.Cleanup(p.cut)
	return p
}

// track records a forwarded pair of connections, or closes them if the
// proxy is cut.
func (p *fleetProxy) track(in, out net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cutOff {
		in.Close()
		out.Close()
		return false
	}
	p.conns = append(p.conns, in, out)
	return true
}

// cut closes the listener and every forwarded connection, and waits for
// the proxy's goroutines. It is idempotent.
func (p *fleetProxy) cut() {
	p.ln.Close()
	p.mu.Lock()
	p.cutOff = true
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
	p.mu.Unlock()
	p.wg.Wait()
}
