package proc

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	ossignal "os/signal"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// The shim makes every process a batch starts die with testdex, however
// testdex ends (SIGKILL included), which no setting of the child alone
// can: the parent-death signal reaches only the direct child (go test),
// not the test binary and what it started, and it fires when the thread
// that started the child ends, which in Go is not the process.
//
// So Run starts not the runner but the program itself again, as the
// shim, leading the new process group: the shim starts the runner in its
// group, waits for it and exits as it did. It holds the read end of a
// pipe whose write end only testdex has (the lifeline). When testdex dies
// the pipe reaches its end, and the shim kills every process below it
// (it is their child subreaper, so a daemon that left the group with
// setsid is still below it), then its whole group, itself included.
// While testdex lives, nothing changes: timeouts still signal the group,
// and what a runner leaves behind is still found and reported when its
// batch ends.
//
// The shim runs from package proc's init, before main, in whatever
// program links proc (testdex, a test binary, an embedding program),
// when the environment holds shimEnv; it never returns to that program.

// shimEnv marks a process started as the shim; the shim removes it before
// it starts the runner.
const shimEnv = "TESTDEX_PROC_SHIM"

// lifelineFD is the shim's file descriptor of the lifeline (the first of
// exec.Cmd.ExtraFiles).
const lifelineFD = 3

func init() {
	if os.Getenv(shimEnv) != "1" {
		return
	}
	os.Exit(shim(os.Args[1:]))
}

// shim runs a program as described above and returns the exit code to
// exit with; args are the program's path, then its argv (argv[0] as the
// runner was named).
func shim(args []string) int {
	os.Unsetenv(shimEnv)
	syscall.CloseOnExec(lifelineFD)
	life := os.NewFile(lifelineFD, "lifeline")
	_ = unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
	// The group's signals are the runner's to act on: the shim waits for
	// it and then exits as it did (SIGKILL still ends it).
	ossignal.Notify(make(chan os.Signal, 1), syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT)
	if len(args) < 2 {
		fmt.Fprintln(os.Stderr, "testdex: shim: no command")
		return 127
	}
	p, err := os.StartProcess(args[0], args[1:], &os.ProcAttr{Files: []*os.File{os.Stdin, os.Stdout, os.Stderr}, Env: os.Environ()})
	if err != nil {
		fmt.Fprintf(os.Stderr, "testdex: start %s: %v\n", args[0], err)
		return 127
	}
	// ending is held by whichever comes first: the killer (the shim then
	// ends by its hand, once everything below is dead) or the runner's
	// end (the shim exits as the runner did). Without it the runner's
	// death, which the killer causes, would end the shim mid-kill.
	var ending sync.Mutex
	go func() {
		_, _ = io.Copy(io.Discard, life) // ends when testdex is gone
		ending.Lock()
		killBelow(os.Getpid())
		_ = syscall.Kill(0, syscall.SIGKILL) // the group, the shim included
	}()
	st, err := p.Wait()
	ending.Lock()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testdex: wait for %s: %v\n", args[0], err)
		return 127
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		ossignal.Reset(ws.Signal()) // end as the runner did, for the exit status testdex reads
		_ = syscall.Kill(os.Getpid(), ws.Signal())
		select {} // the signal ends the process
	}
	return st.ExitCode()
}

// killBelow kills every process below pid, over and over until none is
// left (an orphan is reparented to the subreaper pid while it works).
func killBelow(pid int) {
	self := procKey{pid: pid}
	if p, ok := readStat(pid); ok {
		self.start = p.start
	}
	for range 10 {
		alive := 0
		for _, p := range descendants(self) {
			if !p.gone() {
				alive++
				_ = syscall.Kill(p.pid, syscall.SIGKILL)
			}
		}
		if alive == 0 {
			return
		}
	}
}

// shimmed makes cmd start the shim, which starts what cmd would have, and
// returns the lifeline's write end, which the caller keeps open until the
// shim has been waited for, and the read end, which it closes once the
// shim started. ok is false when the program cannot find itself (cmd is
// left as it was).
func shimmed(cmd *exec.Cmd) (keep, child *os.File, ok bool) {
	self, err := selfPath()
	if err != nil {
		return nil, nil, false
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, nil, false
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], shimEnv+"=1")
	cmd.Args = append([]string{self, cmd.Path}, cmd.Args...)
	cmd.Path = self
	cmd.ExtraFiles = []*os.File{r}
	if cmd.SysProcAttr != nil {
		cmd.SysProcAttr.Pdeathsig = 0 // it would kill the shim before the shim kills its group
	}
	return w, r, true
}

// selfPath is the running program's file, found once.
var selfPath = sync.OnceValues(os.Executable)
