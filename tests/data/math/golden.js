// Writes golden.json: the vendored KaTeX run by node on every formula of corpus.tex,
// with the options sphinx_playbook uses. The test suite checks that the build-time
// engines (QuickJS, mini-racer) give byte-identical markup. Run after a KaTeX update:
//     node tests/data/math/golden.js
"use strict";
const fs = require("fs");
const path = require("path");
const katex = require("../../../sphinx_playbook/math/vendor/katex/katex.min.js");

const corpus = fs.readFileSync(path.join(__dirname, "corpus.tex"), "utf8");
const macros = JSON.parse(fs.readFileSync(path.join(__dirname, "macros.json"), "utf8"));
const entries = [];
for (const line of corpus.split("\n")) {
  const header = /^% (inline|display)$/.exec(line);
  if (header) entries.push({ display: header[1] === "display", lines: [] });
  else if (entries.length) entries[entries.length - 1].lines.push(line);
}
const golden = entries.map(({ display, lines }) => {
  const tex = lines.join("\n").trim();
  const html = katex.renderToString(tex, {
    displayMode: display, output: "htmlAndMathml", throwOnError: true,
    macros: { ...macros }, trust: false, strict: "ignore",
  });
  return { display, tex, html };
});
fs.writeFileSync(path.join(__dirname, "golden.json"), JSON.stringify(golden, null, 1) + "\n");
console.log(`${golden.length} formulas written to golden.json`);
