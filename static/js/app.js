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

// games: the round form on a phone.
// - The pad's keys and the chips type into the cards field here, at once; the field's own live
//   preview then redraws the chips and points around it, and hx-preserve keeps the field
//   itself, so an answer never takes back what was typed while it was on its way.
// - The form as typed (with the token and versions it was made on) is kept in localStorage per
//   game and round number until it is saved: a reload, or a phone that ran out of battery, loses
//   nothing, and a save from restored typing is still checked against what it was made on.
// - A save is sent here (fetch): a refusal (409, 422, 503) comes back as the form to swap in;
//   with no signal, the save is kept in IndexedDB under the form's one-time token and sent when
//   the signal returns ("online", every page load, every 30 s while any is waiting). The server
//   stores one round per token and answers a resend as stored, so a save whose answer was lost
//   is never stored twice. Background Sync is not used: only some browsers have it, and these
//   three moments cover every browser.
(() => {
  const ROUND_FORM = "round-form";
  const KEPT = /^(went_out|token|version|rounds_version|hands-\d+-(cards|made|total))$/;
  const QUEUED_NOTE = "Saved on this phone; will send when the signal returns.";
  const cardTokens = (text) => text.split(/[\s,-]+/).filter(Boolean);
  const roundForm = () => document.getElementById(ROUND_FORM);

  document.addEventListener("click", (event) => {
    const key = event.target.closest(`#${ROUND_FORM} button[data-seat]`);
    if (!key || !window.htmx) return;
    const field = document.getElementById(`hands-${key.dataset.seat}-cards`);
    if (!field) return;
    // Capture phase, stopped here: the button's plain submit (the no-JavaScript path) is not sent.
    event.preventDefault();
    event.stopPropagation();
    const cards = cardTokens(field.value);
    if (key.name.startsWith("add-")) {
      cards.push(key.value);
    } else {
      cards.splice(Number(key.value), 1);
      // The chip goes at once; the others are renumbered so a second quick tap is right too.
      const chips = key.parentElement;
      key.remove();
      [...chips.querySelectorAll("button[data-seat]")].forEach((chip, index) => { chip.value = String(index); });
    }
    field.value = cards.join(" ");
    field.dispatchEvent(new Event("input", { bubbles: true }));
  }, true);

  // --- the form as typed, kept on the phone ---------------------------------------------------
  const draftKey = (form) => `scorekeeper:round:${form.getAttribute("action")}#${form.elements.number.value}`;
  const typed = (form) => [...new FormData(form)].filter(([name]) => KEPT.test(name));
  const keepDraft = (form, fields = typed(form)) => {
    try { localStorage.setItem(draftKey(form), JSON.stringify(fields)); } catch { /* storage full or off */ }
  };
  const forgetDraft = (key) => {
    try { localStorage.removeItem(key); } catch { /* storage off */ }
  };
  const restoreDraft = (form) => {
    let fields = null;
    try { fields = JSON.parse(localStorage.getItem(draftKey(form)) || "null"); } catch { fields = null; }
    if (!Array.isArray(fields)) return false;
    form.querySelectorAll("input[type=checkbox][name$='-made']").forEach((box) => { box.checked = false; });
    form.querySelectorAll("input[name=went_out]").forEach((radio) => { radio.checked = false; });
    for (const [name, value] of fields) {
      const control = form.elements[name];
      if (!control || !KEPT.test(name)) continue;
      if (control.type === "checkbox") control.checked = true;
      else control.value = value;
    }
    return true;
  };
  const changed = (event) => {
    const form = event.target.closest ? event.target.closest(`#${ROUND_FORM}`) : null;
    if (form) keepDraft(form);
  };
  document.addEventListener("input", changed);
  document.addEventListener("change", changed);

  // --- sending a save, or keeping it for when the signal returns ------------------------------
  const csrfToken = () => {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"]; } catch { return null; }
  };
  const newId = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");

  // What became of a save: "stored" (with the address to go to), "refused" (with the page that
  // says why), or "unsent" (no signal, or no app behind the proxy: try again later).
  const send = async (save) => {
    const body = new URLSearchParams();
    const current = csrfToken();
    for (const [name, value] of save.fields) body.append(name, name === "csrf_token" && current ? current : value);
    let response;
    try {
      response = await fetch(save.action, { method: "POST", body, credentials: "same-origin", headers: { "HX-Request": "true" } });
    } catch {
      return { outcome: "unsent" };
    }
    const to = response.headers.get("HX-Redirect");
    if (to) return { outcome: "stored", to };
    const html = await response.text();
    const form = new DOMParser().parseFromString(html, "text/html").getElementById(ROUND_FORM);
    if (!form && response.status >= 500) return { outcome: "unsent" };
    return { outcome: "refused", status: response.status, form, url: response.url };
  };

  const queue = (mode, work) => new Promise((resolve, reject) => {
    const opening = indexedDB.open("scorekeeper", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("saves", { keyPath: "id" });
    opening.onerror = () => reject(opening.error);
    opening.onsuccess = () => {
      const database = opening.result;
      const transaction = database.transaction("saves", mode);
      const request = work(transaction.objectStore("saves"));
      transaction.oncomplete = () => { database.close(); resolve(request.result); };
      transaction.onerror = () => { database.close(); reject(transaction.error); };
    };
  });
  const waiting = () => (window.indexedDB ? queue("readonly", (saves) => saves.getAll()) : Promise.resolve([]));

  const note = (place, text, link) => {
    const old = document.querySelector(".queued-note");
    if (old) old.remove();
    const paragraph = document.createElement("p");
    paragraph.className = "flash flash-warning queued-note";
    paragraph.setAttribute("role", "status");
    paragraph.textContent = text;
    if (link) {
      const anchor = document.createElement("a");
      anchor.href = link;
      anchor.textContent = "Open it";
      paragraph.append(" ", anchor);
    }
    place(paragraph);
    return paragraph;
  };
  const noteAtSave = (form, text) => note((paragraph) => {
    form.querySelector("button.save-round").before(paragraph);
    paragraph.scrollIntoView({ block: "center" });
  }, text);
  const noteOnPage = (text, link) => note((paragraph) => document.getElementById("main").prepend(paragraph), text, link);

  const swapIn = (form, fresh) => {
    const before = draftKey(form);
    form.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (draftKey(fresh) !== before) forgetDraft(before);
    keepDraft(fresh);
    const heading = document.querySelector("h1");
    if (heading && fresh.elements.number && /^Round \d+$/.test(heading.textContent)) heading.textContent = `Round ${fresh.elements.number.value}`;
    const first = fresh.querySelector("#round-conflict, #round-problems, #round-errors");
    if (first) first.scrollIntoView({ block: "start" });
  };

  const keepForLater = async (form, save) => {
    try {
      await queue("readwrite", (saves) => saves.put(save));
    } catch {
      noteAtSave(form, "No signal: nothing was sent. Your entries are kept here: save again when the signal returns.");
      return;
    }
    noteAtSave(form, QUEUED_NOTE);
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (form.id !== ROUND_FORM || !submitter || submitter.name !== "save" || !window.fetch) return;
    event.preventDefault();
    if (form.dataset.sending) return;
    const fields = [...new FormData(form), [submitter.name, submitter.value]];
    const save = {
      id: form.elements.token.value || newId(),
      action: form.getAttribute("action"),
      number: form.elements.number.value,
      draft: draftKey(form),
      fields,
    };
    if (!navigator.onLine) {
      await keepForLater(form, save);
      return;
    }
    form.dataset.sending = "1";
    const answer = await send(save);
    delete form.dataset.sending;
    if (answer.outcome === "stored") {
      forgetDraft(save.draft);
      window.location.assign(answer.to);
    } else if (answer.outcome === "unsent") {
      await keepForLater(form, save);
    } else if (answer.form) {
      swapIn(form, answer.form);
    } else {
      window.location.assign(answer.url);
    }
  });

  let flushing = false;
  const flush = async () => {
    if (flushing || !navigator.onLine || !window.indexedDB) return;
    flushing = true;
    try {
      for (const save of await waiting()) {
        const answer = await send(save);
        if (answer.outcome === "unsent") break;
        await queue("readwrite", (saves) => saves.delete(save.id));
        const form = roundForm();
        const here = form && form.getAttribute("action") === save.action && form.elements.number.value === save.number;
        if (answer.outcome === "stored") {
          forgetDraft(save.draft);
          if (here) {
            window.location.assign(answer.to);
            return;
          }
          noteOnPage("A round saved on this phone without signal has now been sent.");
        } else if (here && answer.form) {
          swapIn(form, answer.form);
        } else {
          // Refused now (another phone got there first): its typing waits on the form it will
          // open (the round number may have moved on), with the versions it was made on, so that
          // saving it there shows the refusal and its "Re-apply my entries".
          const key = answer.form ? draftKey(answer.form) : save.draft;
          try { localStorage.setItem(key, JSON.stringify(save.fields.filter(([name]) => KEPT.test(name)))); } catch { /* off */ }
          noteOnPage("A round saved on this phone without signal could not be stored as it was.", save.action);
        }
      }
    } catch {
      /* IndexedDB unavailable: nothing was queued either */
    } finally {
      flushing = false;
    }
  };
  window.addEventListener("online", flush);
  window.setInterval(flush, 30000);

  const form = roundForm();
  if (form) {
    waiting().then((saves) => {
      // A form kept by the service worker, opened again after its own save was queued: it needs a
      // token of its own, or the server would take it for that save sent twice.
      if (saves.some((save) => save.id === form.elements.token.value)) form.elements.token.value = newId();
      if (saves.some((save) => save.draft === draftKey(form))) noteAtSave(form, QUEUED_NOTE);
    }).catch(() => {}).finally(() => {
      if (restoreDraft(form) && window.htmx && navigator.onLine) {
        // Redraw chips, points and who is out from what came back (offline, they wait).
        window.htmx.ajax("POST", form.getAttribute("action"), { source: form, target: `#${ROUND_FORM}`, swap: "outerHTML" })
          .catch(() => {});
      }
      flush();
    });
  } else {
    flush();
  }
})();

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
// scoreboard and round form seen of each game stay readable when the table's Wi-Fi drops out
// (saves made then are queued above, not by the worker).
if ("serviceWorker" in navigator && document.body.dataset.serviceWorker) {
  navigator.serviceWorker.register(document.body.dataset.serviceWorker, { scope: "/" }).catch(() => {});
}
