package memo

import "testing"

// TestGenerations checks that an entry is found at once, in either
// generation, that the memo keeps at most two generations, dropping the
// oldest entries first, and that the zero Size is DefaultSize.
func TestGenerations(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name      string
		size, put int
		kept      []int // keys found afterwards
		dropped   []int // keys not found
		most      int
	}{
		{"within one generation", 4, 3, []int{0, 1, 2}, nil, 3},
		{"two generations", 4, 8, []int{0, 3, 4, 7}, nil, 8},
		{"the oldest dropped", 4, 9, []int{4, 7, 8}, []int{0, 3}, 5},
		{"many", 4, 100, []int{96, 99}, []int{0, 50, 91}, 8},
		{"the default size", 0, DefaultSize + 1, []int{0, DefaultSize}, nil, DefaultSize + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := Generations[int, string]{Size: tc.size}
			for i := range tc.put {
				g.Put(i, string(rune('a'+i%26)))
			}
			for _, k := range tc.kept {
				if v, ok := g.Get(k); !ok || v != string(rune('a'+k%26)) {
					t.Errorf("Get(%d) = %q, %v; want it kept", k, v, ok)
				}
			}
			for _, k := range tc.dropped {
				if _, ok := g.Get(k); ok {
					t.Errorf("Get(%d) found it; want it dropped", k)
				}
			}
			if n := g.Len(); n > tc.most {
				t.Errorf("Len = %d, want at most %d", n, tc.most)
			}
			g.Clear()
			for _, k := range tc.kept {
				if _, ok := g.Get(k); ok {
					t.Errorf("Get(%d) found it after Clear", k)
				}
			}
		})
	}
}
