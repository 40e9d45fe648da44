// The log viewer: times written as everywhere else (app.js), time boxes that send the zone
// they were typed in, and "Load more" that appends the next page in place.
(() => {
  const localise = (root) => window.payloadConsoleLocalise && window.payloadConsoleLocalise(root);

  // The boxes show and take local time; the server learns the zone from tz.
  const tz = document.getElementById("log-tz");
  if (tz) {
    tz.value = String(new Date().getTimezoneOffset());
    document.querySelectorAll("[data-utc-input]").forEach((input) => {
      const label = document.querySelector(`label[for="${input.id}"]`);
      if (label) label.textContent = label.textContent.replace(" (UTC)", "");
      if (input.value) {
        const date = new Date(`${input.value}:00Z`);
        const shifted = new Date(date.getTime() - date.getTimezoneOffset() * 60000);
        input.value = shifted.toISOString().slice(0, 16);
      }
    });
  }

  const more = document.getElementById("load-more");
  const rows = document.getElementById("log-rows");
  const status = document.getElementById("load-status");
  if (!more || !rows) return;
  more.addEventListener("click", (event) => {
    event.preventDefault();
    const url = new URL(more.href, window.location.href);
    url.searchParams.set("rows", "only");
    more.setAttribute("aria-disabled", "true");
    if (status) status.textContent = "Loading…";
    fetch(url, { credentials: "same-origin" })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return Promise.all([response.text(), response.headers.get("X-Next-Page")]);
      })
      .then(([html, next]) => {
        const holder = document.createElement("tbody");
        holder.innerHTML = html;
        const added = Array.from(holder.children);
        added.forEach((row) => rows.appendChild(row));
        localise(rows);
        if (status) status.textContent = `${added.length} more lines.`;
        if (next) {
          more.href = next;
          more.removeAttribute("aria-disabled");
        } else {
          more.remove();
          if (status) status.textContent = `${added.length} more lines; that is all.`;
        }
      })
      .catch(() => {
        more.removeAttribute("aria-disabled");
        if (status) status.textContent = "Could not load more; try again.";
      });
  });
})();
