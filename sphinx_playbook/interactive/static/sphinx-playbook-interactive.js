(() => {
const L = {}, D = document, H = D.head;
const run = (o, base, into) => new Promise((ok) => {
	const s = D.createElement("script");
	for (const a of o.attributes) s.setAttribute(a.name, a.value);
	s.src = new URL(o.getAttribute("src"), base);
	s.onload = s.onerror = ok;
	into ? into.append(s) : o.replaceWith(s);
});
const show = async (box) => {
	const url = new URL(box.dataset.pbSrc, location.href);
	const doc = new DOMParser().parseFromString(await (await fetch(url)).text(), "text/html");
	for (const l of doc.head.querySelectorAll("[data-pb-own]")) H.append(Object.assign(l, { href: new URL(l.getAttribute("href"), url) }));
	const libs = doc.head.querySelectorAll("script");
	box.replaceChildren(doc.querySelector("[data-pb-box]"));
	for (const o of libs) await (L[o.getAttribute("src")] ??= run(o, url, H));
	for (const o of box.querySelectorAll("script[src]")) await run(o, url);
};
const io = new IntersectionObserver((all) => {
	for (const e of all) if (e.isIntersecting) io.unobserve(e.target), show(e.target);
}, { rootMargin: "600px" });
for (const box of D.querySelectorAll("[data-pb-src]")) io.observe(box);
})();
