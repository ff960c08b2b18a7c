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

// referee: the card pad types into the card field last chosen; a change of rules reloads the
// page (the contracts offered depend on them); the ruling's link can be copied or shared.
(() => {
  const pad = document.querySelector("[data-pad]");
  if (pad) {
    const fields = [...document.querySelectorAll("[data-cards]")];
    let target = fields[0];
    const choose = (field) => {
      target = field;
      fields.forEach((each) => each.classList.toggle("pad-target", each === field));
      pad.querySelectorAll("[data-pad-target]").forEach((button) => {
        button.setAttribute("aria-pressed", String(button.dataset.padTarget === field.id));
      });
    };
    pad.hidden = false;
    if (target) choose(target);
    document.addEventListener("focusin", (event) => {
      if (event.target.matches("[data-cards]")) choose(event.target);
    });
    pad.addEventListener("click", (event) => {
      const key = event.target.closest("button");
      if (!key) return;
      if (key.dataset.padTarget) {
        choose(document.getElementById(key.dataset.padTarget));
        return;
      }
      if (!target) return;
      let text = target.value;
      const fresh = text === "" || /[\s,/;|-]$/.test(text);
      if (key.dataset.padRank) text += (fresh ? "" : " ") + key.dataset.padRank;
      else if (key.dataset.padSuit) text += key.dataset.padSuit;
      else if ("padJoker" in key.dataset) text += (fresh ? "" : " ") + "JK";
      else if ("padNext" in key.dataset) text = text.replace(/[\s/]+$/, "") + (target.tagName === "TEXTAREA" ? "\n" : " / ");
      else if ("padBack" in key.dataset) text = text.replace(/[\s,;|/-]+$/, "").replace(/[^\s,;|/-]+$/, "");
      else if ("padClear" in key.dataset) text = "";
      else return;
      target.value = text;
      target.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  // Capture phase: the reload happens instead of the form's live ruling request.
  document.addEventListener("change", (event) => {
    const control = event.target.closest("[data-reload]");
    if (!control || !control.form) return;
    event.stopPropagation();
    const query = new URLSearchParams(new FormData(control.form));
    for (const [name, value] of [...query]) if (value === "") query.delete(name);
    window.location.assign(control.form.action.split("?")[0] + "?" + query.toString());
  }, true);

  // Fields whose messages came back out of band: mark them invalid, or valid again.
  document.addEventListener("htmx:afterSettle", () => {
    document.querySelectorAll("[data-error-for]").forEach((slot) => {
      const field = document.getElementById(slot.dataset.errorFor);
      if (!field) return;
      if (slot.children.length) field.setAttribute("aria-invalid", "true");
      else field.removeAttribute("aria-invalid");
    });
  });

  const reveal = () => {
    document.querySelectorAll("[data-copy-link]").forEach((button) => { button.hidden = false; });
  };
  reveal();
  document.addEventListener("htmx:afterSettle", reveal);
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-copy-link]");
    if (!button) return;
    const url = button.dataset.copyLink;
    if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle || "Referee ruling", url }).catch(() => {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(url).then(() => { button.textContent = "Link copied"; }, () => {});
    }
  });
})();
// referee end

// games: on the round form, the block of whoever went out shows "went out" instead of the
// made-contract toggle and the card pad, at once (the server treats them the same way).
document.addEventListener("change", (event) => {
  const radio = event.target.closest("input[name='went_out']");
  if (!radio || !radio.form) {
    return;
  }
  for (const hand of radio.form.querySelectorAll(".hand[data-seat]")) {
    hand.classList.toggle("is-out", hand.dataset.seat === radio.value);
  }
});

// games: a drawn scoreboard is kept until its game changes, so the undo button of the last
// round hides itself once its time (data-until) has passed; the server refuses it then anyway.
(() => {
  const expire = () => {
    document.querySelectorAll("form.undo[data-until]").forEach((form) => {
      if (Date.now() > Date.parse(form.dataset.until)) form.hidden = true;
    });
  };
  expire();
  document.addEventListener("htmx:afterSettle", expire);
  window.setInterval(expire, 15000);
})();

// The service worker (static/sw.js, served at /sw.js so that it covers every page): the last
// scoreboard seen of each game stays readable when the table's Wi-Fi drops out.
if ("serviceWorker" in navigator && document.body.dataset.serviceWorker) {
  navigator.serviceWorker.register(document.body.dataset.serviceWorker, { scope: "/" }).catch(() => {});
}
