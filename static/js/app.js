// Small progressive enhancements; every page works without them.
"use strict";

// The words this script shows, in the page's language: the page gives them (the JSON block of
// templates/_script_words.html, in every page's layout), the script holds none. A word is
// filled in by name: say("copied", { url }) puts the url where the words have {url}.
const WORDS = (() => {
  try {
    return JSON.parse(document.getElementById("script-words").textContent) || {};
  } catch {
    return {};
  }
})();
const say = (key, values = {}) => Object.entries(values).reduce(
  (text, [name, value]) => text.split(`{${name}}`).join(String(value)),
  WORDS[key] || "",
);

// A card pad's key on the cards typed (a list of tokens), as the server's forms.Pad.adds does
// without JavaScript: a colour key (data-colour, a Phase 10 pad) gives the last number typed its
// colour ("7", then R, is "7R"; nothing before it to take it, nothing changes); any other key
// adds its card.
const padAdd = (cards, key) => {
  if (!("colour" in key.dataset)) return [...cards, key.value];
  const last = cards.length ? /^(\d+)[a-z]?$/i.exec(cards[cards.length - 1]) : null;
  return last ? [...cards.slice(0, -1), last[1] + key.value] : cards;
};

// A control marked data-autosubmit submits its form when it changes (no inline handlers:
// the Content-Security-Policy forbids them).
document.addEventListener("change", (event) => {
  const control = event.target.closest("[data-autosubmit]");
  if (control && control.form && !window.htmx) {
    control.form.requestSubmit();
  }
});

// The site's menu is one button on a phone (every page's header is one row) and open on a wide
// screen, where its links fit beside the name.
(() => {
  const wide = window.matchMedia("(min-width: 641px)");
  const fit = () => document.querySelectorAll("details[data-menu]").forEach((menu) => { menu.open = wide.matches; });
  fit();
  wide.addEventListener("change", fit);
})();

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
      // The games' keys (a Phase 10 pad: templates/games/_pad_keys.html) are submit buttons;
      // here they type into the field, as the other keys do.
      if (key.type === "submit") event.preventDefault();
      if (key.dataset.padTarget) {
        choose(document.getElementById(key.dataset.padTarget));
        return;
      }
      if (!target) return;
      let text = target.value;
      const fresh = text === "" || /[\s,/;|-]$/.test(text);
      if (key.name === "add" && "colour" in key.dataset) text = text.replace(/(\d+)[a-z]?$/i, `$1${key.value}`);
      else if (key.name === "add") text += (fresh ? "" : " ") + key.value;
      else if (key.dataset.padRank) text += (fresh ? "" : " ") + key.dataset.padRank;
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
      navigator.share({ title: button.dataset.shareTitle || say("rulingTitle"), url }).catch(() => {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(url).then(() => { button.textContent = say("linkCopied"); }, () => {});
    }
  });
})();
// referee end

// games: Share on the scoreboard and on the result card's page hands over the game's watch link,
// which opens the live scores without an account: the server finds it (or makes it, for whoever
// may make links) and it goes to the phone's share sheet where it has one, else it is copied.
// Where there is none to hand over, the server's words say who can make one.
(() => {
  const reveal = () => {
    document.querySelectorAll("[data-share-from]").forEach((button) => { button.hidden = false; });
  };
  reveal();
  document.addEventListener("htmx:afterSettle", reveal);
  const tell = (button, words) => {
    let note = button.parentElement.querySelector("[data-share-note]");
    if (!note) {
      note = document.createElement("p");
      note.className = "hint share-note";
      note.setAttribute("role", "status");
      note.dataset.shareNote = "";
      button.parentElement.append(note);
    }
    note.textContent = words;
  };
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-share-from]");
    if (!button) return;
    let answer;
    try {
      const token = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];
      const response = await fetch(button.dataset.shareFrom, {
        method: "POST",
        headers: { "X-CSRFToken": token || "", Accept: "application/json" },
        credentials: "same-origin",
      });
      answer = response.ok ? await response.json() : null;
    } catch {
      answer = null;
    }
    if (!answer) {
      tell(button, say("shareUnreachable"));
    } else if (!answer.url) {
      tell(button, answer.message);
    } else if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle || document.title, url: answer.url }).catch(() => {});
    } else if (navigator.clipboard) {
      navigator.clipboard.writeText(answer.url).then(
        () => { button.textContent = say("linkCopied"); tell(button, say("copied", { url: answer.url })); },
        () => tell(button, answer.url),
      );
    } else {
      tell(button, answer.url);
    }
  });
})();

// games: on the round form, the block of whoever went out shows "went out" instead of the
// made-contract toggle and the card pad, at once (the server treats them the same way).
document.addEventListener("change", (event) => {
  const radio = event.target.closest("input[name='went_out']");
  if (!radio || !radio.form) {
    return;
  }
  for (const hand of radio.form.querySelectorAll(".hand[data-seat]")) {
    hand.classList.toggle("is-out", hand.dataset.seat === radio.value);
    if (hand.dataset.seat === radio.value) clearWentOut(hand, radio);
  }
});

