/* sphinx_playbook: small enhancements over a page that is complete without them.
 * Colour-mode switch, search dialog, table-of-contents highlighting and
 * collapsing, chapters menu, remote announcement. No dependencies. */
(() => {
  "use strict";
  const root = document.documentElement;
  const WIDE_TOC = window.matchMedia("(min-width: 1200px)");
  const DARK = window.matchMedia("(prefers-color-scheme: dark)");

  /* Colour mode: auto -> light -> dark, stored as pydata-sphinx-theme stores it. */
  function applyMode(mode) {
    const theme = mode === "auto" ? (DARK.matches ? "dark" : "light") : mode;
    root.dataset.mode = mode;
    root.dataset.theme = theme;
    localStorage.setItem("mode", mode);
    localStorage.setItem("theme", theme);
    for (const button of document.querySelectorAll(".pb-theme-switch")) {
      const label = button.dataset["label" + mode[0].toUpperCase() + mode.slice(1)] || mode;
      button.setAttribute("aria-label", `${button.title}: ${label}`);
    }
    for (const frame of document.querySelectorAll("iframe[data-pb-theme]")) sendTheme(frame.contentWindow);
    if (document.querySelector("[data-pb-src][data-pb-theme]")) sendTheme(window);
  }

  /* Interactive figures that follow the mode (interactive/html.py) recolour their plots
     with the theme's colours, resolved from its custom properties; a figure asks for
     them when it loads, and gets them again whenever the mode changes. */
  function sendTheme(target) {
    if (!target || !document.body) return;
    const probe = document.createElement("i");
    probe.style.cssText = "position:absolute;color:var(--pb-text);background:var(--pb-bg);border:1px solid var(--pb-rule)";
    document.body.append(probe);
    const style = getComputedStyle(probe);
    const pbTheme = { dark: root.dataset.theme === "dark", text: style.color, bg: style.backgroundColor, grid: style.borderTopColor };
    probe.remove();
    target.postMessage({ pbTheme }, "*");
  }
  addEventListener("message", (event) => {
    if (event.data?.pbTheme === "request") sendTheme(event.source);
  });
  function setUpModeSwitch() {
    const order = ["auto", "light", "dark"];
    applyMode(root.dataset.mode || "auto");
    for (const button of document.querySelectorAll(".pb-theme-switch")) {
      button.addEventListener("click", () => {
        const next = order[(order.indexOf(root.dataset.mode) + 1) % order.length];
        applyMode(next);
      });
    }
    DARK.addEventListener("change", () => {
      if (root.dataset.mode === "auto") applyMode("auto");
    });
  }

  /* Search: the header link opens a dialog; Ctrl+K / Cmd+K too. */
  function setUpSearch() {
    const dialog = document.getElementById("pst-search-dialog");
    if (!dialog || typeof dialog.showModal !== "function") return;
    const open = () => {
      dialog.showModal();
      dialog.querySelector("input")?.focus();
    };
    for (const link of document.querySelectorAll(".pb-search-button")) {
      link.addEventListener("click", (event) => {
        event.preventDefault();
        open();
      });
    }
    document.addEventListener("keydown", (event) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === "k") {
        event.preventDefault();
        dialog.open ? dialog.close() : open();
      }
    });
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close(); // a click on the backdrop
    });
  }

  /* Table of contents: open on wide screens, and highlight the section in view. */
  function setUpToc() {
    const details = document.querySelector(".pb-toc__details");
    if (!details) return;
    const syncOpen = () => {
      if (details.hasAttribute("data-open-wide")) details.open = WIDE_TOC.matches;
    };
    WIDE_TOC.addEventListener("change", syncOpen);

    const links = new Map();
    for (const link of details.querySelectorAll("a[href^='#']")) {
      const id = decodeURIComponent(link.hash.slice(1));
      const target = id && document.getElementById(id);
      if (target) links.set(target, link);
    }
    if (!links.size || !("IntersectionObserver" in window)) return;
    const headings = [...links.keys()];
    let current = null;
    const mark = (link) => {
      if (link === current) return;
      current?.classList.remove("active");
      current?.removeAttribute("aria-current");
      current = link;
      if (!link) return;
      link.classList.add("active");
      link.setAttribute("aria-current", "location");
      if (WIDE_TOC.matches && details.scrollHeight > details.clientHeight) {
        const box = details.getBoundingClientRect();
        const at = link.getBoundingClientRect();
        if (at.top < box.top || at.bottom > box.bottom) {
          details.scrollTop += at.top - box.top - box.height / 3;
        }
      }
    };
    // The current section is the last one whose heading has reached the top of the
    // view (within 100 px); at the end of the page, the last heading in view.
    const update = () => {
      const atEnd = window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
      const line = atEnd ? window.innerHeight : Math.min(window.innerHeight * 0.3, 100);
      let active = null;
      for (const heading of headings) {
        if (heading.getBoundingClientRect().top <= line) active = heading;
        else break;
      }
      mark(active ? links.get(active) : null);
    };
    const observer = new IntersectionObserver(update, {
      rootMargin: "0px 0px -70% 0px",
      threshold: [0, 1],
    });
    for (const heading of headings) observer.observe(heading);
    window.addEventListener("scroll", () => requestAnimationFrame(update), { passive: true });
    update();
  }

  /* Wide blocks (l-page, l-screen, bands, the appendix) reach into the left margin:
     the table of contents fades out while one of them is beside it. */
  function setUpTocFade() {
    const toc = document.querySelector(".pb-toc");
    const box = toc?.querySelector(".pb-toc__details");
    const body = document.querySelector(".pb-body");
    if (!box || !body || !("IntersectionObserver" in window)) return;
    const inView = new Set();
    const check = () => {
      const t = box.getBoundingClientRect();
      toc.toggleAttribute("data-covered", [...inView].some((block) => {
        const b = block.getBoundingClientRect();
        return b.top < t.bottom && b.bottom > t.top;
      }));
    };
    const observer = new IntersectionObserver((entries) => {
      for (const e of entries) e.isIntersecting ? inView.add(e.target) : inView.delete(e.target);
      check();
    });
    // The blocks of the body grid that start left of the TOC's right edge.
    const watch = () => {
      observer.disconnect();
      inView.clear();
      toc.removeAttribute("data-covered");
      if (!WIDE_TOC.matches) return;
      const right = box.getBoundingClientRect().right;
      for (const block of body.querySelectorAll(":scope > *, section:not(.pb-appendix section) > *")) {
        if (block.matches("section:not(.pb-appendix)")) continue;
        if (block.getBoundingClientRect().left < right) observer.observe(block);
      }
    };
    watch();
    box.addEventListener("toggle", check);
    addEventListener("scroll", () => requestAnimationFrame(check), { passive: true });
    WIDE_TOC.addEventListener("change", watch);
  }

  /* Zoom: a figure's image links to its file (images.py); here the link opens it
     full-size in a modal dialog instead, which gives focus back when it closes. */
  function setUpZoom() {
    // Sphinx links a resized image to its own file too (not an author's :target:).
    const links = [...document.querySelectorAll(".pb-body :is(a.pb-zoom, figure a.image-reference)")]
      .filter((a) => a.matches(".pb-zoom") || a.getAttribute("href") === a.querySelector("img")?.getAttribute("src"));
    if (!links.length || typeof HTMLDialogElement !== "function") return;
    const dialog = document.createElement("dialog");
    dialog.className = "pb-zoom-dialog";
    dialog.innerHTML = '<button type="button" class="pb-zoom-dialog__close" aria-label="Close">×</button><img alt="">';
    document.body.append(dialog);
    const [close, image] = dialog.children;
    let opener = null;
    for (const link of links) {
      link.addEventListener("click", (event) => {
        if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return; // a new tab
        event.preventDefault();
        const shown = link.querySelector("img");
        opener = link;
        image.src = link.href;
        image.alt = shown?.alt ?? "";
        dialog.setAttribute("aria-label", shown?.alt || "Image");
        dialog.showModal();
        close.focus();
      });
    }
    close.addEventListener("click", () => dialog.close());
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog || event.target === image) dialog.close();
    });
    // Sphinx's sphinx_highlight.js cancels Escape on the document, so the dialog's own
    // Escape never fires: close it here, before the event gets there. Tab stays on
    // the dialog's one control.
    document.addEventListener("keydown", (event) => {
      if (!dialog.open || (event.key !== "Escape" && event.key !== "Tab")) return;
      event.preventDefault();
      event.stopPropagation();
      if (event.key === "Escape") dialog.close();
      else close.focus();
    }, true);
    dialog.addEventListener("close", () => opener?.focus());
  }

  /* Chapters and versions menus: close on Escape or on a click elsewhere. */
  function setUpMenus() {
    const menus = document.querySelectorAll(".pb-chapters, .pb-version-switcher");
    document.addEventListener("click", (event) => {
      for (const menu of menus) if (!menu.contains(event.target)) menu.open = false;
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      for (const menu of menus) {
        if (menu.open) {
          menu.open = false;
          menu.querySelector("summary")?.focus();
        }
      }
    });
  }

  /* A copy button on every code block, unless sphinx-copybutton draws them. */
  function setUpCopyButtons() {
    if (!navigator.clipboard || document.body.dataset.pbCopy === "off") return;
    for (const block of document.querySelectorAll(".pb-body div.highlight")) {
      if (block.querySelector(".copybtn, .pb-copy")) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "pb-copy";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy code");
      button.addEventListener("click", async () => {
        const code = block.querySelector("pre")?.innerText ?? "";
        try {
          await navigator.clipboard.writeText(code.replace(/\n$/, ""));
          button.textContent = "Copied";
        } catch {
          button.textContent = "Press Ctrl+C";
        }
        setTimeout(() => (button.textContent = "Copy"), 1500);
      });
      block.append(button);
    }
  }

  /* Citation and cross-reference cards: CSS opens them on hover and focus; here they
     are kept inside the window, and Escape closes the one that is open. */
  function setUpCards() {
    // A cross-reference's card waits in the page's store; it moves beside the link in use.
    const own = (cite) => {
      const stored = cite.matches(".pb-xref") && document.getElementById(cite.getAttribute("aria-describedby"));
      if (stored && stored.parentElement !== cite) cite.append(stored);
      return cite.querySelector(".pb-card");
    };
    const place = (cite) => {
      const card = own(cite);
      card?.removeAttribute("data-above");
      if (!card || getComputedStyle(card).position === "fixed") return;
      card.style.left = "";
      const box = card.getBoundingClientRect();
      const overflow = box.right - (document.documentElement.clientWidth - 8);
      if (overflow > 0) card.style.left = `${-Math.min(overflow, box.left - 8)}px`;
      // Above the link when the window has no room below it and room above.
      if (box.bottom > innerHeight && box.height + 16 < cite.getBoundingClientRect().top) {
        card.setAttribute("data-above", "");
      }
    };
    const NARROW = window.matchMedia("(max-width: 599.98px)");
    const cites = document.querySelectorAll(".pb-cite, .pb-xref");
    const closeAll = (except) => {
      for (const other of cites) if (other !== except) other.removeAttribute("data-open");
    };
    for (const cite of cites) {
      const reset = () => cite.removeAttribute("data-dismissed");
      cite.addEventListener("pointerenter", () => { reset(); place(cite); });
      cite.addEventListener("focusin", () => { reset(); place(cite); });
      cite.addEventListener("pointerleave", reset);
      // On a phone the first tap opens the card; a second tap follows the link.
      for (const link of cite.querySelectorAll(".pb-cite__link, .pb-xref > a")) {
        link.addEventListener("click", (event) => {
          if (!NARROW.matches || cite.hasAttribute("data-open") || !own(cite)) return;
          event.preventDefault();
          closeAll(cite);
          reset();
          cite.setAttribute("data-open", "");
        });
      }
    }
    document.addEventListener("click", (event) => {
      if (!event.target.closest?.(".pb-cite, .pb-xref")) closeAll(null);
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      for (const cite of document.querySelectorAll(":is(.pb-cite, .pb-xref):is(:hover, :focus-within, [data-open])")) {
        // Focus in the card would be lost as it hides: back to the number.
        if (cite.querySelector(".pb-card:focus-within")) cite.querySelector("a")?.focus();
        cite.setAttribute("data-dismissed", "");
        cite.removeAttribute("data-open");
      }
    });
  }

  /* A box that scrolls sideways (a long code line, wide math or table) takes focus,
     so the keyboard can scroll it; re-checked when the width changes. */
  function setUpScrollers() {
    const boxes = document.querySelectorAll(".pb-body :is(pre, div.math, .math-wrapper, .pst-scrollable-table-container)");
    const mark = () => {
      for (const box of boxes) {
        if (box.scrollWidth > box.clientWidth) box.tabIndex = 0;
        else box.removeAttribute("tabindex");
      }
    };
    mark();
    addEventListener("resize", () => requestAnimationFrame(mark), { passive: true });
  }

  /* pydata-sphinx-theme's announcement option given as a URL of the site's own origin
     (another origin is refused at build time, and here). */
  async function loadAnnouncement() {
    const banner = document.querySelector(".pb-announcement[data-pst-announcement-url]");
    if (!banner) return;
    const url = new URL(banner.dataset.pstAnnouncementUrl, location.href);
    if (url.origin !== location.origin) return; // never a request to another origin
    try {
      const response = await fetch(url);
      if (!response.ok) return;
      const html = (await response.text()).trim();
      if (!html) return;
      banner.innerHTML = `<div class="pb-announcement__content">${html}</div>`;
      banner.hidden = false;
    } catch {
      /* offline or blocked: no banner */
    }
  }

  /* pydata-sphinx-theme's options (theme/options.py): the version switcher's list
     when its JSON was not read at build time, fetched from this origin only; the
     version warning; the arrow keys with navigation_with_keys. */
  async function loadVersions() {
    const menu = document.querySelector(".pb-version-switcher[data-pb-json-url]");
    if (!menu) return;
    const url = new URL(menu.dataset.pbJsonUrl, location.href);
    if (url.origin !== location.origin) return; // never a request to another origin
    let versions;
    try {
      const response = await fetch(url);
      versions = response.ok ? await response.json() : [];
    } catch {
      return;
    }
    const match = menu.dataset.pbVersionMatch;
    const safe = (href) => /^(https?:|[^:]*$)/i.test(href);
    const entries = (Array.isArray(versions) ? versions : []).filter((v) => v && v.version && v.url && safe(String(v.url)));
    for (const each of document.querySelectorAll(".pb-version-switcher[data-pb-json-url]")) {
      each.querySelector("ul").replaceChildren(...entries.map((v) => {
        const item = document.createElement("li");
        const link = item.appendChild(document.createElement("a"));
        link.href = v.url;
        link.textContent = v.name || v.version;
        if (String(v.version) === match) link.setAttribute("aria-current", "true");
        return item;
      }));
      const current = entries.find((v) => String(v.version) === match);
      if (current?.name) each.querySelector("summary").lastChild.textContent = current.name;
    }
    const preferred = entries.find((v) => v.preferred === true);
    const banner = document.querySelector("[data-pb-version-warning]");
    if (banner && preferred && String(preferred.version) !== match) {
      const content = banner.appendChild(document.createElement("div"));
      content.className = "pb-announcement__content";
      content.textContent = `This is the documentation of version ${match}. `;
      const link = content.appendChild(document.createElement("a"));
      link.href = preferred.url;
      link.textContent = `Switch to ${preferred.name || preferred.version}`;
      banner.hidden = false;
    }
  }
  function setUpNavigationKeys() {
    if (!document.querySelector("[data-pb-navigation-keys]")) return;
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
      if (event.target.closest?.("input, textarea, select, [contenteditable]")) return;
      const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
      const link = rel && document.querySelector(`link[rel="${rel}"], a[rel="${rel}"]`);
      if (link) location.href = link.href;
    });
  }

  setUpModeSwitch();
  setUpSearch();
  setUpToc();
  setUpTocFade();
  setUpZoom();
  setUpMenus();
  setUpCopyButtons();
  setUpCards();
  setUpScrollers();
  loadAnnouncement();
  loadVersions();
  setUpNavigationKeys();
})();
