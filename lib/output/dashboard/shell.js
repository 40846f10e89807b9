'use strict'

// The dashboard's page: an empty frame that its script (live-page.js)
// fills from the server's events, with uPlot and the report's own chart
// code (lib/output/html/page.js) loaded from the dashboard's server, and
// a policy that lets it reach nothing else. The final report is shown in
// a frame of its own (a blob: document, which inherits this policy: the
// report's inline scripts and styles are allowed, any fetch is not).

const { escapeHtml } = require('../html/tables')

const POLICY = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; connect-src 'self'; img-src data: blob:; frame-src blob:"

function shell ({ heading, version }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="cannonade ${escapeHtml(version)}">
<title>${escapeHtml(heading)}</title>
<link rel="stylesheet" href="/assets/uPlot.min.css">
<link rel="stylesheet" href="/assets/page.css">
<link rel="stylesheet" href="/assets/live-page.css">
</head>
<body>
<h1 id="heading">${escapeHtml(heading)}</h1>
<p class="meta" id="status">connecting…</p>
<div id="live">
<p class="sentence" id="stage" hidden></p>
<table id="live-numbers"><caption>Last interval and so far</caption><tbody></tbody></table>
<div id="search"></div>
<div id="charts"></div>
<div id="warnings"></div>
</div>
<div id="final" hidden>
<p class="sentence" id="final-note">The run is over: its report, as --html writes it. <a id="download" download="report.html" href="#">Download the report</a></p>
<iframe id="report" title="the run's report"></iframe>
</div>
<p class="meta">Served by cannonade ${escapeHtml(version)}</p>
<script src="/assets/uPlot.iife.min.js"></script>
<script src="/assets/page.js"></script>
<script src="/assets/live-page.js"></script>
</body>
</html>
`
}

module.exports = { shell, POLICY }
