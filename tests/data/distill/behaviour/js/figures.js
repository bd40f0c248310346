// The article's own script: it waits for Distill's events and handlers it names.
function setEpoch(epoch) {
  document.getElementById("epoch-view").textContent = "epoch " + epoch;
}
var teaser = document.getElementById("teaser");
teaser.addEventListener("ready", function () {
  teaser.dataset.ready = (Number(teaser.dataset.ready || 0) + 1).toString();
});
teaser.addEventListener("onscreen", function () {
  var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", "drawn");
  teaser.querySelector(".canvas-holder").appendChild(svg);
});
teaser.addEventListener("offscreen", function () {
  teaser.dataset.offscreen = "seen";
});
document.querySelectorAll("button.toggle").forEach(function (button) {
  button.addEventListener("click", function () {
    document.getElementById(button.dataset.target).classList.toggle("open");
  });
});
// An id kept in data, looked up later; a d-figure a component adds after the page loaded.
var settings = [{ id: "jump-a", epoch: 7 }];
settings.forEach(function (setting) {
  document.getElementById(setting.id).onclick = function () {
    setEpoch(setting.epoch);
  };
});
window.addEventListener("load", function () {
  setTimeout(function () {
    var late = document.createElement("d-figure");
    late.id = "late";
    late.style.display = "block";
    late.style.height = "50px";
    late.addEventListener("onscreen", function () {
      late.dataset.seen = "yes";
    });
    document.getElementById("late-holder").appendChild(late);
  }, 50);
});
