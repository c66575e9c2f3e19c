package htmlreport

import (
	"bufio"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBrowserClickShowsTests opens a file's page in headless Chromium
// (Debian's chromium package; scripts/setup/browser.sh installs it),
// clicks a line number with the mouse as a person would, and checks what
// the page then shows: the panel names the tests that executed the line
// and links to their pages; a line no test executed says so. A screenshot
// of the open panel goes to the test's artifacts (go test -artifacts).
//
// How: Chromium is driven over --remote-debugging-pipe, the DevTools
// protocol as NUL-terminated JSON on file descriptors 3 (to the browser)
// and 4 (from it). That needs no port, no websocket and no third-party
// client, and the click is a real Input.dispatchMouseEvent at the link's
// position, so the test exercises the page's own click path (the link
// sets #line-N, the inline script opens the panel). --dump-dom with a
// #line-N fragment would test the on-load path only. Chromium runs in
// its own process group, killed when the test ends; the whole test is
// bounded by a 60 s context.
//
// It skips, saying why, when no chromium, chromium-browser or
// google-chrome is on PATH.
func TestBrowserClickShowsTests(t *testing.T) {
	bin := findBrowser()
	if bin == "" {
		t.Skip("no chromium, chromium-browser or google-chrome on PATH (scripts/setup/browser.sh installs Debian's chromium)")
	}
	dir := filepath.Join(t.TempDir(), "site")
	writeSample(t, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b := startBrowser(t, ctx, bin)
	page := b.open(t, "file://"+filepath.Join(dir, "files", "0001-a.go.html"))

	// Line 5 (inside Pos) was executed by TestA and TestB.
	b.click(t, page, `#line-5 td.n a`)
	got := b.eval(t, page, `JSON.stringify({hidden: document.getElementById("panel").hidden, hash: location.hash,
		title: document.getElementById("panel-title").innerText,
		tests: [...document.querySelectorAll("#panel-tests a")].map(a => a.innerText + " -> " + a.getAttribute("href")),
		selected: document.querySelector("tr.selected") && document.querySelector("tr.selected").id,
		visible: (r => r.width > 0 && r.height > 0)(document.getElementById("panel").getBoundingClientRect())})`)
	want := `{"hidden":false,"hash":"#line-5","title":"Line 5: executed by 2 tests","tests":["a_test.go::TestA -> ../tests/0001-a_test.go__TestA.html","a_test.go::TestB -> ../tests/0002-a_test.go__TestB.html"],"selected":"line-5","visible":true}`
	if got != want {
		t.Errorf("after a click on line 5:\n got %s\nwant %s", got, want)
	}
	b.screenshot(t, page, filepath.Join(t.ArtifactDir(), "line-5.png"))

	// Line 12 lies in Unused, which no test executed.
	b.click(t, page, `#line-12 td.n a`)
	if got := b.eval(t, page, `document.getElementById("panel-title").innerText + " | " + document.querySelectorAll("#panel-tests li").length + " | " + document.querySelector("#line-12 td.m").innerText`); got != "Line 12: no recorded test executed it | 0 | 0" {
		t.Errorf("after a click on line 12: %s", got)
	}
	// A test's page lists what it executed.
	page2 := b.open(t, "file://"+filepath.Join(dir, "tests", "0001-a_test.go__TestA.html"))
	if got := b.eval(t, page2, `document.getElementById("executed").innerText.replace(/\s+/g, " ").trim()`); got != "file functions lines a.go Pos 3-5" {
		t.Errorf("TestA's page: %q", got)
	}
}

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// browser is a headless Chromium spoken to over the DevTools pipe.
type browser struct {
	ctx  context.Context
	in   *os.File      // fd 3 of the browser: our requests
	out  *bufio.Reader // fd 4 of the browser: its replies and events
	next int
}

func startBrowser(t *testing.T, ctx context.Context, bin string) *browser {
	t.Helper()
	toR, toW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromR, fromW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--headless", "--disable-gpu", "--no-sandbox", "--remote-debugging-pipe",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--window-size=1200,700",
		"--user-data-dir="+t.TempDir(), "about:blank")
	cmd.ExtraFiles = []*os.File{toR, fromW} // fd 3, fd 4
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	toR.Close()
	fromW.Close()
	t.Cleanup(func() {
		toW.Close()
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // the group this test started
		cmd.Wait()
		fromR.Close()
		if t.Failed() {
			t.Logf("chromium's stderr:\n%s", stderr.String())
		}
	})
	// A read blocked on the pipe ends when the context does.
	go func() { <-ctx.Done(); fromR.SetReadDeadline(time.Now()) }()
	return &browser{ctx: ctx, in: toW, out: bufio.NewReader(fromR)}
}

// call sends one command (to a page's session when session is not "")
// and returns its result, skipping the events that come first.
func (b *browser) call(t *testing.T, session, method string, params any) json.RawMessage {
	t.Helper()
	b.next++
	msg := map[string]any{"id": b.next, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	data, _ := json.Marshal(msg)
	if _, err := b.in.Write(append(data, 0)); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	for {
		raw, err := b.out.ReadBytes(0)
		if err != nil {
			t.Fatalf("%s: reading the browser's reply: %v (context: %v)", method, err, b.ctx.Err())
		}
		var reply struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(raw[:len(raw)-1], &reply); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
		if reply.ID != b.next {
			continue // an event, or nothing we wait for
		}
		if reply.Error != nil {
			t.Fatalf("%s: %s", method, reply.Error.Message)
		}
		return reply.Result
	}
}

// open loads url in a new tab and returns its session, once loaded.
func (b *browser) open(t *testing.T, url string) string {
	t.Helper()
	var target struct{ TargetID string }
	json.Unmarshal(b.call(t, "", "Target.createTarget", map[string]any{"url": url}), &target)
	var att struct{ SessionID string }
	json.Unmarshal(b.call(t, "", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}), &att)
	for b.eval(t, att.SessionID, `document.readyState + " " + location.href`) != "complete "+url {
		if b.ctx.Err() != nil {
			t.Fatalf("%s did not load", url)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return att.SessionID
}

// eval evaluates a JavaScript expression in the page and returns its
// value as a string.
func (b *browser) eval(t *testing.T, session, expr string) string {
	t.Helper()
	var r struct {
		Result struct {
			Value any `json:"value"`
		} `json:"result"`
		ExceptionDetails any `json:"exceptionDetails"`
	}
	json.Unmarshal(b.call(t, session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true, "awaitPromise": true}), &r)
	if r.ExceptionDetails != nil {
		t.Fatalf("evaluate %s: %v", expr, r.ExceptionDetails)
	}
	return fmt.Sprint(r.Result.Value)
}

// click scrolls the first element matching selector into view and clicks
// its middle with the mouse; a selector that matches nothing clicks
// nothing.
func (b *browser) click(t *testing.T, session, selector string) {
	t.Helper()
	pos := b.eval(t, session, fmt.Sprintf(`(e => { if (!e) return ""; e.scrollIntoView({block: "center"});
		const r = e.getBoundingClientRect(); return (r.left + r.width / 2) + " " + (r.top + r.height / 2); })(document.querySelector(%q))`, selector))
	var x, y float64
	if _, err := fmt.Sscan(pos, &x, &y); err != nil {
		return
	}
	for _, typ := range []string{"mouseMoved", "mousePressed", "mouseReleased"} {
		b.call(t, session, "Input.dispatchMouseEvent", map[string]any{"type": typ, "x": x, "y": y, "button": "left", "clickCount": 1})
	}
	// The hashchange event runs after the click's task.
	b.eval(t, session, `new Promise(r => setTimeout(r, 50)).then(() => "")`)
}

// screenshot writes the page's viewport as PNG.
func (b *browser) screenshot(t *testing.T, session, path string) {
	t.Helper()
	var r struct{ Data string }
	json.Unmarshal(b.call(t, session, "Page.captureScreenshot", map[string]any{"format": "png"}), &r)
	png, err := base64.StdEncoding.DecodeString(r.Data)
	if err != nil || len(png) < 1000 {
		t.Fatalf("screenshot: %d bytes, %v", len(png), err)
	}
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}
