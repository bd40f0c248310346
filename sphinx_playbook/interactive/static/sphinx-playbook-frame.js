/* In a figure's box (interactive/html.py), after the export's own scripts: a file, so
   that the figure works under a Content-Security-Policy without inline scripts.
   Fixed-size Plotly plots are resized to the box they are shown in (CSS zoom would
   misplace their labels), again whenever the box changes size. With data-pb-follow,
   the plots follow the reader's colour mode: the frame asks the article page for the
   theme's colours when it loads, and the page sends them again whenever the mode
   changes (sphinx-playbook.js); Plotly.relayout recolours the plots without running
   the export again, and back to the export's own colours in light mode. */
(function () {
  var script = document.currentScript;
  var b = script.closest("[data-pb-box]");
  if (!b) return;
  function fit() {
    if (!window.Plotly) return;
    b.querySelectorAll(".plotly-graph-div").forEach(function (d) {
      for (var p = d; p && p !== b; p = p.parentElement) p.style.width = p.style.height = "100%";
      if (d.layout) Plotly.relayout(d, { width: b.clientWidth, height: b.clientHeight });
    });
  }
  if (document.readyState === "complete") fit();
  else addEventListener("load", fit);
  addEventListener("resize", fit);
  if (!script.hasAttribute("data-pb-follow")) return;
  var saved = new Map();
  function get(o, k) {
    return k.split(".").reduce(function (v, p) { return v && v[p]; }, o);
  }
  function apply(t) {
    if (!window.Plotly) return;
    b.querySelectorAll(".plotly-graph-div").forEach(function (d) {
      if (!d.layout || (!t.dark && !saved.has(d))) return;
      var k = ["paper_bgcolor", "plot_bgcolor", "font.color"], u = {}, o;
      Object.keys(d.layout).concat(["xaxis", "yaxis"]).forEach(function (a) {
        if (/^[xy]axis\d*$/.test(a) && k.indexOf(a + ".gridcolor") < 0)
          k.push(a + ".gridcolor", a + ".zerolinecolor", a + ".linecolor");
      });
      if (!saved.has(d)) {
        o = {};
        k.forEach(function (n) { var v = get(d.layout, n); o[n] = v === undefined ? null : v; });
        saved.set(d, o);
      }
      o = saved.get(d);
      k.forEach(function (n) {
        u[n] = !t.dark ? (n in o ? o[n] : null)
          : n === "font.color" ? t.text : /bgcolor$/.test(n) ? t.bg : t.grid;
      });
      Plotly.relayout(d, u);
    });
  }
  addEventListener("message", function (e) {
    if (e.source === parent && e.data && typeof e.data.pbTheme === "object") apply(e.data.pbTheme);
  });
  parent.postMessage({ pbTheme: "request" }, "*");
})();
