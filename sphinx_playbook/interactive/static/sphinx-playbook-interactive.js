(() => {
	const loads = {};
	const run = (old, base) => {
		const s = document.createElement("script");
		if (!old.src) return (s.text = old.text), old.replaceWith(s);
		const url = new URL(old.getAttribute("src"), base).href;
		loads[url] ??= new Promise((ok) => {
			s.onload = s.onerror = ok;
			document.head.append(Object.assign(s, { src: url }));
		});
		return old.remove(), loads[url];
	};
	const show = async (box) => {
		const url = new URL(box.dataset.pbSrc, location.href);
		const doc = new DOMParser().parseFromString(await (await fetch(url)).text(), "text/html");
		box.replaceChildren(...doc.head.querySelectorAll("script"), doc.querySelector("[data-pb-box]"));
		for (const old of box.querySelectorAll("script:not([type*=json])")) await run(old, url);
	};
	const io = new IntersectionObserver((all) => {
		for (const e of all) if (e.isIntersecting) io.unobserve(e.target), show(e.target);
	}, { rootMargin: "600px" });
	for (const box of document.querySelectorAll("[data-pb-src]")) io.observe(box);
})();
