// The device page while it is open: every few seconds — and at once when its event stream says
// the device changed (a command answered, the policy moved, made through any console) — it asks
// what arrived after the last log line that had arrived, puts new lines where their logged time
// belongs (marked for a moment), and updates the state and answer of each command, so requested
// logs and a command's progress show without a reload. When the policy the device gets changes,
// it says so beside the effective policy.
// Without JavaScript the page is complete as loaded; a reload shows the same.
(() => {
  const section = document.getElementById("recent-logs");
  if (!section || !window.fetch) return;
  const rows = document.getElementById("recent-log-rows");
  const table = document.getElementById("recent-log-table");
  const empty = document.getElementById("no-recent-logs");
  const status = document.getElementById("live-status");
  let newest = section.dataset.newest || "0";
  let arrived = 0;
  let failures = 0;

  const apply = (data) => {
    if (data.added > 0) {
      const holder = document.createElement("tbody");
      holder.innerHTML = data.rows;
      // Lines arrive late and out of order (a crash log on the next launch, a backlog when
      // the network returns): each goes where its logged time puts it, newest first, as the
      // server orders the page; a line logged in the same second as one shown goes above it.
      const loggedAt = (row) => Date.parse(row.querySelector("time[datetime]")?.getAttribute("datetime") || "") || 0;
      Array.from(holder.children).reverse().forEach((row) => {
        row.classList.add("arrived");
        const time = loggedAt(row);
        const after = Array.from(rows.children).find((shown) => loggedAt(shown) <= time);
        rows.insertBefore(row, after || null);
      });
      if (window.payloadConsoleLocalise) window.payloadConsoleLocalise(rows);
      table.hidden = false;
      if (empty) empty.hidden = true;
      arrived += data.added;
      status.textContent = `${arrived} new line${arrived === 1 ? "" : "s"} arrived while this page was open.`;
    }
    newest = data.newest;
    // Commands newest first: one queued elsewhere since this page loaded gets a row on top.
    const commandRows = document.getElementById("command-rows");
    (data.commands || []).slice().reverse().forEach((command) => {
      let row = document.querySelector(`tr[data-command="${CSS.escape(command.uuid)}"]`);
      if (!row && commandRows) {
        row = document.createElement("tr");
        row.dataset.command = command.uuid;
        const cells = [command.name, "", command.queued, command.queuedBy, "", ""].map((text) => {
          const cell = document.createElement("td");
          cell.textContent = text;
          return cell;
        });
        const state = document.createElement("span");
        state.setAttribute("data-status", "");
        cells[1].appendChild(state);
        cells[4].setAttribute("data-answer", "");
        cells[5].setAttribute("data-actions", "");
        cells.forEach((cell) => row.appendChild(cell));
        commandRows.insertBefore(row, commandRows.firstChild);
        const table = document.getElementById("command-table");
        const none = document.getElementById("no-commands");
        if (table) table.hidden = false;
        if (none) none.hidden = true;
      }
      if (!row) return;
      const state = row.querySelector("[data-status]");
      const answer = row.querySelector("[data-answer]");
      if (state && state.textContent !== command.statusName) {
        state.textContent = command.statusName;
        state.className = `status status-${command.status}`;
        row.classList.add("arrived");
      }
      if (answer && answer.textContent !== command.answer) answer.textContent = command.answer;
      // A command that stopped waiting can no longer be taken back.
      const actions = row.querySelector("[data-actions]");
      if (actions && !command.cancellable) actions.replaceChildren();
    });
  };

  let timer = null;
  let asking = false;
  let askAgain = false;
  const ask = () => {
    window.clearTimeout(timer);
    if (asking) { askAgain = true; return; }
    if (document.hidden) return schedule();
    asking = true;
    const url = new URL(section.dataset.livePath, window.location.href);
    if (newest !== "0") url.searchParams.set("after", newest);
    fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then((data) => { failures = 0; apply(data); })
      .catch(() => {
        failures += 1;
        if (failures === 3) status.textContent = "New lines are not arriving: the console cannot be reached. Reload to try again.";
      })
      .finally(() => {
        asking = false;
        if (askAgain) { askAgain = false; ask(); } else { schedule(); }
      });
  };
  const schedule = () => { if (failures < 3) timer = window.setTimeout(ask, 4000); };
  schedule();

  // The policy tag the first message carries is the page's; a later, different one means the
  // policy this device gets changed since the page was loaded.
  const eventsPath = section.dataset.eventsPath;
  if (window.EventSource && eventsPath) {
    let policyTag = null;
    const notice = document.getElementById("policy-changed");
    new EventSource(new URL(eventsPath, window.location.href)).addEventListener("changed", (event) => {
      if (policyTag !== null && event.data !== policyTag && notice) notice.hidden = false;
      if (policyTag === null) {
        policyTag = event.data;
        section.dataset.policyTag = policyTag;  // marks the stream as following the device
      } else {
        ask();
      }
    });
  }
})();
