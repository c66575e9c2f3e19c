package htmlreport

import "html/template"

// The pages share one inline style: no external asset, so the site works
// from file:// offline.
const style = `{{define "style"}}<style>
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #1d2330; }
a { color: #1a56b0; text-decoration: none; } a:hover { text-decoration: underline; }
h1 { font-size: 1.4em; margin: .2em 0 .4em; word-break: break-all; }
table { border-collapse: collapse; }
th, td { text-align: left; padding: 2px 10px 2px 0; vertical-align: top; }
.note { color: #6b5200; }
.bar { display: inline-block; width: 120px; height: 10px; background: #f3c4c4; vertical-align: middle; }
.bar span { display: block; height: 100%; background: #5bb36a; }
.pass { color: #1f7a35; } .fail { color: #b3261e; }
table.src { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, monospace; margin-right: 30em; }
table.src td { padding: 0 8px; white-space: pre; tab-size: 4; }
table.src td.n, table.src td.m { text-align: right; color: #8a8f98; user-select: none; }
table.src td.n a, table.src td.m a { color: inherit; display: block; }
tr.hit td.m { background: #5bb36a; color: #fff; } tr.hit td.c { background: #e6f5e8; }
tr.miss td.m { background: #d9534f; color: #fff; } tr.miss td.c { background: #fbe9e8; }
tr.stale td.m { background: #d4a017; color: #fff; } tr.stale td.c { background: #fbf3dc; }
tr.selected td { outline: 2px solid #1a56b0; }
#panel { position: fixed; top: 1em; right: 1em; width: 27em; max-height: 85vh; overflow: auto;
  background: #fff; border: 1px solid #b8c2d6; border-radius: 6px; padding: .6em 1em; box-shadow: 0 2px 10px rgba(0,0,0,.15); }
#panel h2 { font-size: 1.05em; margin: .2em 0; }
#panel ul { padding-left: 1.2em; margin: .3em 0; }
</style>{{end}}`

