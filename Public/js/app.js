// Small progressive enhancements; every page works without them.
// Inline styles and scripts are blocked by the Content-Security-Policy, so colours from data
// attributes are applied here and confirmations are attached here.
document.addEventListener("DOMContentLoaded", () => {
  for (const element of document.querySelectorAll("[data-color]")) {
    element.style.backgroundColor = element.dataset.color;
  }
  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }
});
