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