var tmplIndex = template.Must(template.Must(template.New("index").Parse(style)).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}}</title>{{template "style"}}</head>
<body>
<h1>{{.Title}}</h1>
<p id="summary">{{.Covered}}/{{.Total}} functions executed by a recorded test ({{.RecordedPercent}}), {{len .Files}} files, {{len .Tests}} tests.</p>
<h2>Files</h2>
<table id="files"><tr><th>file</th><th>functions</th><th></th><th></th></tr>
{{range .Files}}<tr><td><a href="{{.Href}}">{{.Path}}</a></td><td>{{.Covered}}/{{.Total}}</td><td><span class="bar"><span style="width: {{.Percent}}%"></span></span></td><td class="note">{{.Note}}</td></tr>
{{end}}</table>
{{if .Untested}}<h2>Untested functions ({{len .Untested}})</h2>
<ul id="untested">{{range .Untested}}<li><a href="{{.Href}}">{{.Path}}:{{.Line}}</a> {{.Name}}{{if .Note}} <span class="note">({{.Note}})</span>{{end}}</li>
{{end}}</ul>{{end}}
<h2>Tests</h2>
<table id="tests"><tr><th>test</th><th>outcome</th><th>recorded</th></tr>
{{range .Tests}}<tr><td><a href="{{.Href}}">{{.ID}}</a></td><td class="{{.Outcome}}">{{.Outcome}}</td><td>{{.Recorded}}</td></tr>
{{end}}</table>
</body></html>
`))

var tmplFile = template.Must(template.Must(template.New("file").Parse(style)).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Path}}</title>{{template "style"}}</head>
<body>
<p><a href="{{.Back}}">all files</a></p>
<h1>{{.Path}}</h1>
<p id="summary">{{.Covered}}/{{.Total}} functions executed{{if .Note}} <span class="note">({{.Note}})</span>{{end}}. Click a line number to list the tests that executed it.</p>
{{if .Funcs}}<table id="functions"><tr><th>function</th><th>lines</th><th>tests</th></tr>
{{range .Funcs}}<tr><td><a href="{{.Href}}">{{.Name}}</a></td><td>{{.Start}}-{{.End}}</td><td>{{range $i, $t := .Tests}}{{if $i}}, {{end}}<a href="{{$t.Href}}">{{$t.ID}}</a>{{else}}<span class="fail">none</span>{{end}}{{if .Stale}} <span class="note">({{.Stale}} stale)</span>{{end}}</td></tr>
{{end}}</table>{{end}}
{{if .Gone}}<h2>Recorded before the file was removed</h2>
<ul>{{range .Recorded}}<li><a href="{{.Test.Href}}">{{.Test.ID}}</a>: lines {{.Lines}}</li>{{end}}</ul>
{{else}}<div id="panel" hidden><h2 id="panel-title"></h2><ul id="panel-tests"></ul><div id="panel-stale"></div></div>
<table class="src" id="source">
{{range .Lines}}<tr id="line-{{.N}}"{{if .Class}} class="{{.Class}}"{{end}}><td class="n"><a href="#line-{{.N}}">{{.N}}</a></td><td class="m"{{if .Title}} title="{{.Title}}"{{end}}><a href="#line-{{.N}}">{{.Mark}}</a></td><td class="c">{{.Text}}</td></tr>
{{end}}</table>
<script>
// A click on a line number or mark sets the fragment #line-N; the panel
// lists the tests that executed line N (and the stale ones). Loaded with
// a fragment, the page opens that line's panel.
(function () {
	var tests = {{.Tests}} || [];
	var panel = document.getElementById("panel");
	function has(spans, n) {
		for (var i = 0; spans && i < spans.length; i++) {
			if (spans[i][0] <= n && n <= spans[i][1]) return true;
		}
		return false;
	}
	function list(el, ts) {
		el.replaceChildren();
		ts.forEach(function (t) {
			var li = document.createElement("li"), a = document.createElement("a");
			a.href = t.href; a.textContent = t.id; li.appendChild(a); el.appendChild(li);
		});
	}
	function show() {
		var old = document.querySelector("tr.selected");
		if (old) old.classList.remove("selected");
		var m = /^#line-(\d+)$/.exec(location.hash);
		if (!m) { panel.hidden = true; return; }
		var n = Number(m[1]), hit = [], stale = [];
		var row = document.getElementById("line-" + n);
		if (row) row.classList.add("selected");
		tests.forEach(function (t) {
			if (has(t.lines, n)) hit.push(t); else if (has(t.stale, n)) stale.push(t);
		});
		document.getElementById("panel-title").textContent = "Line " + n + ": " +
			(hit.length ? "executed by " + hit.length + (hit.length === 1 ? " test" : " tests") : "no recorded test executed it");
		list(document.getElementById("panel-tests"), hit);
		var st = document.getElementById("panel-stale");
		st.replaceChildren();
		if (stale.length) {
			var p = document.createElement("p"), ul = document.createElement("ul");
			p.className = "note";
			p.textContent = "Stale (recorded on an older version of the file; run 'testdex run --coverage' again):";
			list(ul, stale); st.appendChild(p); st.appendChild(ul);
		}
		panel.hidden = false;
	}
	window.addEventListener("hashchange", show);
	show();
})();
</script>{{end}}
</body></html>
`))

var tmplTest = template.Must(template.Must(template.New("test").Parse(style)).Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Test.ID}}</title>{{template "style"}}</head>
<body>
<p><a href="../index.html">all files</a></p>
<h1>{{.Test.ID}}</h1>
<p id="summary"><span class="{{.Test.Outcome}}">{{.Test.Outcome}}</span>, recorded {{.Test.Recorded}}{{if .Test.Note}} <span class="note">({{.Test.Note}})</span>{{end}}. It executed lines of {{len .Files}} files.</p>
<table id="executed"><tr><th>file</th><th>functions</th><th>lines</th></tr>
{{range .Files}}<tr><td><a href="{{.Href}}">{{.Path}}</a></td><td>{{range $i, $f := .Funcs}}{{if $i}}, {{end}}{{$f}}{{end}}</td><td>{{range $i, $l := .Lines}}{{if $i}}, {{end}}<a href="{{$l.Href}}">{{$l.Text}}</a>{{end}}{{if .Stale}} <span class="note">(stale: {{.Stale}})</span>{{end}}</td></tr>
{{end}}</table>
</body></html>
`))
