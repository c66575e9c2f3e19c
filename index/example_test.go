package index_test

import (
	"context"
	"fmt"
	"log"

	"github.com/testdex/testdex/index"
)

// ExampleBuild lists the bundled example repository, as `testdex list
// examples/polyglot` does, and prints each test's ID and native name.
func ExampleBuild() {
	ix, err := index.Build(context.Background(), index.Options{Root: "../examples/polyglot"})
	if err != nil {
		log.Fatal(err)
	}
	for _, p := range ix.Problems {
		fmt.Println(p)
	}
	tests, err := ix.Select(index.Filter{Name: "^TestTotal$"})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range tests {
		fmt.Printf("%s  (%s %s, go test -run '%s')\n", t.ID, t.Framework, t.Scope, t.Run)
	}
	// Output:
	// go/cart/cart_test.go::TestTotal  (go example.com/shop/cart, go test -run '^TestTotal$')
	// go/cart/cart_test.go::TestTotal/empty_cart  (go example.com/shop/cart, go test -run '^TestTotal$/^empty_cart$')
	// go/cart/cart_test.go::TestTotal/one_item  (go example.com/shop/cart, go test -run '^TestTotal$/^one_item$')
	// go/cart/cart_test.go::TestTotal/two_items  (go example.com/shop/cart, go test -run '^TestTotal$/^two_items$')
}
