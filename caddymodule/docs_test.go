package caddymodule

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// repoRoot is the repository's root, seen from this package's directory,
// where go test runs.
const repoRoot = ".."

// readmeMaxLines is how long the README may grow: what it is, the two
// commands, the walkthrough and one Caddyfile, a few screens as Caddy's
// plugins keep theirs; the rest belongs in docs/.
const readmeMaxLines = 300

// partialCaddyfile, on the line before a ```caddyfile fence, marks a
// block that is a snippet, not a whole config: it is checked for
// formatting but not adapted.
const partialCaddyfile = "<!-- caddyfile: partial -->"

// docFile is a Markdown file of the documentation: its path from the
// repository's root, with slashes, and its text.
type docFile struct {
	path string
	text string
}

// docFiles reads the README, docs/*.md (not docs/pending/, which holds
// drafts that have no place yet) and the READMEs of xcaddy/ and examples/.
func docFiles(t *testing.T) []docFile {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	paths = append([]string{filepath.Join(repoRoot, "README.md")}, paths...)
	for _, p := range []string{"xcaddy/README.md", "examples/README.md", "examples/kubernetes/fleet/README.md"} {
		paths = append(paths, filepath.Join(repoRoot, filepath.FromSlash(p)))
	}
	var docs []docFile
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, err := filepath.Rel(repoRoot, p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, docFile{path: filepath.ToSlash(rel), text: string(b)})
	}
	if len(docs) < 2 {
		t.Fatalf("found %d documentation files, want the README and docs/*.md", len(docs))
	}
	return docs
}

// fencedBlock is a fenced code block of a Markdown file.
type fencedBlock struct {
	line   int    // of the opening fence, from 1
	lang   string // the info string, such as caddyfile or sh
	before string // the last non-empty line before the fence
	body   string // without the fences, and without the fence's indentation
}

// fencedBlocks finds the fenced code blocks of a Markdown text, also
// those indented under a list item. Everything outside them is prose,
// returned with the blocks' lines blanked so that line numbers hold.
func fencedBlocks(text string) (blocks []fencedBlock, prose []string) {
	var (
		cur    *fencedBlock
		indent string
		body   []string
		last   string
	)
	for i, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			indent = line[:len(line)-len(trimmed)]
			cur = &fencedBlock{line: i + 1, lang: strings.TrimSpace(strings.TrimPrefix(trimmed, "```")), before: last}
			body = body[:0]
			prose = append(prose, "")
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.body = strings.Join(body, "\n")
			blocks = append(blocks, *cur)
			cur = nil
			prose = append(prose, "")
		case cur != nil:
			body = append(body, strings.TrimPrefix(line, indent))
			prose = append(prose, "")
		default:
			prose = append(prose, line)
			if strings.TrimSpace(line) != "" {
				last = strings.TrimSpace(line)
			}
		}
	}
	return blocks, prose
}

// TestReadmeLength keeps the README to a few screens.
func TestReadmeLength(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "\n"); n > readmeMaxLines {
		t.Errorf("README.md has %d lines, at most %d: move the detail to a page of docs/ and link it", n, readmeMaxLines)
	}
}

// TestDocsCaddyfiles checks every ```caddyfile block of the README and
// docs/*.md: it is as `caddy fmt` writes it, and, unless marked as a
// partial snippet, it adapts to JSON without warnings (so every directive
// and option it names exists, x402's included).
func TestDocsCaddyfiles(t *testing.T) {
	t.Parallel()
	adapter := caddyconfig.GetAdapter("caddyfile")
	n := 0
	for _, doc := range docFiles(t) {
		blocks, _ := fencedBlocks(doc.text)
		for _, b := range blocks {
			if b.lang != "caddyfile" {
				continue
			}
			n++
			name := fmt.Sprintf("%s:%d", doc.path, b.line)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				// As a file of its own, ending with a newline.
				body := []byte(b.body + "\n")
				if got := caddyfile.Format(body); string(got) != string(body) {
					t.Errorf("not as caddy fmt writes it; caddy fmt gives:\n%s", got)
				}
				if b.before == partialCaddyfile {
					return
				}
				_, warnings, err := adapter.Adapt(body, map[string]any{"filename": name})
				if err != nil {
					t.Fatalf("adapting: %v (a snippet that is not a whole config is marked %s on the line before its fence)", err, partialCaddyfile)
				}
				for _, w := range warnings {
					t.Errorf("adapting warns: %s", w.String())
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no ```caddyfile block in the README or docs/*.md")
	}
}

var (
	// mdLink matches the target of a Markdown link or image: ](target) or
	// ](target "title").
	mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	// htmlLink matches the target of an HTML src or href attribute.
	htmlLink = regexp.MustCompile(`\b(?:src|href)="([^"]+)"`)
	// codeSpan matches an inline code span, whose text is not a link.
	codeSpan = regexp.MustCompile("`[^`]*`")
	// urlScheme matches a target with a scheme (https:, mailto:), which
	// is not a file of the repository.
	urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	// mdHeading matches an ATX heading.
	mdHeading = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// headingAnchors lists the anchors GitHub gives the headings of a
// Markdown text: lowercased, spaces as hyphens, punctuation other than
// hyphens and underscores dropped, and -1, -2… after a repeated one.
func headingAnchors(text string) map[string]bool {
	_, prose := fencedBlocks(text)
	anchors, seen := map[string]bool{}, map[string]int{}
	for _, line := range prose {
		m := mdHeading.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var slug strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				slug.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				slug.WriteRune(r)
			}
		}
		a := slug.String()
		if k := seen[a]; k > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, k)
		} else {
			seen[a] = 1
		}
		anchors[a] = true
	}
	return anchors
}

