package cart

import (
	"fmt"
	"testing"
)

func TestTotal(t *testing.T) {
	tests := []struct {
		name  string
		items []Item
		want  int
	}{
		{name: "empty cart", want: 0},
		{name: "one item", items: []Item{{"A", 250, 2}}, want: 500},
		{"two items", []Item{{"A", 100, 1}, {"B", 50, 3}}, 250},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Total(tc.items)
			if err != nil || got != tc.want {
				t.Fatalf("Total = %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

func TestTotalRejects(t *testing.T) {
	t.Run("zero quantity", func(t *testing.T) {
		if _, err := Total([]Item{{"A", 1, 0}}); err != ErrQty {
			t.Fatalf("err = %v", err)
		}
	})
	for i := 1; i <= 2; i++ {
		t.Run(fmt.Sprintf("negative %d", i), func(t *testing.T) {
			if _, err := Total([]Item{{"A", 1, -i}}); err != ErrQty {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// skus is computed at run time: testdex cannot know the subtest names
// without running the code, so it lists one dynamic record for them.
func skus() []string { return []string{"A-1", "B-2"} }

func TestEachSKU(t *testing.T) {
	for _, sku := range skus() {
		t.Run(sku, func(t *testing.T) {
			if _, err := Total([]Item{{sku, 1, 1}}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestCurrency(t *testing.T) {
	t.Skip("currencies are not supported yet")
}

func BenchmarkTotal(b *testing.B) {
	items := []Item{{"A", 100, 1}, {"B", 50, 3}}
	for b.Loop() {
		Total(items)
	}
}

func FuzzTotal(f *testing.F) {
	f.Add(100, 1)
	f.Add(5, 7)
	f.Fuzz(func(t *testing.T, price, qty int) {
		if qty > 0 {
			if _, err := Total([]Item{{"X", price, qty}}); err != nil {
				t.Fatal(err)
			}
		}
	})
}

func ExampleTotal() {
	sum, _ := Total([]Item{{"A", 250, 2}})
	fmt.Println(sum)
	// Output: 500
}
