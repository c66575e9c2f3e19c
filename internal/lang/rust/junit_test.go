package rust

import "testing"

// TestBinaryOf: nextest's binary IDs by Cargo's default layout.
func TestBinaryOf(t *testing.T) {
	for root, want := range map[string]string{
		"src/lib.rs": "", "tests/it.rs": "it", "tests/deep/main.rs": "deep", "src/bin/tool.rs": "bin/tool",
		"src/bin/tool/main.rs": "bin/tool", "src/main.rs": "bin/", "examples/demo.rs": "example/demo", "benches/b.rs": "bench/b",
	} {
		if got := binaryOf(root); got != want {
			t.Errorf("binaryOf(%q) = %q, want %q", root, got, want)
		}
	}
}
