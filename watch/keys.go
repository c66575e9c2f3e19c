package watch

import "io"

// command is what a key asks the loop for.
type command int

const (
	cmdNone   command = iota
	cmdAll            // a: run every test (in the filters)
	cmdFailed         // f: run only the failing tests
	cmdRerun          // Enter: run the last selection again
	cmdQuit           // q, Ctrl-C, Ctrl-D: stop
	cmdName           // t PATTERN Enter: filter by test name
	cmdPath           // p PATTERN Enter: filter by file path
	cmdHelp           // h, ?: show the keys
	cmdCancel         // Esc in a prompt: leave it
)

// key is one complete command, with its pattern for t and p.
type key struct {
	cmd     command
	pattern string
}

// keyReader turns the bytes of a terminal in cbreak mode into keys. After
// t or p it reads a pattern up to Enter (Backspace deletes, Esc cancels),
// echoing what is typed, since the terminal's own echo is off. It holds
// no terminal: it is fed bytes, so it is tested without one.
type keyReader struct {
	prompt  command // cmdName or cmdPath while a pattern is typed
	pattern []byte
}

// feed takes one byte and returns the key it completes (ok) and what to
// echo.
func (k *keyReader) feed(b byte) (key, bool, string) {
	if k.prompt != cmdNone {
		return k.feedPrompt(b)
	}
	switch b {
	case 'a':
		return key{cmd: cmdAll}, true, ""
	case 'f':
		return key{cmd: cmdFailed}, true, ""
	case '\r', '\n':
		return key{cmd: cmdRerun}, true, ""
	case 'q', 0x03, 0x04: // Ctrl-C reaches here only when the terminal does not signal it
		return key{cmd: cmdQuit}, true, ""
	case 'h', '?':
		return key{cmd: cmdHelp}, true, ""
	case 't':
		k.prompt, k.pattern = cmdName, nil
		return key{}, false, "\nfilter by test name (a regular expression; empty clears it): "
	case 'p':
		k.prompt, k.pattern = cmdPath, nil
		return key{}, false, "\nfilter by file path (a regular expression; empty clears it): "
	}
	return key{}, false, ""
}

func (k *keyReader) feedPrompt(b byte) (key, bool, string) {
	switch {
	case b == '\r' || b == '\n':
		out := key{cmd: k.prompt, pattern: string(k.pattern)}
		k.prompt, k.pattern = cmdNone, nil
		return out, true, "\n"
	case b == 0x1b: // Esc (an arrow key's sequence leaves the prompt too)
		k.prompt, k.pattern = cmdNone, nil
		return key{cmd: cmdCancel}, true, "\n"
	case b == 0x03 || b == 0x04:
		k.prompt, k.pattern = cmdNone, nil
		return key{cmd: cmdQuit}, true, "\n"
	case b == 0x7f || b == 0x08:
		if len(k.pattern) == 0 {
			return key{}, false, ""
		}
		k.pattern = k.pattern[:len(k.pattern)-1]
		return key{}, false, "\b \b"
	case b >= 0x20:
		k.pattern = append(k.pattern, b)
		return key{}, false, string(b)
	}
	return key{}, false, ""
}

// readKeys feeds the bytes of r to a keyReader until r ends, sending the
// keys and echoes on; it never closes the channel (r may stay open). It
// stops when stop is closed, at the next byte.
func readKeys(r io.Reader, out chan<- key, echo func(string), stop <-chan struct{}) {
	var k keyReader
	buf := make([]byte, 64)
	for {
		n, err := r.Read(buf)
		for _, b := range buf[:n] {
			got, ok, e := k.feed(b)
			echo(e)
			if !ok {
				continue
			}
			select {
			case out <- got:
			case <-stop:
				return
			}
		}
		if err != nil {
			return
		}
	}
}
