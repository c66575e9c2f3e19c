package proc

import (
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// procKey names one process for its whole life: a PID is reused once the
// process is reaped, its start time with it is not.
type procKey struct {
	pid   int
	start uint64 // clock ticks after boot, field 22 of /proc/PID/stat
}

// procInfo is one process as /proc/PID/stat shows it.
type procInfo struct {
	procKey
	ppid, pgrp int
	state      byte
	comm       string
}

// gone reports a process that has exited (a zombie waiting to be reaped, or
// on its way out).
func (p procInfo) gone() bool { return p.state == 'Z' || p.state == 'X' }

// readStat reads /proc/PID/stat; ok is false when the process does not
// exist (any more) or the file cannot be parsed.
func readStat(pid int) (p procInfo, ok bool) {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return p, false
	}
	s := string(data)
	open, close := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || close < open {
		return p, false
	}
	// After the command: state ppid pgrp session tty_nr tpgid flags minflt
	// cminflt majflt cmajflt utime stime cutime cstime priority nice
	// num_threads itrealvalue starttime ...
	f := strings.Fields(s[close+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return p, false
	}
	p.pid, p.comm, p.state = pid, s[open+1:close], f[0][0]
	var e1, e2, e3 error
	p.ppid, e1 = strconv.Atoi(f[1])
	p.pgrp, e2 = strconv.Atoi(f[2])
	p.start, e3 = strconv.ParseUint(f[19], 10, 64)
	return p, e1 == nil && e2 == nil && e3 == nil
}

// scanAll reads every process of the machine that this user can see, by
// PID; the error is non-nil only when /proc cannot be listed.
func scanAll() (map[int]procInfo, error) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	all := make(map[int]procInfo, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readStat(pid); ok {
			all[pid] = p
		}
	}
	return all, nil
}

// childrenFiles reports whether the kernel provides
// /proc/PID/task/TID/children (CONFIG_PROC_CHILDREN, on in common kernels).
var childrenFiles = sync.OnceValue(func() bool {
	_, err := os.Stat("/proc/thread-self/children")
	return err == nil
})

// childrenOf lists the children of pid from /proc/PID/task/*/children (a
// child is listed under the thread that forked it); none when pid is gone.
func childrenOf(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, _ := os.ReadDir(dir)
	var out []int
	for _, t := range tasks {
		data, _ := os.ReadFile(dir + "/" + t.Name() + "/children")
		for _, f := range strings.Fields(string(data)) {
			if c, err := strconv.Atoi(f); err == nil {
				out = append(out, c)
			}
		}
	}
	return out
}

// descendants returns the live descendants of the process k, walking the
// children files down from it, or, without them, from a scan of every
// process. A process gone or replaced (another start time) has none.
func descendants(k procKey) []procInfo {
	if p, found := readStat(k.pid); !found || p.start != k.start || p.gone() {
		return nil
	}
	if !childrenFiles() {
		all, _ := scanAll()
		tree := subtrees(all, []int{k.pid})
		delete(tree, k.pid)
		return slices.Collect(maps.Values(tree))
	}
	var out []procInfo
	queue := []int{k.pid}
	for len(queue) > 0 {
		kids := childrenOf(queue[0])
		queue = queue[1:]
		for _, c := range kids {
			if p, found := readStat(c); found {
				out = append(out, p)
				queue = append(queue, c)
			}
		}
	}
	return out
}

// subtrees returns the processes of all under the roots, roots included,
// following parent links (a process whose parent is in the set is in it).
func subtrees(all map[int]procInfo, roots []int) map[int]procInfo {
	kids := map[int][]int{}
	for pid, p := range all {
		kids[p.ppid] = append(kids[p.ppid], pid)
	}
	out := map[int]procInfo{}
	queue := append([]int(nil), roots...)
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		p, ok := all[pid]
		if _, seen := out[pid]; seen || !ok {
			continue
		}
		out[pid] = p
		queue = append(queue, kids[pid]...)
	}
	return out
}