// Whoever went out holds no cards: what was typed for them is cleared, and the hand says so
// (issue 43), rather than Save refusing it. The field's input event keeps the phone's copy
// and the chips in step, as any edit does.
const clearWentOut = (hand, radio) => {
  const cards = hand.querySelector(`[name='hands-${hand.dataset.seat}-cards']`);
  const total = hand.querySelector(`[name='hands-${hand.dataset.seat}-total']`);
  const typed = (cards && cards.value.trim().split(/\s+/).join(" ")) || (total && total.value.trim());
  if (!typed) return;
  for (const field of [cards, total]) {
    if (field && field.value) {
      field.value = "";
      field.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }
  hand.querySelectorAll(".went-out-cleared").forEach((note) => note.remove());
  const note = document.createElement("p");
  note.className = "flash flash-warning went-out-cleared";
  note.setAttribute("role", "status");
  const name = radio.closest("label") ? radio.closest("label").textContent.trim() : "";
  note.textContent = say("wentOutCleared", { name, cards: typed });
  const legend = hand.querySelector("legend");
  if (legend) legend.after(note); else hand.prepend(note);
};

// games: on the round form's conflict page, picking a side of a clash ("Stored now" or "Yours")
// puts that side in the part's fields at once, so the form shows what saving it stores (the
// server takes the pick the same way). A field of that part changed by hand afterwards holds
// the person's own entry: its "Yours" is picked, and the server keeps the field as it is.
(() => {
  let filling = false;
  const partOf = (name) => {
    if (name === "went_out" || name === "went_out_in_one_turn") return "-1";
    const hand = /^hands-(\d+)-/.exec(name || "");
    return hand ? hand[1] : null;
  };
  const fill = (form, fields) => {
    for (const [name, value] of Object.entries(fields)) {
      if (name === "went_out") {
        const radios = [...form.querySelectorAll("input[name=went_out]")];
        radios.forEach((radio) => { radio.checked = radio.value === value; });
        const picked = radios.find((radio) => radio.checked);
        if (picked) picked.dispatchEvent(new Event("change", { bubbles: true }));
        continue;
      }
      const field = form.elements[name];
      if (!field) continue;
      if (field.type === "checkbox") {
        if (field.checked !== Boolean(value)) {
          field.checked = Boolean(value);
          field.dispatchEvent(new Event("change", { bubbles: true }));
        }
      } else if (field.value !== value) {
        field.value = value;
        field.dispatchEvent(new Event("input", { bubbles: true }));
      }
    }
  };
  document.addEventListener("change", (event) => {
    const side = event.target.closest("#round-form .clash input[type=radio][data-fills]");
    if (!side || !side.checked) return;
    let fields;
    try { fields = JSON.parse(side.dataset.fills); } catch { return; }
    filling = true;
    try { fill(side.form, fields); } finally { filling = false; }
  });
  const changedByHand = (event) => {
    const field = event.target;
    if (filling || !field.form || field.form.id !== "round-form") return;
    const part = partOf(field.name);
    if (part === null) return;
    const yours = field.form.querySelector(`input[name="pick-${part}"][value=mine]`);
    if (yours && !yours.checked) yours.checked = true;
  };
  document.addEventListener("input", changedByHand);
  document.addEventListener("change", changedByHand);
})();

// games: the outbox, shared by the round form and the own-hand pad: a save made without signal
// is kept in IndexedDB ("scorekeeper", store "saves"; each save names its kind) and sent when the
// signal returns. Each kind's handler sends one save and says what became of it; "stop" leaves
// the rest for later (still no signal, or the page is going elsewhere). Nothing here waits for
// the browser to say the signal is back: a page reloaded without signal may believe it is online
// and never hear "online" (Chromium 150 did so: issue 35, item 8), or believe it is offline after
// the signal returned. So a kept save is simply tried: soon after it is kept (2 s, then slower, up
// to 30 s), on "online", on every page load, when the page is shown again, on any answer from
// the server, and every 30 s. Background Sync is not used: only some browsers have it.
const outbox = (() => {
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
  const put = (save) => queue("readwrite", (saves) => saves.put(save));
  const handlers = {};
  let flushing = false;
  // A save that could not be sent is tried again soon (2 s, then slower, up to 30 s), whatever
  // navigator.onLine says: a failed try costs one request that fails at once.
  let retry = null;
  let retryAfter = 2000;
  const later = () => {
    window.clearTimeout(retry);
    retry = window.setTimeout(flush, retryAfter);
    retryAfter = Math.min(retryAfter * 2, 30000);
  };
  const flush = async () => {
    if (flushing || !window.indexedDB) return;
    flushing = true;
    let stopped = false;
    try {
      for (const save of await waiting()) {
        const handle = handlers[save.kind || "round"];
        if (!handle) continue;
        const remove = () => queue("readwrite", (saves) => saves.delete(save.id));
        if ((await handle(save, remove)) === "stop") {
          stopped = true;
          break;
        }
      }
    } catch {
      /* IndexedDB unavailable: nothing was queued either */
    } finally {
      flushing = false;
    }
    window.clearTimeout(retry);
    if (stopped) later();
    else retryAfter = 2000;
  };
  // Kept just now: tried again in 2 s, and on from there.
  const soon = () => {
    retryAfter = 2000;
    later();
  };
  window.addEventListener("online", flush);
  // A page brought back from the back-forward cache runs no script again: it tries here.
  window.addEventListener("pageshow", (event) => {
    if (event.persisted) flush();
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") flush();
  });
  window.setInterval(flush, 30000);
  // Any answer from the server (a scoreboard's or a hand's poll) means the signal is back.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail && event.detail.xhr && event.detail.xhr.status > 0) flush();
  });
  const csrfToken = () => {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"]; } catch { return null; }
  };
  // The fields of a save as a request body, with this page's CSRF token (the kept one may be old).
  const body = (fields) => {
    const sent = new URLSearchParams();
    const current = csrfToken();
    for (const [name, value] of fields) sent.append(name, name === "csrf_token" && current ? current : value);
    return sent;
  };
  const newId = () => [...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { waiting, put, flush, soon, body, newId, handle: (kind, handler) => { handlers[kind] = handler; } };
})();

