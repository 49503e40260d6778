package dashboard

import (
	"bufio"
	"io"
	"strings"
)

// The CSV export follows OWASP's guidance on CSV injection, for every
// cell: a spreadsheet must never read a cell as a formula, whichever
// separator it splits on. Text in a record may come from outside (a
// merchant's resource URL and description, a token's symbol), and
// encoding/csv quotes only cells that hold a comma, a quote or a line
// break: "https://x/;=2+5;@SUM(1+9)" would reach a spreadsheet that splits
// on ";" as three cells, two of them formulas.
//
// So every cell is quoted (with inner quotes doubled), and wherever a cell
// could start (at the start of the value, and after each ",", ";", tab,
// carriage return or line feed in it, the separators a spreadsheet may
// split on), a value whose first character other than spaces is one of
// = + - @ tab or carriage return gets an apostrophe put before it, which
// spreadsheets show as text. One already starting with an apostrophe gets
// one more, so the change can be undone exactly: drop one apostrophe at
// each of those places where one is.

// csvFormulaStart are the characters that make a spreadsheet cell a
// formula, and the apostrophe that marks one neutralised.
const csvFormulaStart = "=+-@\t\r'"

// csvSeparators are the characters after which a spreadsheet may start a
// cell.
const csvSeparators = ",;\t\r\n"

// csvCell neutralises s for a spreadsheet (the quoting is csvWriter's).
func csvCell(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	start := true
	for i := 0; i < len(s); i++ {
		if start {
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			if j < len(s) && strings.IndexByte(csvFormulaStart, s[j]) >= 0 {
				b.WriteByte('\'')
			}
			start = false
		}
		b.WriteByte(s[i])
		start = strings.IndexByte(csvSeparators, s[i]) >= 0
	}
	return b.String()
}

// csvWriter writes RFC 4180 CSV with every cell quoted and neutralised.
type csvWriter struct {
	w *bufio.Writer
}

func newCSVWriter(w io.Writer) *csvWriter { return &csvWriter{w: bufio.NewWriter(w)} }

// write writes one record.
func (c *csvWriter) write(cells []string) {
	for i, cell := range cells {
		if i > 0 {
			c.w.WriteByte(',')
		}
		c.w.WriteByte('"')
		c.w.WriteString(strings.ReplaceAll(csvCell(cell), `"`, `""`))
		c.w.WriteByte('"')
	}
	c.w.WriteString("\r\n")
}

// flush sends what is buffered.
func (c *csvWriter) flush() { c.w.Flush() }
