package mcpserver

import (
	"fmt"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// inputSchema is the input schema of a tool taking T: the schema the SDK
// would infer from T's fields and jsonschema tags, except that a []string
// is a plain {"type": "array"}. The SDK infers ["null", "array"] for a
// slice (a nil slice encodes as null), and clients that build arguments
// from the schema, such as the MCP Inspector CLI, then send the array as
// a string. An explicit null for ids or paths is refused by validation;
// leaving the field out is the way to give none.
func inputSchema[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[[]string](): {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
	}})
	if err != nil {
		panic(fmt.Sprintf("input schema of %T: %v", *new(T), err)) // the types are fixed: a programming error
	}
	return s
}