// games: the round form on a phone.
// - The pad's keys and the chips type into the cards field here, at once; the field's own live
//   preview then redraws the chips and points around it, and hx-preserve keeps the field
//   itself, so an answer never takes back what was typed while it was on its way. The close
//   page's hands have the same pads (any form marked data-card-pads).
// - The form as typed (with the token and versions it was made on) is kept in localStorage per
//   game and round number until it is saved: a reload, or a phone that ran out of battery, loses
//   nothing, and a save from restored typing is still checked against what it was made on.
// - A save is sent here (fetch): a refusal (409, 422, 503) comes back as the form to swap in;
//   with no signal, the save goes to the outbox under the form's one-time token. The server
//   stores one round per token and answers a resend as stored, so a save whose answer was lost
//   is never stored twice.
(() => {
  const ROUND_FORM = "round-form";
  // With a correction's base and clashes (and what this phone had typed on them): a conflict
  // page reloaded, or its typing kept for later, still asks before anything is stored.
  const KEPT = /^(went_out|went_out_in_one_turn|token|version|rounds_version|base|clashes|yours|hands-\d+-(cards|made|made-auto|total))$/;
  const QUEUED_NOTE = say("roundQueued");
  const cardTokens = (text) => text.split(/[\s,-]+/).filter(Boolean);
  const roundForm = () => document.getElementById(ROUND_FORM);

  document.addEventListener("click", (event) => {
    const key = event.target.closest("form[data-card-pads] button[data-seat]");
    if (!key || !window.htmx) return;
    const field = document.getElementById(`hands-${key.dataset.seat}-cards`);
    if (!field) return;
    // Capture phase, stopped here: the button's plain submit (the no-JavaScript path) is not sent.
    event.preventDefault();
    event.stopPropagation();
    let cards = cardTokens(field.value);
    if (key.name.startsWith("add-")) {
      cards = padAdd(cards, key);
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

  // --- "made" follows the cards on a new round, until it is changed by hand ------------------
  // A hand holding fewer cards than were dealt (the hand's data-dealt) has laid down: "made" is
  // ticked; one holding all of them (or more) has not. Its hidden hands-N-made-auto says
  // whether the box still follows; a tap on the box ends that, for this round.
  const follow = (field) => {
    const hand = field.closest("#round-form .hand[data-dealt]");
    if (!hand) return;
    const seat = hand.dataset.seat;
    const auto = hand.querySelector(`input[name="hands-${seat}-made-auto"]`);
    const box = hand.querySelector(`input[type=checkbox][name="hands-${seat}-made"]`);
    if (!auto || !box || auto.value !== "1") return;
    const held = cardTokens(field.value).length;
    const made = held > 0 && held < Number(hand.dataset.dealt);
    if (box.checked !== made) box.checked = made;
  };
  document.addEventListener("input", (event) => {
    if (event.target.matches && event.target.matches("#round-form input[id^=hands-][id$=-cards]")) follow(event.target);
  }, true);
  document.addEventListener("change", (event) => {
    const box = event.target;
    if (!box.matches || !box.matches("#round-form input[type=checkbox][name$='-made']")) return;
    const auto = box.form.elements[`${box.name}-auto`];
    if (auto) auto.value = "";
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
    if (form.elements.went_out_in_one_turn) form.elements.went_out_in_one_turn.checked = false;
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

  // --- sending a save, or keeping it for when the signal returns (the outbox above) ---------
  // What became of a save: "stored" (with the address to go to), "refused" (with the page that
  // says why), or "unsent" (no signal, or no app behind the proxy: try again later).
  const send = async (save) => {
    let response;
    try {
      response = await fetch(save.action, { method: "POST", body: outbox.body(save.fields), credentials: "same-origin", headers: { "HX-Request": "true" } });
    } catch {
      return { outcome: "unsent" };
    }
    const to = response.headers.get("HX-Redirect");
    // Stored is a 2xx naming the scoreboard. A refusal naming the sign-in page (401, or a 400
    // for a session gone with its form token) means the session ended while the save waited:
    // kept, to send once someone signs in again.
    if (to && response.ok) return { outcome: "stored", to };
    if (to || response.status === 401) return { outcome: "unsent" };
    const html = await response.text();
    const form = new DOMParser().parseFromString(html, "text/html").getElementById(ROUND_FORM);
    if (!form && response.status >= 500) return { outcome: "unsent" };
    return { outcome: "refused", status: response.status, form, url: response.url };
  };

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
      anchor.textContent = say("openIt");
      paragraph.append(" ", anchor);
    }
    place(paragraph);
    return paragraph;
  };
  // Above the row of Save, not in it: the row keeps Save its width (a long note in another
  // language squeezed it to a letter a line).
  const noteAtSave = (form, text) => note((paragraph) => {
    (form.querySelector(".save-row") || form.querySelector("button.save-round")).before(paragraph);
    paragraph.scrollIntoView({ block: "center" });
  }, text);
  const noteOnPage = (text, link) => note((paragraph) => document.getElementById("main").prepend(paragraph), text, link);

  // A new round's form may come back as that round's correction (another phone stored it
  // meanwhile: this typing is merged into it), and the heading says so.
  const swapIn = (sent, fresh) => {
    // The form the save was sent from, or the one that took its place meanwhile.
    const form = sent.isConnected ? sent : roundForm() || sent;
    const before = draftKey(form);
    abandon(form);
    form.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    if (draftKey(fresh) !== before) forgetDraft(before);
    keepDraft(fresh);
    // The page's heading is the form's ("Round 3", "Correct round 3"), as the server wrote it.
    const heading = document.querySelector("h1");
    const was = form.dataset.heading;
    if (heading && was && fresh.dataset.heading && heading.textContent === was) {
      heading.textContent = fresh.dataset.heading;
      document.title = document.title.replace(was, fresh.dataset.heading);
    }
    const first = fresh.querySelector("#round-conflict, #round-problems, #round-errors");
    if (first) first.scrollIntoView({ block: "start" });
  };

  // Chips, points and who is out redrawn from typing restored on the phone (offline, they
  // wait). A tap while the answer is on its way wins: an answer for typing older than the
  // form's is dropped and asked again for the form as it is now.
  const redraw = (form) => {
    form.dataset.redrawnFrom = JSON.stringify(typed(form));
    window.htmx.ajax("POST", form.getAttribute("action"), { source: form, target: `#${ROUND_FORM}`, swap: "outerHTML" })
      .catch(() => {});
  };
  document.addEventListener("htmx:beforeSwap", (event) => {
    const form = event.detail.target;
    if (!form || form.id !== ROUND_FORM || form.dataset.redrawnFrom === undefined) return;
    const from = form.dataset.redrawnFrom;
    delete form.dataset.redrawnFrom;
    // A save sent meanwhile answers for this form (the scoreboard, or the form saying why), not
    // this redraw: swapped in now, it would leave that answer a detached form to replace.
    if (form.dataset.sending) {
      event.detail.shouldSwap = false;
      return;
    }
    if (form.isConnected && from !== JSON.stringify(typed(form))) {
      event.detail.shouldSwap = false;
      redraw(form);
    }
  });
  // htmx sends a form's last focused button with the form's own requests (the redraw is the only
  // one): a pad key or chip just tapped would be pressed again by it, and answered with that one
  // hand in the whole form's place. A redraw presses nothing: the form's buttons are left out.
  document.addEventListener("htmx:configRequest", (event) => {
    const form = event.detail.elt;
    if (!form || form.id !== ROUND_FORM) return;
    form.querySelectorAll("button[name], input[type=submit][name]").forEach((button) => {
      delete event.detail.parameters[button.name];
    });
    event.detail.path = form.getAttribute("action");
  });
  // A form replaced by the server's answer to a save: the previews its fields still had on
  // their way are for typing that answer already holds.
  const abandon = (form) => {
    if (window.htmx) form.querySelectorAll("[hx-post]").forEach((field) => window.htmx.trigger(field, "htmx:abort"));
  };

  const keepForLater = async (form, save) => {
    try {
      await outbox.put(save);
    } catch {
      noteAtSave(form, say("roundNoSignal"));
      return;
    }
    noteAtSave(form, QUEUED_NOTE);
    outbox.soon();
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (form.id !== ROUND_FORM || !submitter || submitter.name !== "save" || !window.fetch) return;
    event.preventDefault();
    if (form.dataset.sending) return;
    const fields = [...new FormData(form), [submitter.name, submitter.value]];
    const save = {
      id: form.elements.token.value || outbox.newId(),
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

  outbox.handle("round", async (save, remove) => {
    const answer = await send(save);
    if (answer.outcome === "unsent") return "stop";
    await remove();
    const form = roundForm();
    const here = form && form.getAttribute("action") === save.action && form.elements.number.value === save.number;
    if (answer.outcome === "stored") {
      forgetDraft(save.draft);
      if (here) {
        window.location.assign(answer.to);
        return "stop";
      }
      noteOnPage(say("roundSent"));
    } else if (here && answer.form) {
      swapIn(form, answer.form);
    } else {
      // Refused now (another phone got there first): its typing waits on the form it will
      // open (the round number may have moved on), with the versions it was made on, so that
      // saving it there shows the refusal and its "Re-apply my entries".
      // A round stored meanwhile by another phone comes back as its correction, with the
      // parts this typing differs in to choose: that form is kept as it came, clashes and all.
      const key = answer.form ? draftKey(answer.form) : save.draft;
      const clashes = answer.form && answer.form.querySelector("input[name=clashes]");
      const kept = clashes && clashes.value ? typed(answer.form) : save.fields.filter(([name]) => KEPT.test(name));
      try { localStorage.setItem(key, JSON.stringify(kept)); } catch { /* off */ }
      noteOnPage(say("roundRefused"), answer.form ? answer.form.getAttribute("action") : save.action);
    }
    return "sent";
  });

  const form = roundForm();
  if (form) {
    outbox.waiting().then((saves) => {
      // A form kept by the service worker, opened again after its own save was queued: it needs a
      // token of its own, or the server would take it for that save sent twice.
      if (saves.some((save) => save.id === form.elements.token.value)) form.elements.token.value = outbox.newId();
      if (saves.some((save) => save.draft === draftKey(form))) noteAtSave(form, QUEUED_NOTE);
    }).catch(() => {}).finally(() => {
      const restored = restoreDraft(form);
      // Opened from the board's "who went out" shortcut: that tap is the newest word on it, over
      // a draft kept here and over a form the service worker kept from before.
      const asked = new URLSearchParams(window.location.search).get("went_out");
      const radio = asked && [...form.querySelectorAll("input[name=went_out]")].find((each) => each.value === asked);
      if (radio && !radio.checked) {
        radio.checked = true;
        radio.dispatchEvent(new Event("change", { bubbles: true }));
      }
      if (restored && window.htmx && navigator.onLine) redraw(form);
      outbox.flush();
    });
  } else {
    outbox.flush();
  }
})();

// games: this phone's own hand (templates/games/_my_hand.html), as the round form above.
// - The pad's keys and the chips edit the cards field here, at once; the typing is kept in
//   localStorage per hand page, round number and seat, marked unsent until the server has it.
// - It is sent 0.4 s after the last change (preview=cards, answered with the chips and points,
//   drawn around the field only if nothing was typed meanwhile: an older answer never takes back
//   newer typing). With no signal it stays kept, says so, and is tried again soon (2 s, then
//   slower), on "online", on every page load and every 30 s.
// - "Done" and "I went out" are sent here (fetch); with no signal they go to the outbox and are
//   sent once when the signal returns. The server takes either again without harm, and answers
//   one for a round stored meanwhile with the stored round.
(() => {
  const FORM = "my-hand-form";
  const LOGIN_PATH = "/login";
  const KEPT_NOTE = say("handKept");
  const PREFIX = "scorekeeper:hand:";
  const handForm = () => document.getElementById(FORM);
  const cardsField = () => document.getElementById("my-cards-text");
  const cardTokens = (text) => text.split(/[\s,-]+/).filter(Boolean);
  const keyOf = (form) => `${PREFIX}${form.getAttribute("action")}#${form.elements.number.value}:${form.elements.seat.value}`;
  const read = (key) => {
    try {
      const kept = JSON.parse(localStorage.getItem(key) || "null");
      return kept && typeof kept.cards === "string" ? kept : null;
    } catch {
      return null;
    }
  };
  const write = (key, kept) => {
    try { localStorage.setItem(key, JSON.stringify(kept)); } catch { /* storage full or off */ }
  };
  const forget = (key) => {
    try { localStorage.removeItem(key); } catch { /* storage off */ }
  };

  const showNote = (text) => {
    const form = handForm();
    if (!form) return;
    let note = document.getElementById("hand-kept");
    if (!note) {
      note = document.createElement("p");
      note.id = "hand-kept";
      note.className = "flash flash-warning queued-note";
      note.setAttribute("role", "status");
      (form.querySelector(".my-state") || form.firstElementChild).after(note);
    }
    note.textContent = text;
  };
  const clearNote = () => {
    const note = document.getElementById("hand-kept");
    if (note) note.remove();
  };
  // The chips and points drawn for other cards than the field's: the points wait for the server,
  // and chips go where they could no longer be told apart from the typing.
  const stale = (hideChips) => {
    const points = document.getElementById("my-points");
    if (points) points.textContent = "…";
    const chips = document.querySelector("#my-cards .chips");
    if (chips && hideChips) chips.hidden = true;
  };
  const redraw = (fresh) => {
    const area = document.getElementById("my-cards");
    const field = cardsField();
    if (!area || !fresh || !field) return;
    // Both are always drawn, the chips in a row of fixed height: nothing below them moves.
    for (const selector of ["#my-points", "#my-chips"]) {
      const old = area.querySelector(selector);
      const drawn = fresh.querySelector(selector);
      if (old && drawn) old.replaceWith(drawn);
    }
    const freshField = fresh.querySelector("#my-cards-text");
    for (const name of ["aria-invalid", "aria-describedby"]) {
      if (freshField && freshField.hasAttribute(name)) field.setAttribute(name, freshField.getAttribute(name));
      else field.removeAttribute(name);
    }
  };
  const swapHand = (section) => {
    const old = document.getElementById("my-hand");
    if (!old || !section) {
      window.location.reload();
      return;
    }
    // The old page's poll still on its way is let go: the page it would redraw is gone.
    if (window.htmx) window.htmx.trigger(old, "htmx:abort");
    old.replaceWith(section);
    if (window.htmx) window.htmx.process(section);
    restore();
  };

  // --- the typing, sent when it can be --------------------------------------------------------
  let timer = null;
  let sending = false;
  let retryAfter = 2000;
  // Not sent (no signal, or no app behind the proxy): tried again soon, then slower.
  const sendLater = () => {
    showNote(KEPT_NOTE);
    window.clearTimeout(timer);
    timer = window.setTimeout(sendCards, retryAfter);
    retryAfter = Math.min(retryAfter * 2, 30000);
  };
  const sendCards = async () => {
    const form = handForm();
    const field = cardsField();
    if (!form || !field || sending) return;
    const key = keyOf(form);
    const kept = read(key);
    if (!kept || !kept.pending) return;
    // Tried whatever navigator.onLine says (the browser may be wrong, and may never say
    // "online"): without signal the request fails at once, and sendLater tries again soon.
    sending = true;
    const fields = [["csrf_token", form.elements.csrf_token.value], ["number", form.elements.number.value],
      ["seat", form.elements.seat.value], ["cards", kept.cards], ["preview", "cards"]];
    let response = null;
    let html = "";
    try {
      response = await fetch(form.getAttribute("action"), { method: "POST", body: outbox.body(fields), credentials: "same-origin", headers: { "HX-Request": "true" } });
      html = await response.text();
    } catch {
      response = null;
    } finally {
      sending = false;
    }
    if (!response || response.status >= 500) {
      sendLater();
      return;
    }
    retryAfter = 2000;
    const answer = new DOMParser().parseFromString(html, "text/html");
    const drawn = answer.getElementById("my-cards");
    if (response.status === 409) {
      // The round was stored meanwhile, or this phone is another player's now: the server's
      // hand replaces this one (it says why).
      forget(key);
      swapHand(answer.getElementById("my-hand"));
      return;
    }
    if (!drawn) {
      // Anything else that is not the cards (a link no longer good, say): the typing stays.
      showNote(say("handNotTaken", { status: response.status }));
      return;
    }
    clearNote();
    const now = read(key);
    if (now && now.cards === kept.cards) {
      write(key, { cards: kept.cards, pending: false });
      if (field.value === kept.cards) redraw(drawn);
    } else if (now && now.pending) {
      window.clearTimeout(timer);
      timer = window.setTimeout(sendCards, 400);
    }
  };
  const typed = () => {
    const form = handForm();
    const field = cardsField();
    if (!form || !field) return;
    write(keyOf(form), { cards: field.value, pending: true });
    withdrawOffer();
    window.clearTimeout(timer);
    timer = window.setTimeout(sendCards, 400);
  };

  // Capture phase, stopped here: the key's plain submit (the no-JavaScript path) is not sent.
  document.addEventListener("click", (event) => {
    const key = event.target.closest(`#${FORM} button[name=add], #${FORM} button[name=remove]`);
    const field = cardsField();
    if (!key || !field || !window.fetch) return;
    event.preventDefault();
    event.stopPropagation();
    let cards = cardTokens(field.value);
    if (key.name === "add") {
      cards = padAdd(cards, key);
      stale(true);
    } else {
      cards.splice(Number(key.value), 1);
      const chips = key.parentElement;
      key.remove();
      [...chips.querySelectorAll("button[name=remove]")].forEach((chip, index) => { chip.value = String(index); });
      stale(false);
    }
    field.value = cards.join(" ");
    typed();
  }, true);
  document.addEventListener("input", (event) => {
    if (event.target.id !== "my-cards-text") return;
    stale(true);
    typed();
  });

  // --- "done" and "I went out": sent now, or kept in the outbox --------------------------------
  // What became of one: "stored" (the hand page to open), "refused" (the hand that says why),
  // or "unsent".
  const sendHand = async (save) => {
    let response;
    let html;
    try {
      response = await fetch(save.action, { method: "POST", body: outbox.body(save.fields), credentials: "same-origin" });
      html = await response.text();
    } catch {
      return { outcome: "unsent" };
    }
    if (response.status >= 500) return { outcome: "unsent" };
    // Stored is the hand page again, reached by the answer's redirect. The sign-in page (the
    // phone's session ended while the tap waited) keeps the tap; any other page (the seat
    // picker, say) is shown, and says why.
    const landed = new URL(response.url, window.location.href).pathname;
    if (landed === LOGIN_PATH) return { outcome: "unsent" };
    const page = new DOMParser().parseFromString(html, "text/html");
    const home = new URL(save.action, window.location.href).pathname;
    const outcome = response.redirected && response.ok && landed === home ? "stored" : "refused";
    return { outcome, url: response.url, section: page.getElementById("my-hand"), main: page.getElementById("main") };
  };
  const settle = (save, answer) => {
    const main = document.getElementById("main");
    if (answer.outcome === "stored") {
      forget(save.draft);
      if (!main || !answer.main) {
        window.location.assign(answer.url);
        return;
      }
      // The page the server went on to, drawn here: its message ("Round 2 stored …") was spent
      // on this very answer, and would be gone from a second request.
      main.replaceWith(answer.main);
      if (window.htmx) window.htmx.process(answer.main);
      restore();
      keepPage();
      roundShown = shownRound();
    } else if (answer.section) {
      swapHand(answer.section);
    } else {
      window.location.assign(answer.url || save.action);
    }
  };
  // A "done" waiting in the outbox: the hand is shown as kept, and the pad is offered no more
  // (the server's page replaces this once the tap is sent). The note names the button tapped
  // in its own words ("Made ✓", "Done: that's my hand"), read from the page (issue 52).
  const showKept = (save) => {
    const form = handForm();
    const done = (save.fields.find(([name]) => name === "done") || [])[1];
    if (!form || !done || done === "again") return;
    const cards = (save.fields.find(([name]) => name === "cards") || [])[1] || "";
    const tapped = [...form.querySelectorAll("button[name=done]")].find((button) => button.value === done);
    const label = tapped ? tapped.textContent.replace(/\s+/g, " ").trim() : "";
    form.classList.add("is-kept");
    const state = form.querySelector(".my-state");
    if (state) {
      state.textContent = "";
      const strong = document.createElement("strong");
      strong.textContent = say("doneKept", { button: label });
      state.append(strong, " ", say(done === "made" ? "keptMade" : "keptNotMade", { cards: cards || say("noCards") }));
    }
  };
  const keep = async (form, save) => {
    try {
      await outbox.put(save);
    } catch {
      showNote(say("handNoSignal"));
      return;
    }
    // The tap carries the cards: they need not be sent on their own as well.
    const field = cardsField();
    write(save.draft, { cards: field ? field.value : "", pending: false });
    showNote(KEPT_NOTE);
    showKept(save);
    outbox.soon();
  };

  document.addEventListener("submit", async (event) => {
    const form = event.target;
    const submitter = event.submitter;
    if (form.id !== FORM || !submitter || !window.fetch) return;
    if (submitter.name === "preview") {
      // Enter in the cards field: send the typing now.
      event.preventDefault();
      window.clearTimeout(timer);
      sendCards();
      return;
    }
    if (submitter.name !== "done" && submitter.name !== "went_out") return;
    event.preventDefault();
    if (form.dataset.sending) return;
    window.clearTimeout(timer);
    // One tap waits per hand: a later one (say "I did not go out after all") replaces it.
    const save = {
      id: `hand:${keyOf(form)}`,
      kind: "hand",
      action: form.getAttribute("action"),
      number: form.elements.number.value,
      draft: keyOf(form),
      fields: [...new FormData(form), [submitter.name, submitter.value]],
    };
    if (!navigator.onLine || !window.indexedDB) {
      await keep(form, save);
      return;
    }
    form.dataset.sending = "1";
    const answer = await sendHand(save);
    delete form.dataset.sending;
    if (answer.outcome === "unsent") await keep(form, save);
    else settle(save, answer);
  });

  outbox.handle("hand", async (save, remove) => {
    const answer = await sendHand(save);
    if (answer.outcome === "unsent") return "stop";
    await remove();
    const form = handForm();
    const section = document.getElementById("my-hand");
    if (form ? form.getAttribute("action") === save.action : section) {
      settle(save, answer);
      return "sent";
    }
    if (answer.outcome === "stored") forget(save.draft);
    const paragraph = document.createElement("p");
    paragraph.className = "flash flash-warning queued-note";
    paragraph.setAttribute("role", "status");
    if (answer.outcome === "stored") {
      paragraph.textContent = say("handSent");
    } else {
      // One sentence with the link inside it, where the words put it ({link}).
      const [before, after = ""] = say("handRefused").split("{link}");
      const anchor = document.createElement("a");
      anchor.href = save.action;
      anchor.textContent = say("openItInside");
      paragraph.append(before, anchor, after);
    }
    const main = document.getElementById("main");
    if (main) main.prepend(paragraph);
    return "sent";
  });

  // The service worker keeps the hand page as it was opened; a hand that moved on since (its
  // poll, a "done" answered here) is kept again, so that a reload without signal shows this one
  // (and the typing kept for it). BOARDS in static/sw.js.
  const keepPage = () => {
    if (!window.caches || !navigator.serviceWorker || !navigator.serviceWorker.controller || !navigator.onLine) return;
    const path = window.location.pathname;
    fetch(path, { credentials: "same-origin" }).then(async (response) => {
      if (!response.ok || response.redirected) return;
      const headers = new Headers(response.headers);
      headers.set("X-Seen-At", new Date().toISOString());
      const body = await response.text();
      await (await caches.open("scorekeeper-boards-v1")).put(path, new Response(body, { headers }));
    }).catch(() => {});
  };

  // --- a seat another phone took over, and taken back ---------------------------------------
  // While another phone holds the seat, what this phone had typed is kept, marked as left
  // behind: taken back, it is offered (one tap puts it in), never sent over the other phone's.
  const leftBehind = () => {
    const stem = `${PREFIX}${window.location.pathname}#`;
    try {
      for (const name of Object.keys(localStorage)) {
        const kept = name.startsWith(stem) ? read(name) : null;
        if (kept && !kept.lost) write(name, { cards: kept.cards, pending: false, lost: true });
      }
    } catch { /* storage off */ }
  };
  const offerBack = (cards) => {
    const form = handForm();
    if (!form || document.getElementById("typed-back")) return;
    const offer = document.createElement("div");
    offer.id = "typed-back";
    offer.className = "flash flash-warning typed-back";
    offer.setAttribute("role", "status");
    const text = document.createElement("p");
    text.textContent = say("typedBefore", { cards });
    const button = document.createElement("button");
    button.type = "button";
    button.className = "button block";
    button.textContent = say("putTypedBack", { cards });
    button.addEventListener("click", () => {
      const field = cardsField();
      if (!field) return;
      field.value = cards;
      stale(true);
      typed();
    });
    offer.append(text, button);
    (form.querySelector(".my-state") || form.firstElementChild).after(offer);
  };
  const withdrawOffer = () => {
    const offer = document.getElementById("typed-back");
    if (offer) offer.remove();
  };

  // --- a page opened (or a hand redrawn by its poll): the typing kept here comes back ---------
  function restore() {
    if (document.querySelector("#my-hand form.lost-seat")) leftBehind();
    const form = handForm();
    if (!form) return;
    const key = keyOf(form);
    const round = Number(form.elements.number.value);
    try {
      // Rounds stored since: their typing is of no more use.
      const stem = `${PREFIX}${form.getAttribute("action")}#`;
      for (const name of Object.keys(localStorage)) {
        if (name.startsWith(stem) && Number(name.slice(stem.length).split(":")[0]) < round) forget(name);
      }
    } catch { /* storage off */ }
    const field = cardsField();
    const kept = read(key);
    if (field && kept && kept.lost) {
      // Taken back from another phone: what that phone put in stands, this one's is offered.
      if (kept.cards.trim() && kept.cards !== field.value) offerBack(kept.cards);
      else write(key, { cards: field.value, pending: false });
    } else if (field && kept && kept.pending) {
      if (kept.cards !== field.value) {
        field.value = kept.cards;
        stale(true);
      }
      sendCards();
    } else if (field && kept && kept.cards !== field.value) {
      // The server's hand moved on since it was sent (the scorer filled it): it wins.
      write(key, { cards: field.value, pending: false });
    }
    if (window.indexedDB) {
      outbox.waiting().then((saves) => {
        const waiting = saves.find((save) => save.draft === key);
        if (waiting) {
          showNote(KEPT_NOTE);
          showKept(waiting);
        }
      }).catch(() => {});
    }
  }
  // The round (or the game's end) this hand shows: the page's messages ("Round 8 stored:
  // every hand was in.") belong to it, and go when a poll moves the hand on.
  const shownRound = () => {
    const form = handForm();
    return form ? form.elements.number.value : (document.getElementById("my-hand") ? "over" : null);
  };
  let roundShown = shownRound();
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target && event.target.id === "my-hand") {
      const now = shownRound();
      if (now !== roundShown) {
        document.querySelectorAll("#main > .flash").forEach((message) => message.remove());
        roundShown = now;
      }
    }
    restore();  // a seat lost to another phone marks the typing left behind, form or none
    if (handForm() && event.target && event.target.id === "my-hand") keepPage();
  });
  window.addEventListener("online", sendCards);
  window.setInterval(sendCards, 30000);
  document.addEventListener("htmx:afterRequest", (event) => {
    if (event.detail && event.detail.xhr && event.detail.xhr.status > 0 && !sending) sendCards();
  });
  restore();
})();

// games: the rounds table opens on the latest round (its box scrolled to the bottom, once per
// drawing: a board redrawn by its poll has a new round to show), and says that it scrolls
// sideways while it is wider than the phone.
(() => {
  const settle = () => {
    document.querySelectorAll("[data-latest-last]").forEach((box) => {
      if (!box.dataset.opened) {
        box.scrollTop = box.scrollHeight;
        box.dataset.opened = "1";
      }
      const hint = box.previousElementSibling && box.previousElementSibling.querySelector(".scroll-hint");
      if (hint) hint.hidden = box.scrollWidth <= box.clientWidth + 1;
    });
  };
  settle();
  document.addEventListener("htmx:afterSettle", settle);
  window.addEventListener("resize", settle);
})();

// games: Undo, tapped twice quickly. The first tap sends it once (a second submit of the same
// form is dropped here; the server answers a repeat as one anyway), and the board it brings
// takes no tap for a moment: a thumb's second tap lands on nothing there, not on whatever the
// new page put where Undo was ("My hand, on this phone", or the undo of the round before).
(() => {
  const KEY = "scorekeeper:undone-at";
  const QUIET_MS = 800;
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!form.matches || !form.matches("form.undo")) return;
    if (form.dataset.sent) {
      event.preventDefault();
      return;
    }
    form.dataset.sent = "1";
    try { sessionStorage.setItem(KEY, String(Date.now())); } catch { /* storage off */ }
  });
  let undoneAt = 0;
  try {
    undoneAt = Number(sessionStorage.getItem(KEY)) || 0;
    sessionStorage.removeItem(KEY);
  } catch { /* storage off */ }
  if (!undoneAt || Date.now() - undoneAt > 5000) return;
  const swallow = (event) => {
    event.preventDefault();
    event.stopPropagation();
  };
  const kinds = ["click", "auxclick", "dblclick", "submit"];
  kinds.forEach((kind) => document.addEventListener(kind, swallow, true));
  window.setTimeout(() => kinds.forEach((kind) => document.removeEventListener(kind, swallow, true)), QUIET_MS);
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
  // Whose pages the worker keeps from now on: it drops what it kept for anyone else.
  const keptFor = document.body.dataset.keptFor;
  if (keptFor) {
    navigator.serviceWorker.ready.then((registration) => {
      if (registration.active) registration.active.postMessage({ keptFor });
    }).catch(() => {});
  }
}

