// Small progressive enhancements; every page works without them.
"use strict";

// A control marked data-autosubmit submits its form when it changes (no inline handlers:
// the Content-Security-Policy forbids them).
document.addEventListener("change", (event) => {
  const control = event.target.closest("[data-autosubmit]");
  if (control && control.form && !window.htmx) {
    control.form.requestSubmit();
  }
});
