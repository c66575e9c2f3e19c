package java

import "github.com/testdex/testdex/internal/lang"

// Lister is a stub until the runtime method lands.
type Lister struct{}

func (Lister) ListCommand(p *lang.Project, files []string) (*lang.Command, error) { return nil, nil }
func (Lister) ParseList(p *lang.Project, stdout, stderr []byte, exitCode int) ([]lang.Listed, error) {
	return nil, nil
}