// An answer for a part of the page that is gone meanwhile (a round form swapped for the
// server's refusal while a hand's preview was on its way, a seat's page redrawn under its
// poll) is dropped: swapped into the detached part, its kept fields (hx-preserve) would be
// taken out of the page that replaced it.
document.addEventListener("htmx:beforeSwap", (event) => {
  const target = event.detail.target;
  if (target && !target.isConnected) event.detail.shouldSwap = false;
});

// The same for an answer that names its own target (HX-Retarget) to an element that asked and
// is gone meanwhile (the own-hand page's poll when the page was redrawn under it): htmx looks
// for that target beside the element that asked, finds nothing in the detached part, and
// throws. Such an answer is let go before htmx reads it. The answer's event is fired on the
// detached element itself, so the listener is put on each element that asks.
const askers = new WeakSet();
document.addEventListener("htmx:beforeRequest", (event) => {
  const asker = event.detail.elt;
  if (!asker || askers.has(asker)) return;
  askers.add(asker);
  asker.addEventListener("htmx:beforeOnLoad", (answer) => {
    if (answer.target === asker && !asker.isConnected && answer.detail.xhr.getResponseHeader("HX-Retarget")) {
      answer.preventDefault();
    }
  });
});

// games: the own-hand page's poll (which follows its round, issue 23 item 3) is not sent
// while the phone knows it has no signal: it could only fail.
document.addEventListener("htmx:beforeRequest", (event) => {
  if (!navigator.onLine && event.target && event.target.id === "my-hand") {
    event.preventDefault();
  }
});

