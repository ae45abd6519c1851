// Package static embeds the files the browser loads: the style sheet, the
// app's small script, and the vendored htmx (from the npm package htmx.org,
// see vendor/). The app serves them itself, so it works on a school network
// without internet.
package static

import "embed"

// Files holds app.css, app.js, charts.js and vendor/ (htmx, ECharts 5.4.3,
// the version go-echarts v2.6 targets).
//
//go:embed app.css app.js charts.js vendor
var Files embed.FS
