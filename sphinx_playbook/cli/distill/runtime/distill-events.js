/* Distill's d-figure events, for an article imported by sphinx-playbook import-distill.
 *
 * Distill's runtime (template.v2.js) fired "ready" once on each <d-figure> as it neared
 * the viewport, then "onscreen" and "offscreen" as it entered and left it; the
 * article's scripts draw on them. The theme replaces that runtime, so this file (loaded
 * only on pages whose scripts listen to these events) fires them again. A file, not an
 * inline script: the page keeps working under a strict Content-Security-Policy.
 */
(function () {
  "use strict";
  if (!("IntersectionObserver" in window)) {
    return;
  }
  var state = new WeakMap();

  function fire(figure, name) {
    figure.dispatchEvent(new CustomEvent(name));
  }

  function ready(figure) {
    var seen = state.get(figure);
    if (!seen.ready) {
      seen.ready = true;
      fire(figure, "ready");
    }
  }

  // "ready": within one viewport's height of the screen, once.
  var near = new IntersectionObserver(
    function (entries) {
      entries.forEach(function (entry) {
        if (entry.isIntersecting) {
          ready(entry.target);
          near.unobserve(entry.target);
        }
      });
    },
    { rootMargin: "100% 0px 100% 0px" }
  );

  // "onscreen" as it enters the viewport, "offscreen" as it leaves it.
  var direct = new IntersectionObserver(
    function (entries) {
      entries.forEach(function (entry) {
        var figure = entry.target;
        var seen = state.get(figure);
        if (entry.isIntersecting && !seen.onscreen) {
          ready(figure);
          seen.onscreen = true;
          fire(figure, "onscreen");
        } else if (!entry.isIntersecting && seen.onscreen) {
          seen.onscreen = false;
          fire(figure, "offscreen");
        }
      });
    },
    { threshold: [0] }
  );

  function observe(figure) {
    if (!state.has(figure)) {
      state.set(figure, { ready: false, onscreen: false });
      near.observe(figure);
      direct.observe(figure);
    }
  }

  function start() {
    document.querySelectorAll("d-figure").forEach(observe);
    // Figures a script adds later (a component rendering its own <d-figure>).
    new MutationObserver(function () {
      document.querySelectorAll("d-figure").forEach(observe);
    }).observe(document.body, { childList: true, subtree: true });
  }

  // After the article's scripts (and modules) have added their listeners.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
