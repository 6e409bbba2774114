package interp

import "testing"

// TestScopeHotCacheSeesChanges: once a scope caches its lookups, every
// put and del is seen by the next get: replaced, removed and newly added
// variables, and names sharing a cache slot.
func TestScopeHotCacheSeesChanges(t *testing.T) {
	sc := &scope{vars: map[string]*variable{}}
	a, b := &variable{str: "a"}, &variable{str: "b"}
	sc.put("x", a)
	for range hotAfter + 10 {
		if sc.get("x") != a {
			t.Fatal("x is not a")
		}
		if sc.get("y") != nil {
			t.Fatal("y is set")
		}
	}
	if sc.hot == nil {
		t.Fatal("no cache after many reads")
	}
	sc.put("x", b)
	if sc.get("x") != b {
		t.Error("a replaced x is not seen")
	}
	sc.put("y", a)
	if sc.get("y") != a {
		t.Error("a new y is not seen after y was missing")
	}
	sc.del("x")
	if sc.get("x") != nil {
		t.Error("an unset x is still seen")
	}
	// "ab" and "ba" share a slot: each lookup sees its own variable
	sc.put("ab", a)
	sc.put("ba", b)
	for range 3 {
		if sc.get("ab") != a || sc.get("ba") != b {
			t.Fatal("names sharing a slot are confused")
		}
	}
	if sc.get("") != nil {
		t.Error("the empty name is found")
	}
}
