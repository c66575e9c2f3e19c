package api

func Routes() []string { return nil }
