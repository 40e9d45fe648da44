// Keeps an open simulator current, and makes its controls act in place: the server pushes
// "changed" over Server-Sent Events when the device's policy, commands or state change
// (without a live connection the page polls), and a control's form is sent in the
// background. Either way the page is fetched again and its content swapped in, so the
// scroll position and the place on the page stay. Without scripts every control is a plain
// form and the page reloads; nothing needs this file.
(() => {
  const root = document.getElementById("simulator");
  if (!root) return;
  const { page, events, revisionPath } = root.dataset;
  let revision = Number(root.dataset.revision);
  const say = (text) => { const status = document.getElementById("live-status"); if (status) status.textContent = text; };
  let live = "Live updates connecting…";

  // A swap would throw away what someone is typing; offer it instead.
  const busyTyping = () => {
    const active = document.activeElement;
    return active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") && active.type !== "hidden" && active.value !== active.defaultValue;
  };

  // Puts the page a response holds in place of the current one: the whole <main> (flash
  // message, device, controls, timeline, commands), the focus back on the same control, or on
  // whatever the new page asks for (the lock prompt's answer, a refused field).
  let swapping = Promise.resolve();
  const swapIn = (html) => {
    const next = new DOMParser().parseFromString(html, "text/html");
    const main = next.querySelector("main");
    const nextRoot = next.getElementById("simulator");
    if (!main || !nextRoot) { window.location.assign(page); return; }
    const focused = document.activeElement && document.activeElement.id;
    const scrolled = window.scrollY;
    document.querySelector("main").replaceWith(document.adoptNode(main));
    window.scrollTo(window.scrollX, scrolled);
    revision = Number(nextRoot.dataset.revision);
    document.dispatchEvent(new Event("content-replaced"));
    say(live);
    const wanted = document.querySelector("main [autofocus]") || (focused && document.getElementById(focused));
    if (wanted) {
      wanted.focus({ preventScroll: true });
      // The control and the answer its form shows beside it (an <output>, such as where the
      // device now stands) stay in view, however the new content moved the page.
      const answer = wanted.closest("form")?.querySelector("output");
      const shown = answer || wanted;
      shown.scrollIntoView({ block: "nearest" });
      // So does what the press did: the device and its timeline are held at the top of the
      // window once the page has scrolled to them; scroll that far if the control stays in view.
      const frame = document.querySelector("main .device-frame");
      const below = frame ? frame.getBoundingClientRect().top - 8 : 0;
      const room = shown.getBoundingClientRect().top - 8;
      if (below > 0 && room > 0) window.scrollBy(0, Math.min(below, room));
    }
  };
  // One at a time, in order; `stillWanted` is asked when its turn comes (a push about a
  // change the control's own answer already showed is dropped, keeping that answer's message).
  const load = (url, options, stillWanted = () => true) => {
    swapping = swapping.then(() => {
      if (!stillWanted()) return undefined;
      return fetch(url, { credentials: "same-origin", ...options })
        .then((response) => response.text())
        .then(swapIn)
        .catch(() => window.location.assign(page));
    });
    return swapping;
  };

  // The simulator's own controls: its action forms and command form are posted in the
  // background; the lock-request links (which ask iOS's question) are fetched the same way.
  const actions = root.querySelector("form[action$='/actions']")?.getAttribute("action");
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (event.defaultPrevented) return;
    const action = form.getAttribute("action") || "";
    if ((form.method || "").toLowerCase() !== "post" || !(action === actions || action.endsWith("/commands")) || !form.closest("main")) return;
    event.preventDefault();
    const body = new URLSearchParams(new FormData(form, event.submitter));
    load(action, { method: "POST", body, headers: { "Content-Type": "application/x-www-form-urlencoded" } });
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a#request-asam, a#request-aac, a#prompt-cancel");
    if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    load(link.getAttribute("href"));
  });

  const changed = (next) => {
    if (Number(next) <= revision) return;
    if (busyTyping()) {
      say("The device changed. Reload to see it.");
      return;
    }
    load(page, {}, () => Number(next) > revision);
  };

  let polling = null;
  const poll = () => {
    if (polling) return;
    live = "Checking for changes every second.";
    say(live);
    polling = window.setInterval(() => {
      fetch(revisionPath, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then((response) => (response.ok ? response.json() : null))
        .then((body) => { if (body) changed(body.revision); })
        .catch(() => say("Offline from the console; retrying."));
    }, 1000);
  };

  if (!window.EventSource) { poll(); return; }
  let failures = 0;
  const source = new EventSource(`${events}?since=${revision}`);
  source.addEventListener("open", () => { failures = 0; live = "Live: changes appear within a second."; say(live); });
  source.addEventListener("changed", (event) => changed(event.data));
  source.addEventListener("gone", () => { source.close(); say("This device was removed."); });
  source.addEventListener("error", () => {
    failures += 1;
    // The browser reconnects by itself; after repeated failures fall back to polling.
    if (failures >= 3) { source.close(); poll(); }
  });
})();
