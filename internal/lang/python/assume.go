package python

// settle checks the assumptions a module's tables made about imported
// names (facts.go, table.Assumed): a name that is a module of the project
// has a dotted __name__, so the table's IDs are not the ones written, and
// it becomes its dynamic record.
func (c *classes) settle(m *modFile) {
	f := m.facts
	c.settleMarks(m, &f.Module)
	for i := range f.Funcs {
		c.settleMarks(m, &f.Funcs[i].Marks)
	}
	for i := range f.Classes {
		c.settleMarks(m, &f.Classes[i].Marks)
		for j := range f.Classes[i].Methods {
			c.settleMarks(m, &f.Classes[i].Methods[j].Marks)
		}
		c.settleFixtures(m, f.Classes[i].Fixtures)
	}
	c.settleFixtures(m, f.Fixtures)
}

func (c *classes) settleMarks(m *modFile, s *markSet) {
	for i := range s.Tables {
		c.settleTable(m, &s.Tables[i])
	}
}

func (c *classes) settleFixtures(m *modFile, fx map[string]fixtureFact) {
	for name, f := range fx {
		if f.Params != nil && len(f.Params.Assumed) > 0 {
			t := *f.Params
			c.settleTable(m, &t)
			f.Params = &t
			fx[name] = f
		}
	}
}

func (c *classes) settleTable(m *modFile, t *table) {
	for _, dotted := range t.Assumed {
		if c.module(m, dotted) != nil {
			*t = table{Dynamic: t.Unless, Argnames: t.Argnames, Indirect: t.Indirect}
			return
		}
	}
	t.Assumed = nil
}
