import { scale } from "./scale.js";

export function draw(mount) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("width", String(scale(100)));
  svg.setAttribute("height", "40");
  svg.setAttribute("class", "drawn");
  mount.appendChild(svg);
  import("./lazy.js").catch(() => {});
}
