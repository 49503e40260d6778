package scheme

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestBound checks that a Bound acts as context.WithTimeout's context
// would: its deadline is the earlier of its own and its parent's, Err
// tells the deadline or the parent's end whether or not Done was asked
// for, Done closes at either, children are cancelled with it, values are
// the parent's; and that Abandoned closes when the parent is cancelled.
func TestBound(t *testing.T) {
	t.Parallel()
	type key struct{}
	// wait waits for ch, for 10 s at most.
	wait := func(t *testing.T, ch <-chan struct{}, what string) {
		t.Helper()
		select {
		case <-ch:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s was not closed after 10 s", what)
		}
	}
	t.Run("deadline passes without Done", func(t *testing.T) {
		t.Parallel()
		b, release := WithBound(context.WithValue(context.Background(), key{}, "v"), 20*time.Millisecond)
		defer release()
		if err := b.Err(); err != nil {
			t.Fatalf("Err before the deadline: %v", err)
		}
		if got := b.Value(key{}); got != "v" {
			t.Errorf("Value = %v, want the parent's", got)
		}
		d, ok := b.Deadline()
		if !ok || time.Until(d) > 20*time.Millisecond {
			t.Errorf("Deadline = %v, %v", d, ok)
		}
		time.Sleep(time.Until(d))
		if err := b.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Err past the deadline = %v", err)
		}
		// Done, asked for late, is closed at once.
		wait(t, b.Done(), "Done past the deadline")
	})
	t.Run("Done closes at the deadline", func(t *testing.T) {
		t.Parallel()
		b, release := WithBound(context.Background(), 20*time.Millisecond)
		defer release()
		child, cancel := context.WithCancel(b)
		defer cancel()
		wait(t, b.Done(), "Done")
		wait(t, child.Done(), "a child's Done")
		if err := b.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Err = %v", err)
		}
		if got := b.Value(key{}); got != nil {
			t.Errorf("Value = %v, want none", got)
		}
	})
	t.Run("the parent is cancelled", func(t *testing.T) {
		t.Parallel()
		parent, cancel := context.WithCancel(context.Background())
		b, release := WithBound(parent, time.Hour)
		defer release()
		abandoned := b.Abandoned()
		cancel()
		wait(t, abandoned, "Abandoned")
		if err := b.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Err = %v", err)
		}
		wait(t, b.Done(), "Done")
	})
	t.Run("the parent's deadline is earlier", func(t *testing.T) {
		t.Parallel()
		parent, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		b, release := WithBound(parent, time.Hour)
		defer release()
		want, _ := parent.Deadline()
		if got, _ := b.Deadline(); !got.Equal(want) {
			t.Errorf("Deadline = %v, want the parent's %v", got, want)
		}
	})
	t.Run("Err never changes", func(t *testing.T) {
		t.Parallel()
		parent, cancel := context.WithCancel(context.Background())
		b, release := WithBound(parent, 10*time.Millisecond)
		defer release()
		d, _ := b.Deadline()
		time.Sleep(time.Until(d))
		if err := b.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("Err past the deadline = %v", err)
		}
		cancel()
		wait(t, b.Done(), "Done")
		if err := b.Err(); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("Err after the parent's cancel = %v, want DeadlineExceeded still", err)
		}
	})
	t.Run("Done after release", func(t *testing.T) {
		t.Parallel()
		b, release := WithBound(context.Background(), time.Hour)
		release()
		if err := b.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Err after release = %v", err)
		}
		wait(t, b.Done(), "Done asked for after release")
	})
	t.Run("release stops the timer", func(t *testing.T) {
		t.Parallel()
		b, release := WithBound(context.Background(), time.Hour)
		done := b.Done()
		release()
		wait(t, done, "Done after release")
		if err := b.Err(); !errors.Is(err, context.Canceled) {
			t.Errorf("Err after release = %v", err)
		}
		// Releasing a Bound whose Done was never asked for is harmless.
		_, release = WithBound(context.Background(), time.Hour)
		release()
	})
}
