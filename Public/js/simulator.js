// Keeps an open simulator current: the server pushes "changed" over Server-Sent Events when
// the device's policy, commands or state change; without a live connection the page polls.
(() => {
  const root = document.getElementById("simulator");
  if (!root) return;
  const { page, events, revisionPath } = root.dataset;
  let revision = Number(root.dataset.revision);
  const status = document.getElementById("live-status");
  const say = (text) => { if (status) status.textContent = text; };

  // Reloading would throw away what someone is typing; offer it instead.
  const busyTyping = () => {
    const active = document.activeElement;
    return active && (active.tagName === "INPUT" || active.tagName === "TEXTAREA") && active.type !== "hidden" && active.value !== active.defaultValue;
  };
  // The page's own controls change the device too: once a form is on its way, the answer to
  // it is the next page, and reloading now would cancel that navigation (and its message).
  let leaving = false;
  document.addEventListener("submit", () => { leaving = true; });
  window.addEventListener("beforeunload", () => { leaving = true; });

  const changed = (next) => {
    if (leaving || Number(next) === revision) return;
    revision = Number(next);
    if (busyTyping()) {
      say("The device changed. Reload to see it.");
    } else if (window.location.pathname !== page) {
      // A refused action shows this page at the form's address; reloading that would send it again.
      window.location.assign(page);
    } else {
      window.location.reload();
    }
  };

  let polling = null;
  const poll = () => {
    if (polling) return;
    say("Checking for changes every second.");
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
  source.addEventListener("open", () => { failures = 0; say("Live: changes appear within a second."); });
  source.addEventListener("changed", (event) => changed(event.data));
  source.addEventListener("gone", () => { source.close(); say("This device was removed."); });
  source.addEventListener("error", () => {
    failures += 1;
    // The browser reconnects by itself; after repeated failures fall back to polling.
    if (failures >= 3) { source.close(); poll(); }
  });
})();