// games: what polls (the scoreboard, the TV, the own hand: hx-trigger "every Ns, shown") asks
// nothing while its page is hidden (the screen off, another app in front): a table's phones
// lie face down between rounds, and an unread poll is load for nothing (issue 52). Shown
// again, each asks at once ("shown"), not a whole interval later.
document.addEventListener("htmx:beforeRequest", (event) => {
  const asker = event.detail.elt;
  if (document.hidden && asker && /^every /.test(asker.getAttribute("hx-trigger") || "")) {
    event.preventDefault();
  }
});
document.addEventListener("visibilitychange", () => {
  if (document.hidden || !window.htmx) return;
  document.querySelectorAll('[hx-trigger^="every "]').forEach((asker) => window.htmx.trigger(asker, "shown"));
});

// games: a flashed message ("Round 4 saved: …", "Round 4 stored: every hand was in.") answers
// what the page held when it came. It goes once the next round is under way (issue 52): when a
// poll redraws the board or the hand for another round ([data-round] moved on), and, for a
// message that only said it went well, at this phone's first tap after it (a card of the next
// round's hand, a key or a field: a person's own, not a poll or a part loading). Without
// JavaScript the next page shows it no more.
(() => {
  const roundOf = () => {
    const marked = document.querySelector("#board[data-round], #my-hand[data-round]");
    return marked ? marked.dataset.round : null;
  };
  const shownFor = roundOf();
  const clear = (selector) => document.querySelectorAll(selector).forEach((flash) => flash.remove());
  document.addEventListener("htmx:afterSettle", () => {
    if (shownFor !== null && roundOf() !== null && roundOf() !== shownFor) clear("main > .flash");
  });
  const tapped = (event) => {
    const on = event.target instanceof Element ? event.target : null;
    if (event.isTrusted && on && on.closest("main button, main input, main textarea")) clear("main > .flash-success");
  };
  document.addEventListener("click", tapped, true);
  document.addEventListener("input", tapped, true);
})();

