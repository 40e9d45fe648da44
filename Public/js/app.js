// Small progressive enhancements; every page works without them.
// Inline styles and scripts are blocked by the Content-Security-Policy, so colours from data
// attributes are applied here and confirmations are attached here.
const paintColours = () => {
  for (const element of document.querySelectorAll("[data-color]")) {
    element.style.backgroundColor = element.dataset.color;
  }
};
// Content swapped in place (the simulator) brings its own colours to paint.
document.addEventListener("content-replaced", paintColours);
document.addEventListener("DOMContentLoaded", paintColours);
// Asked on the document, so a form swapped in later asks too.
document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.matches("form[data-confirm]") && !window.confirm(form.dataset.confirm)) event.preventDefault();
});

// Branding: keep the colour picker, the RGBA numbers and the preview button in step.
document.addEventListener("DOMContentLoaded", () => {
  const picker = document.querySelector("[data-sync=rgba]");
  if (!picker) return;
  const fields = ["red", "green", "blue"].map((name) => document.getElementById("branding-" + name));
  const preview = document.getElementById("preview-button");
  const hex = (value) => Math.max(0, Math.min(255, Number(value) || 0)).toString(16).padStart(2, "0");
  // Text on the preview button is black or white, whichever reads better on the colour
  // (WCAG relative luminance): one of the two always reaches 4.5:1.
  const luminance = (color) => [1, 3, 5]
    .map((start) => parseInt(color.slice(start, start + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4))
    .reduce((sum, c, index) => sum + c * [0.2126, 0.7152, 0.0722][index], 0);
  const paint = () => {
    if (!preview) return;
    preview.style.backgroundColor = picker.value;
    preview.style.color = luminance(picker.value) > 0.179 ? "#000000" : "#ffffff";
  };
  // The stored colour, not the stylesheet's placeholder, from the moment the page opens.
  paint();
  picker.addEventListener("input", () => {
    const value = picker.value.slice(1);
    fields.forEach((field, index) => { field.value = parseInt(value.slice(index * 2, index * 2 + 2), 16); });
    paint();
  });
  fields.forEach((field) => field.addEventListener("input", () => {
    picker.value = "#" + fields.map((f) => hex(f.value)).join("");
    paint();
  }));
});

// Enter in a box that belongs to a side action (the geofence's "test a point") runs that
// action instead of saving the whole form. Without scripts Enter saves, which loses nothing.
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (event.key !== "Enter" || !(target instanceof HTMLInputElement) || !target.dataset.enterClicks) return;
  const button = document.getElementById(target.dataset.enterClicks);
  if (!button) return;
  event.preventDefault();
  button.click();
});

// After a refused save, the problems are listed at the top of the form, each a link to its
// field, and the list takes the focus: a keyboard or screen-reader user hears what to fix
// first, and a long form does not hide a message below the fold. A control's small form (a
// simulator control, a command, a note) keeps the focus on its field, and a form of one or two
// fields gets it on its first refused field, instead. The field
// messages are written by the server; without this script they are all still there.
document.addEventListener("DOMContentLoaded", () => {
  const messages = [...document.querySelectorAll("main .field-error[id]")];
  if (messages.length === 0) return;
  const form = messages[0].closest("form");
  if (!form || form.matches(".control-row, .inline-form, .command-form")) return;
  const fields = form.querySelectorAll("input:not([type=hidden]):not([tabindex='-1']), select, textarea");
  let summary = document.getElementById("form-errors");
  if (!summary && fields.length < 3) {
    // A short form needs no list: the focus goes to its first refused field, unless the
    // page already put it somewhere.
    if (!document.querySelector("main [autofocus]")) form.querySelector("[aria-invalid='true']")?.focus();
    return;
  }
  if (!summary) {
    summary = document.createElement("div");
    summary.id = "form-errors";
    summary.className = "form-error";
    summary.setAttribute("role", "alert");
    // A search or filter (a GET form) saves nothing, so it does not say so.
    summary.textContent = form.method === "post" ? "Some fields need attention. Nothing was saved." : "Some fields need attention.";
    form.prepend(summary);
  }
  const list = document.createElement("ul");
  list.className = "error-summary";
  for (const message of messages) {
    // The field the message describes, or the first choice of the group it sits in.
    const field = document.querySelector(`[aria-describedby~="${message.id}"]`)
      || message.closest("fieldset, .field")?.querySelector("input:not([type=hidden]), select, textarea");
    if (!field || !field.id && !field.name) continue;
    const label = (field.id && document.querySelector(`label[for="${field.id}"]`))
      || message.closest("fieldset")?.querySelector("legend");
    const link = document.createElement("a");
    link.href = field.id ? "#" + field.id : "#" + message.id;
    link.textContent = (label ? label.textContent.trim() + ": " : "") + message.textContent.trim();
    link.addEventListener("click", (event) => {
      event.preventDefault();
      field.focus();
      field.scrollIntoView({ block: "center" });
    });
    const item = document.createElement("li");
    item.append(link);
    list.append(item);
  }
  summary.append(list);
  summary.tabIndex = -1;
  summary.focus();
});

// Times: one way of writing them across the console — day, month, 24-hour clock (the year only
// when it is not this one), in the reader's own zone, UTC on hover. A time the page wrote as
// "2 hours ago" keeps that beside the exact time, or, in a table's narrow cell, keeps it with
// the exact time on hover. Log lines carry their seconds.
const relativeTime = /^(just now|\d+ (minute|hour|day)s? ago)$/;
const exactTime = (date, seconds) => date.toLocaleString("en-GB", {
  year: date.getFullYear() === new Date().getFullYear() ? undefined : "numeric", month: "short", day: "numeric",
  hour: "2-digit", minute: "2-digit", second: seconds ? "2-digit" : undefined, hourCycle: "h23",
});
window.payloadConsoleLocalise = (root) => {
  root.querySelectorAll("time[datetime]").forEach((time) => {
    const date = new Date(time.dateTime);
    if (Number.isNaN(date.getTime()) || time.dataset.localised) return;
    time.dataset.localised = "yes";
    const exact = exactTime(date, Boolean(time.closest("table.logs")));
    const said = time.textContent.trim();
    time.title = `${time.dateTime.replace("T", " ").replace("Z", "")} UTC`;
    if (relativeTime.test(said)) {
      if (time.closest("td")) time.title = `${exact} (${time.title})`;
      else time.textContent = `${exact} (${said})`;
    } else {
      time.textContent = exact;
    }
  });
};
document.addEventListener("DOMContentLoaded", () => window.payloadConsoleLocalise(document));
document.addEventListener("content-replaced", () => window.payloadConsoleLocalise(document));