// TestDocsLinks checks that every relative link and image of the README
// and docs/*.md names a file of the repository, and, where it has an
// anchor into a Markdown file, a heading of that file.
func TestDocsLinks(t *testing.T) {
	t.Parallel()
	n := 0
	for _, doc := range docFiles(t) {
		_, prose := fencedBlocks(doc.text)
		for i, line := range prose {
			line = codeSpan.ReplaceAllString(line, "")
			var targets []string
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
			}
			for _, m := range htmlLink.FindAllStringSubmatch(line, -1) {
				targets = append(targets, m[1])
			}
			for _, target := range targets {
				if urlScheme.MatchString(target) {
					continue
				}
				n++
				where := fmt.Sprintf("%s:%d: %s", doc.path, i+1, target)
				file, anchor, _ := strings.Cut(target, "#")
				resolved := doc.path
				if file != "" {
					resolved = path.Clean(path.Join(path.Dir(doc.path), file))
				}
				if strings.HasPrefix(resolved, "../") {
					t.Errorf("%s: leads out of the repository", where)
					continue
				}
				full := filepath.Join(repoRoot, filepath.FromSlash(resolved))
				st, err := os.Stat(full)
				if err != nil {
					t.Errorf("%s: %s does not exist", where, resolved)
					continue
				}
				if anchor == "" {
					continue
				}
				if st.IsDir() || !strings.HasSuffix(resolved, ".md") {
					t.Errorf("%s: an anchor into a file that is not Markdown", where)
					continue
				}
				b, err := os.ReadFile(full)
				if err != nil {
					t.Fatal(err)
				}
				if !headingAnchors(string(b))[anchor] {
					t.Errorf("%s: %s has no heading with the anchor #%s", where, resolved, anchor)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no relative link in the README or docs/*.md")
	}
}

// testFuncName matches the name of a test, benchmark or fuzz target.
var testFuncName = regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz)[A-Z][A-Za-z0-9_]*`)

// TestDocsNamedTestsExist checks that every test, benchmark and fuzz
// target the README and docs/*.md name as their evidence exists, so a
// renamed test cannot leave a claim without its proof.
func TestDocsNamedTestsExist(t *testing.T) {
	t.Parallel()
	defined := map[string]bool{}
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "func "); ok {
				if name := testFuncName.FindString(rest); name != "" && strings.HasPrefix(rest, name+"(") {
					defined[name] = true
				}
			}
		}
		return sc.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, doc := range docFiles(t) {
		for i, line := range strings.Split(doc.text, "\n") {
			for _, name := range testFuncName.FindAllString(line, -1) {
				n++
				if !defined[name] {
					t.Errorf("%s:%d names %s, which no _test.go file defines", doc.path, i+1, name)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("the README and docs/*.md name no test")
	}
}

// TestDocsLayout checks that docs/layout.md names every package of the
// repository (as `dir/`) and every Caddy module this package registers.
func TestDocsLayout(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "layout.md"))
	if err != nil {
		t.Fatal(err)
	}
	layout := string(b)

	var pkgs []string
	err = filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != repoRoot && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
			dir, err := filepath.Rel(repoRoot, filepath.Dir(p))
			if err != nil {
				return err
			}
			if dir != "." && !slices.Contains(pkgs, filepath.ToSlash(dir)) {
				pkgs = append(pkgs, filepath.ToSlash(dir))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 10 {
		t.Fatalf("found %d packages, want the repository's", len(pkgs))
	}
	for _, p := range pkgs {
		if !strings.Contains(layout, "`"+p+"/`") {
			t.Errorf("docs/layout.md does not name the package `%s/`", p)
		}
	}

	ours := reflect.TypeFor[Handler]().PkgPath()
	var mods []string
	for _, id := range caddy.Modules() {
		info, err := caddy.GetModule(id)
		if err != nil {
			t.Fatal(err)
		}
		if reflect.Indirect(reflect.ValueOf(info.New())).Type().PkgPath() == ours {
			mods = append(mods, id)
		}
	}
	if len(mods) < 7 {
		t.Fatalf("found %d modules registered by %s, want at least the 7 it has", len(mods), ours)
	}
	for _, id := range mods {
		if !strings.Contains(layout, "`"+id+"`") {
			t.Errorf("docs/layout.md does not name the module `%s`", id)
		}
	}
}

// TestDocsCaddyfileReference checks that the Caddyfile reference in
// docs/configuration.md names every option this package's Caddyfile
// parsers accept: the keys of the option tables they hand to parseBlock.
func TestDocsCaddyfileReference(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile(filepath.Join(repoRoot, "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks, _ := fencedBlocks(string(b))
	documented := map[string]bool{}
	for _, bl := range blocks {
		if bl.lang != "text" {
			continue
		}
		for _, w := range strings.FieldsFunc(bl.body, func(r rune) bool {
			return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
		}) {
			documented[w] = true
		}
	}

	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var options []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if fn, ok := call.Fun.(*ast.Ident); !ok || fn.Name != "parseBlock" {
				return true
			}
			table, ok := call.Args[len(call.Args)-1].(*ast.CompositeLit)
			if !ok {
				return true
			}
			for _, e := range table.Elts {
				kv, ok := e.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				lit, ok := kv.Key.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				key, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				options = append(options, key)
			}
			return true
		})
	}
	if len(options) < 40 {
		t.Fatalf("found %d Caddyfile options in parseBlock calls, want the package's (is parseBlock still how they are read?)", len(options))
	}
	for _, o := range options {
		if !documented[o] {
			t.Errorf("the Caddyfile option %q is not in docs/configuration.md's reference", o)
		}
	}
}
