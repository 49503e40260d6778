package bundler

import (
	"context"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
)

// A bundle's span is a child of its first traced operation's span and
// links the others; with no traced operation there is none.
func TestBundleSpan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		traced []bool // which entries carry a span
		parent int    // index of the parent entry, -1 for no bundle span
		links  []int
	}{
		{"untraced", []bool{false, false}, -1, nil},
		{"one", []bool{true}, 0, nil},
		{"first untraced", []bool{false, true, true, false, true}, 1, []int{2, 4}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rec := tracetest.NewSpanRecorder()
			tracer := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test")
			batch := make([]*entry, len(tc.traced))
			for i, traced := range tc.traced {
				batch[i] = &entry{span: trace.SpanFromContext(context.Background())}
				if traced {
					_, batch[i].span = tracer.Start(context.Background(), "settle")
				}
			}
			_, span := startBundle(context.Background(), batch)
			span.End()
			var bundle sdktrace.ReadOnlySpan
			for _, s := range rec.Ended() {
				if s.Name() == spanBundle {
					bundle = s
				}
			}
			if tc.parent < 0 {
				if bundle != nil || span.IsRecording() {
					t.Fatal("a bundle of untraced operations has a span")
				}
				return
			}
			if bundle == nil {
				t.Fatal("no bundle span")
			}
			want := batch[tc.parent].span.SpanContext()
			if bundle.Parent().SpanID() != want.SpanID() || bundle.SpanContext().TraceID() != want.TraceID() {
				t.Fatalf("parent %s in trace %s, want %s in %s", bundle.Parent().SpanID(), bundle.SpanContext().TraceID(), want.SpanID(), want.TraceID())
			}
			if len(bundle.Links()) != len(tc.links) {
				t.Fatalf("%d links, want %d", len(bundle.Links()), len(tc.links))
			}
			for i, l := range bundle.Links() {
				if l.SpanContext.SpanID() != batch[tc.links[i]].span.SpanContext().SpanID() {
					t.Errorf("link %d is not entry %d's span", i, tc.links[i])
				}
			}
		})
	}
}