// games/new: a new empty seat as soon as a name is typed in the last one (up to the most at a
// table), and the deck line for the names typed, as they are typed (the form's <template>
// holds the line for each count, in the page's language). Without JavaScript the keyboard's
// Enter redraws the form with both.
(() => {
  const SEAT = "#new-game .seat-list input[type=text]";
  const addSeat = (list, last, seat) => {
    const row = last.cloneNode(true);
    const number = seat + 1;
    row.querySelectorAll(".field-error").forEach((error) => error.remove());
    const label = row.querySelector("label.visually-hidden");
    if (label) {
      label.htmlFor = `players-${seat}`;
      label.textContent = say("seatPlayer", { number });
    }
    const box = row.querySelector("input[type=text]");
    box.id = `players-${seat}`;
    box.name = `players-${seat}`;
    box.value = "";
    box.placeholder = say("seatPlayer", { number });
    box.removeAttribute("aria-invalid");
    box.removeAttribute("aria-describedby");
    const dealer = row.querySelector("input[type=radio]");
    if (dealer) {
      dealer.value = String(seat);
      dealer.checked = false;
    }
    const up = row.querySelector("button[name^=up-]");
    const down = row.querySelector("button[name^=down-]");
    for (const [button, way, last] of [[up, "up", false], [down, "down", true]]) {
      if (!button) continue;
      button.name = `${way}-${seat}`;
      button.disabled = last;
      button.setAttribute("aria-label", say(way === "up" ? "seatUp" : "seatDown", { number }));
    }
    const before = last.querySelector("button[name^=down-]");
    if (before) before.disabled = false;
    list.append(row);
    if (window.htmx) window.htmx.process(row);
  };
  const showLine = (form, count) => {
    const line = form.querySelector("#setup-preview");
    const lines = form.querySelector("#setup-lines");
    const wanted = lines ? lines.content.querySelector(`[data-count="${count}"]`) : null;
    if (line && wanted && line.textContent !== wanted.textContent) line.textContent = wanted.textContent;
  };
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches(SEAT)) return;
    const list = box.closest(".seat-list");
    const rows = list.querySelectorAll(".seat-row");
    const last = rows[rows.length - 1];
    if (box.value.trim() && last.contains(box) && rows.length < Number(list.dataset.mostSeats || 0)) {
      addSeat(list, last, rows.length);
    }
    showLine(box.form, [...list.querySelectorAll(SEAT)].filter((seat) => seat.value.trim()).length);
  });
})();
