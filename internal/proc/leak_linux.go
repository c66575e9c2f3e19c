package proc

import (
	"os"
	"strconv"
	"strings"
)

// leftovers lists the live (not zombie) processes of process group pgid,
// read from /proc.
func leftovers(pgid int) []Leak {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []Leak
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(data)
		open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || close < open {
			continue
		}
		f := strings.Fields(s[close+1:])
		// state is f[0], ppid f[1], pgrp f[2]
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" || f[2] != strconv.Itoa(pgid) {
			continue
		}
		out = append(out, Leak{PID: pid, Command: s[open+1 : close]})
	}
	return out
}
