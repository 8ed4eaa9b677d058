package tokens

import "testing"

func TestCount(t *testing.T) {
	for _, enc := range []string{O200k, CL100k} {
		c, err := New(enc)
		if err != nil {
			t.Fatal(err)
		}
		if n := c.Count("hello world"); n != 2 {
			t.Errorf("%s: Count(hello world) = %d, want 2", enc, n)
		}
		if n := c.Count(""); n != 0 {
			t.Errorf("%s: empty = %d", enc, n)
		}
	}
}
