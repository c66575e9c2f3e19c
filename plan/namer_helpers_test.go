package plan_test

// joinScope joins a JUnit class's package and simple name, as the ID
// tests make a method's Scope (the rule itself is the java package's).
func joinScope(scope, name string) string {
	if scope == "" {
		return name
	}
	return scope + "." + name
}
