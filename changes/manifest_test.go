package changes

import (
	"reflect"
	"testing"
)

func TestDiffManifests(t *testing.T) {
	old := Manifest{"a.go": 3, "b.go": 5, "gone.go": 7, "go:pkg": 0}
	cur := Manifest{"a.go": 3, "b.go": 9, "new.go": 11, "go:pkg": 0}
	want := Set{{Path: "b.go", Status: Modified}, {Path: "gone.go", Status: Deleted}, {Path: "new.go", Status: Added}}
	if got := Diff(old, cur); !reflect.DeepEqual(got, want) {
		t.Errorf("Diff = %v, want %v", got, want)
	}
	if got := Diff(cur, cur); len(got) != 0 {
		t.Errorf("Diff of a manifest with itself = %v, want none", got)
	}
	if old.Fingerprint() == cur.Fingerprint() || cur.Fingerprint() != (Manifest{"go:pkg": 0, "new.go": 11, "b.go": 9, "a.go": 3}).Fingerprint() {
		t.Error("Fingerprint does not follow the manifest's content alone")
	}
}
