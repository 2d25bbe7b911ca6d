/**
 * fluxperf's self-contained HTML pages: {@link io.fluxperf.engine.html.HtmlPage} writes the tables
 * and inlines the page's data and {@code charts.js}, which draws the charts as SVG in the browser
 * (percentile spectra on HdrHistogram's "nines" axis, values over time). No page fetches anything.
 * {@link io.fluxperf.engine.html.RunHtmlReport} is {@code report DIR --html}, made from a run
 * directory's files alone; {@link io.fluxperf.engine.html.ComparisonHtml} is {@code compare --html}.
 */
package io.fluxperf.engine.html;
