package rust

import "encoding/json"

// facts are what the Linker needs from a file beyond its tests: its
// `mod x;` declarations. They travel in lang.Result.Facts as JSON.
type facts struct {
	Mods []modDecl `json:"mods,omitempty"`
}

// modDecl is one `mod name;` declaration.
type modDecl struct {
	// Inline are the inline modules around it within the file
	// (`mod a { mod b; }` gives ["a"] for b).
	Inline []string `json:"inline,omitempty"`
	Name   string   `json:"name"`
	// Path is its #[path = "..."] attribute, "" when none.
	Path string `json:"path,omitempty"`
	Line int    `json:"line"`
	// Tags are the cfg(...) gates on it and around it; CfgTest is true
	// under cfg(test) (then rustdoc never sees the module).
	Tags    []string `json:"tags,omitempty"`
	CfgTest bool     `json:"cfgTest,omitempty"`
}

func encodeFacts(f facts) []byte {
	if len(f.Mods) == 0 {
		return nil
	}
	b, _ := json.Marshal(f)
	return b
}

// decodeFacts reads Facts; bad or empty data gives no facts.
func decodeFacts(b []byte) facts {
	var f facts
	if len(b) > 0 {
		_ = json.Unmarshal(b, &f)
	}
	return f
}
