// A classic head script: runs once the page is parsed.
document.addEventListener("DOMContentLoaded", () => {
  const panel = document.getElementById("MC");
  panel.textContent = "Panel drawn";
  document.getElementById("valueRadius").innerHTML = "12";
  // A v1 habit: formulas rendered once in a hidden cache, copied into figures by class.
  panel.dataset.star = document.querySelector("#math-cache .star").innerHTML;
  const frame = new Image();
  frame.src = "frames/frame-1.png";
  frame.alt = "first frame";
  frame.className = "preloaded";
  panel.appendChild(frame);
  fetch("data/points.json").then((response) => response.json()).then((points) => {
    panel.dataset.points = String(points.length);
  });
});
