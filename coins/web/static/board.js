// The Coins board: set-up, analysis, hints, play and review, over the JSON
// endpoints of `coins serve` (each answers what its command's --json prints).
// Plain JavaScript, no libraries: the page works offline.
"use strict";

const SUITS = "COSB";                 // Cups, Coins, Swords, Clubs (RULES.md order)
const SUIT_NAMES = ["Cups", "Coins", "Swords", "Clubs"];
const RANKS = "23456789JNKA";         // low to high
const SEATS = [0, 1, 2];

// ----- the one place that reads card values from a solve ---------------------------------
// Every card of the mover: its guaranteed value (paranoid) and its max^n result (every
// seat's points), each with `estimated` when it is an estimate, not a proven value.
function cardValues(result) {
  // proven values come in card_values and card_results; where the exact max^n search
  // did not finish, coins solve's "estimate" field holds estimated ones
  const values = new Map();
  const entry = card => values.get(card) || values.set(card, {}).get(card);
  const read = (found, key, estimated) => {
    for (const [card, value] of Object.entries(found || {})) {
      if (!entry(card)[key]) entry(card)[key] = { value, estimated };
    }
  };
  read(result.card_values, "guaranteed", false);
  read(result.card_results, "maxn", false);
  if (result.estimate) read(result.estimate.card_results, "maxn", !result.estimate.exact);
  return values;
}

// ----- cards --------------------------------------------------------------------------
const suitOf = card => SUITS.indexOf(card[card.length - 1]);
const rankOf = card => RANKS.indexOf(card.slice(0, -1));
const byDisplay = (a, b) => suitOf(a) - suitOf(b) || rankOf(b) - rankOf(a);  // by suit, high first
const DECK = [...SUITS].flatMap(s => [...RANKS].reverse().map(r => r + s));

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

// el for SVG (the suits' pictures, the review's graph): attributes as they are, children flattened
function svgEl(tag, attributes = {}, ...children) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children.flat(Infinity).filter(Boolean));
  return node;
}

function suitIcon(suit, className) {
  return svgEl("svg", { class: className, "aria-hidden": "true" }, svgEl("use", { href: `#suit-${suit}` }));
}

// A card drawn: rank, suit letter and picture; `values` lines below; `onclick` makes it a
// button; `details` (its values in full) show in the board's details line on hover, focus or a tap.
function cardEl(card, { onclick, values, classes = "", title, details } = {}) {
  const suit = card[card.length - 1];
  const rank = card.slice(0, -1);
  const node = el(onclick || details ? "button" : "div", {
    class: `card suit-${suit} ${classes}`, "data-card": card, type: onclick || details ? "button" : null,
    title: title || `${rank} of ${SUIT_NAMES[SUITS.indexOf(suit)]}`,
  }, el("span", { class: "rank", text: rank }), el("span", { class: "letter", text: suit }),
  suitIcon(suit, "pip"));
  if (values) node.append(values);
  if (details) {
    node.dataset.details = details;
    node.addEventListener("pointerenter", event => { if (event.pointerType === "mouse") showDetails(node); });
    node.addEventListener("focus", () => { if (node.matches(":focus-visible")) showDetails(node); });
  }
  if (onclick || details) node.addEventListener("click", () => {
    // a touch screen has no hover: the first tap on a card shows its details, the next plays it
    if (details && lastPointer !== "mouse" && !node.classList.contains("selected")) showDetails(node);
    else if (onclick) onclick();
  });
  return node;
}

let lastPointer = "mouse";  // how the last click came: "mouse", "touch" or "pen"
document.addEventListener("pointerdown", event => { lastPointer = event.pointerType; }, true);

function showDetails(card) {
  const board = card.closest(".board");
  for (const other of board.querySelectorAll(".card.selected")) other.classList.remove("selected");
  card.classList.add("selected");
  board.querySelector(".details").textContent = card.dataset.details;
}

const cardBack = () => el("div", { class: "card back", title: "a hidden card" });

// A card in a line of text: rank and suit picture, in the suit's colour.
function chipEl(card) {
  const suit = card[card.length - 1];
  return el("span", { class: `chip suit-${suit}`, "data-card": card, title: card, "aria-label": card },
    card.slice(0, -1), suitIcon(suit, "chip-pip"));
}

// ----- talking to the server ------------------------------------------------------------
class ApiError extends Error {
  constructor(message, field, status) { super(message); this.field = field; this.status = status; }
}

const post = (path, fields) => fetch(path, {
  method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields),
}).then(answered);
const get = path => fetch(path).then(answered);

async function answered(response) {
  const body = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new ApiError(body.error || "request failed", body.field, response.status);
  return body;
}

// Answers can come back out of order: each request of a slot (a part of the page) takes a
// ticket, and only the slot's newest answer is shown; `ticket(slot)()` says if it still is.
const newest = {};
function ticket(slot) {
  const mine = newest[slot] = (newest[slot] || 0) + 1;
  return () => newest[slot] === mine;
}

// One search runs for the page at a time: a new one cancels the one before (whose answer,
// if it still comes, shows only if nothing newer took its place), so a small search never
// waits behind a large one the user has moved on from; a page that goes cancels its search.
let runningJob = null;  // {id, box}
const cancelJob = job => navigator.sendBeacon(`/api/jobs/${job}/cancel`);
window.addEventListener("pagehide", () => { if (runningJob) cancelJob(runningJob.id); });

// Drop the search of `statusBox`: cancel it, and its answer will not be shown.
function dropSearch(statusBox) {
  ticket(statusBox.id);
  statusBox.hidden = true;
  if (runningJob && runningJob.box === statusBox) cancelJob(runningJob.id);
}

// A search with its status line: seconds, what it is proving, and a Cancel button;
// `onprogress` gets the job's status as it runs. Resolves to null when a newer request of
// the same status box replaced it.
async function search(path, fields, statusBox, onprogress) {
  const job = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const current = ticket(statusBox.id);
  if (runningJob) cancelJob(runningJob.id);
  const running = runningJob = { id: job, box: statusBox };
  const text = statusBox.querySelector(".status-text");
  const cancel = statusBox.querySelector(".cancel");
  const started = performance.now();
  const limit = fields.time_limit ? ` of at most ${fields.time_limit} s` : "";
  text.textContent = `${path.split("/").pop()}: starting...`;
  statusBox.hidden = false;
  cancel.disabled = false;
  cancel.onclick = () => { cancel.disabled = true; cancelJob(job); };
  const poll = setInterval(async () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    try {
      const state = await (await fetch(`/api/jobs/${job}`)).json();
      if (state.done || !current()) return;
      text.textContent = `${seconds} s${limit}: ${state.progress}`;
      if (onprogress) onprogress(state);
    } catch (error) { /* the answer is on its way */ }
  }, 400);
  try {
    const answer = await post(path, { ...fields, job });
    return current() ? answer : null;
  } catch (error) {
    if (current()) throw error;
    return null;
  } finally {
    clearInterval(poll);
    if (runningJob === running) runningJob = null;
    if (current()) statusBox.hidden = true;
  }
}

function showError(box, error, input) {
  box.textContent = error ? error.message : "";
  if (input) input.setAttribute("aria-invalid", error ? "true" : "false");
}

// The server refused (a 4xx with the library's one-line error): show it in `box`, beside
// `input`. Anything else is a bug in the page and goes on up.
function refused(error, box, input) {
  if (!(error instanceof ApiError)) throw error;
  showError(box, error, input);
}

// ----- a card picker: the 48 cards, clicked into named groups ----------------------------
// `targets`: [{id, label}]; `exclusive`: a card is in one group at most (else a card may be
// in several, e.g. a view's hand and the cards played from it). Groups keep click order.
class Picker {
  constructor(container, targetsBox, targets, { exclusive, onchange }) {
    this.container = container;
    this.targets = targets;
    this.exclusive = exclusive;
    this.onchange = onchange;
    this.groups = Object.fromEntries(targets.map(t => [t.id, []]));
    this.active = targets[0].id;
    this.targetButtons = targets.map(t => el("button", {
      type: "button", "data-target": t.id, text: t.label, onclick: () => this.select(t.id),
    }));
    targetsBox.replaceChildren(...this.targetButtons);
    this.select(this.active);
  }

  select(id) {
    this.active = id;
    for (const b of this.targetButtons) b.setAttribute("aria-pressed", String(b.dataset.target === id));
  }

  set(groups) {
    for (const t of this.targets) this.groups[t.id] = [...(groups[t.id] || [])];
    this.render();
  }

  toggle(card) {
    const group = this.groups[this.active];
    if (group.includes(card)) {
      group.splice(group.indexOf(card), 1);
    } else {
      if (this.exclusive) for (const other of Object.values(this.groups)) {
        if (other.includes(card)) other.splice(other.indexOf(card), 1);
      }
      group.push(card);
    }
    this.render();
    this.onchange();
  }

  render() {
    const badges = {};
    for (const t of this.targets) {
      this.groups[t.id].forEach((card, i) => {
        (badges[card] = badges[card] || []).push(t.sequence ? `${t.badge}${i + 1}` : t.badge);
      });
    }
    this.container.replaceChildren(...DECK.map(card => {
      const suit = card[card.length - 1];
      return el("button", {
        type: "button", class: `pick suit-${suit} ${badges[card] ? "taken" : ""}`, "data-card": card,
        title: card, onclick: () => this.toggle(card),
      }, el("span", { text: card.slice(0, -1) }), suitIcon(suit, ""),
      badges[card] ? el("span", { class: "badge", text: badges[card].join(" ") }) : null);
    }));
  }
}

// ----- notation (what the picker builds; the server reads and checks it) -----------------
function handText(cards) {
  return [...SUITS].map(s => cards.filter(c => c.endsWith(s)).sort(byDisplay).map(c => c.slice(0, -1)).join(""))
    .join(".");
}

function positionText(hands, leader, trick, taken) {
  let text = `${hands.map(handText).join(" ")} ${leader} ${trick.join(",") || "-"}`;
  if (taken.some(t => t)) text += ` ${taken.join(",")}`;
  return text;
}

// ----- the table: three seats and the cards on it ----------------------------------------
// seats: [{name, cards (or null: hidden, with count), info: [lines], toMove, cardOptions(card)}]
function drawTable(box, { seats, table, summary }) {
  const middle = el("div", { class: "middle" });
  if (table.cards.length) {
    table.cards.forEach((card, i) => {
      const seat = (table.leader + i) % 3;
      middle.append(el("div", { class: `played ${table.winner === seat ? "won" : ""}` },
        cardEl(card), el("span", { text: `seat ${seat}` })));
    });
    if (table.note) middle.append(el("span", { class: "summary", text: table.note }));
  } else {
    middle.append(el("span", { class: "empty", text: table.note || "no cards on the table" }));
  }
  const rows = seats.map((seat, s) => el("div", { class: `seat ${seat.toMove ? "to-move" : ""}`, "data-seat": s },
    el("div", { class: "seat-info" },
      el("div", { class: "name" }, seat.name, seat.toMove ? el("span", { class: "tag", text: "to move" }) : null),
      ...seat.info.map(line => el("div", { text: line }))),
    el("div", { class: `cards ${seat.cards ? "" : "fan"}` },
      seat.cards ? seat.cards.map(card => cardEl(card, seat.cardOptions ? seat.cardOptions(card) : {}))
        : Array.from({ length: seat.count }, cardBack))));
  const details = el("div", { class: "details", "aria-live": "polite" });
  box.replaceChildren(middle, ...rows, summary ? el("div", { class: "summary", text: summary }) : "", details);
  if (box.querySelector(".card[data-details]")) {
    details.textContent = matchMedia("(hover: hover)").matches ? "Point at a card for all its values."
      : "Tap a card for all its values (tap again to play it).";
  }
}

// ----- tabs, and the address: what is shown is in the URL's hash ---------------------------
// `#position=<text>`, `#hint=<view>`, `#play`, or a review with its form's settings,
// `#review=<record>&seat=1&samples=30&time_limit=10` (an empty one left out; a link without
// them, as the board wrote before, is the record's review with no seat): a link shows the same
// (a review's starts it, as the Review button does), and the browser's Back and Forward move
// between the positions played and the tabs visited.
function showTab(name, { remembered = false } = {}) {
  for (const button of document.querySelectorAll("nav button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== `tab-${name}`;
  if (!remembered) remember(true);
}
for (const button of document.querySelectorAll("nav button")) button.onclick = () => showTab(button.dataset.tab);

const shownTab = () => document.querySelector("nav button[aria-selected=true]").dataset.tab;
const TAB_TEXT = { position: "position-text", hint: "view-text" };
const REVIEW_FIELDS = { seat: "review-seat", samples: "review-samples", time_limit: "review-time" };

// The page's state in the browser's history: a new entry (`push`) or this one updated. A
// position keeps the positions played to reach it (for the Back button) and, once solved,
// that coming back to it solves it again; the Review tab keeps the review shown (its settings).
function remember(push) {
  const tab = shownTab();
  const text = TAB_TEXT[tab] ? $(TAB_TEXT[tab]).value.trim() : "";
  let state = { tab, text };
  if (tab === "position") state = { ...state, visited, solve: solved !== null };
  if (tab === "review") state.review = reviewShown && reviewShown.settings;
  const hash = addressOf(state);
  if (push && hash !== location.hash) window.history.pushState(state, "", hash);
  else window.history.replaceState(state, "", hash);
}

function addressOf({ tab, text, review }) {
  if (review) {
    const settings = Object.keys(REVIEW_FIELDS).filter(name => review[name] !== "")
      .map(name => `&${name}=${encodeURIComponent(review[name])}`);
    return `#review=${encodeURIComponent(review.record)}${settings.join("")}`;
  }
  return `#${tab}${text ? `=${encodeURIComponent(text)}` : ""}`;
}

function stateOf(hash) {
  const [, tab, text] = /^#(position|hint|play|review)(?:=(.*))?$/s.exec(hash) || [];
  if (tab !== "review") return tab ? { tab, text: text ? decodeURIComponent(text) : "" } : null;
  if (!text) return { tab, review: null };
  const [record, ...settings] = text.split("&");  // the record's own & would be %26
  const given = new URLSearchParams(settings.join("&"));
  return { tab, review: reviewSettings(decodeURIComponent(record), name => given.get(name)) };
}

// What an address or a history entry shows.
async function recall(state) {
  showTab(state.tab, { remembered: true });
  if (TAB_TEXT[state.tab] && state.text) $(TAB_TEXT[state.tab]).value = state.text;
  if (state.tab === "position" && state.text) {
    await loadPosition(state.text, { visited: state.visited || [state.text], remembered: true });
    if (state.solve) await solveCurrent();
  } else if (state.tab === "hint" && state.text) {
    await loadView(state.text);
  } else if (state.tab === "review") {
    // a history entry of a board before reviews kept their settings has the record as its text
    const review = state.review || (state.text ? reviewSettings(state.text, () => "") : null);
    if (review) fillReviewForm(review);
    if (review && !(reviewShown && sameSettings(reviewShown.settings, review))) {
      reviewCurrent({ remembered: true });  // not awaited: the review shows as it comes
    }
  }
}

window.addEventListener("popstate", event => {
  const state = event.state || stateOf(location.hash);
  if (state) recall(state);
});

const $ = id => document.getElementById(id);

// ===== set-up and analysis ================================================================
const setupPicker = new Picker($("setup-picker"), $("setup-targets"), [
  { id: "0", label: "Seat 0", badge: "0" }, { id: "1", label: "Seat 1", badge: "1" },
  { id: "2", label: "Seat 2", badge: "2" }, { id: "trick", label: "Trick", badge: "T", sequence: true },
], { exclusive: true, onchange: setupChanged });

let visited = [];      // positions stepped through, the current one last
let solved = null;     // the solve JSON of the current position

function setupText() {
  const hands = SEATS.map(s => setupPicker.groups[String(s)]);
  const taken = SEATS.map(s => Number($(`taken-${s}`).value) || 0);
  return positionText(hands, Number($("setup-leader").value), setupPicker.groups.trick, taken);
}

function setupChanged() {
  $("position-text").value = setupText();
  loadPosition($("position-text").value, { quiet: true });
}

// Read a position (server-checked) into the picker and draw it; errors go beside the field.
// `visited`: the positions played to reach it (else it starts them); a new position drops
// the solve of the one before, and goes into the address (a new entry unless `quiet`).
async function loadPosition(text, { quiet = false, visited: path = null, remembered = false } = {}) {
  const current = ticket("position");
  dropSearch($("solve-status"));
  try {
    const read = await post("/api/position", { position: text });
    if (!current()) return null;
    showError($("position-error"), null, $("position-text"));
    setupPicker.set({ 0: read.start[0], 1: read.start[1], 2: read.start[2], trick: read.trick });
    $("setup-leader").value = read.leader;
    SEATS.forEach(s => { $(`taken-${s}`).value = read.taken[s]; });
    $("position-text").value = read.text;
    visited = path || [read.text];
    solved = null;
    drawPosition(read);
    if (!remembered && shownTab() === "position") remember(!quiet);
    return read;
  } catch (error) {
    if (!current()) return null;
    refused(error, $("position-error"), $("position-text"));
    if (!quiet) $("board").replaceChildren();
    return null;
  }
}

const NEAR_TIE = 0.5;  // estimates closer than this are a tie (analysis.reviews.ESTIMATE_TIE)
// a value as shown: "-" where there is none, "~" before an estimate
const points = (value, estimated) => (value === null || value === undefined ? "-"
  : estimated ? `~${value.toFixed(1)}` : `${value}`);

// A reviewed card's values (analysis.reviews.MoveReview.to_json) in cardValues' form.
function moveValues(move) {
  const values = new Map();
  for (const [card, result] of Object.entries(move.maxn.cards)) {
    values.set(card, { maxn: { value: result, estimated: move.estimated } });
  }
  for (const [card, value] of Object.entries(move.paranoid ? move.paranoid.cards : {})) {
    values.get(card).guaranteed = { value, estimated: false };
  }
  return values;
}

// every seat's max^n points after the card, and its guaranteed value: what hover (or a tap) shows
function valueDetails(card, values) {
  const v = values.get(card);
  if (!v) return null;
  const parts = [];
  if (v.maxn) parts.push(`max^n: seats 0-1-2 get ${v.maxn.value.map(x => points(x, v.maxn.estimated)).join(" ")}`
    + (v.maxn.estimated ? " (estimated)" : ""));
  if (v.guaranteed) parts.push(`guaranteed ${points(v.guaranteed.value, v.guaranteed.estimated)}`);
  return `${card}: ${parts.join("; ")}`;
}

function valueLines(card, values, best, mover) {
  const v = values.get(card);
  if (!v) return null;
  const lines = el("div", { class: "values" });
  if (v.guaranteed) {
    lines.append(el("span", {
      class: `g ${best.g.has(card) ? "best" : ""} ${v.guaranteed.estimated ? "estimated" : ""}`,
      "data-guaranteed": v.guaranteed.value, text: `g ${points(v.guaranteed.value, v.guaranteed.estimated)}`,
    }));
  }
  if (v.maxn) {
    lines.append(el("span", {
      class: `m ${best.m.has(card) ? "best" : ""} ${v.maxn.estimated ? "estimated" : ""}`,
      "data-maxn": v.maxn.value.join(","), text: `m ${points(v.maxn.value[mover], v.maxn.estimated)}`,
    }));
  }
  return lines;
}

// The best cards of each mode; for estimates, every card within NEAR_TIE of the best (a tie).
function bestCards(values, mover) {
  const slack = value => (value.estimated ? NEAR_TIE - 1e-9 : 0);
  const best = (key, own) => {
    const found = [...values].filter(([, v]) => v[key]);
    const top = Math.max(...found.map(([, v]) => own(v[key])));
    return new Set(found.filter(([, v]) => own(v[key]) >= top - slack(v[key])).map(([c]) => c));
  };
  return { g: best("guaranteed", g => g.value), m: best("maxn", m => m.value[mover]) };
}

function drawPosition(read) {
  const mover = read.to_move;
  const over = read.hands.every(h => h.length === 0);
  const values = solved ? cardValues(solved) : new Map();
  const best = solved ? bestCards(values, mover) : { g: new Set(), m: new Set() };
  const choice = solved && (solved.equilibrium_line || solved.line || [])[0];
  const seatValue = (key, s) => {
    const estimate = solved && solved.estimate;
    if (key === "equilibrium" && estimate && solved.equilibrium === null) {
      const value = estimate.card_results[estimate.best][s];
      return estimate.exact ? value : `${points(value, true)} (estimated)`;
    }
    if (!solved || !solved[key]) return null;
    const value = solved[key][s];
    if (value !== null && value !== undefined) return value;
    const bounds = key === "guaranteed" && solved.bounds && solved.bounds[s];
    return bounds ? `${bounds[0]}-${bounds[1]}` : null;
  };
  drawTable($("board"), {
    table: { ...read.table, note: over ? "the hand is over" : `seat ${read.table.leader} leads` },
    seats: SEATS.map(s => ({
      name: `Seat ${s}`, cards: [...read.hands[s]].sort(byDisplay), toMove: !over && s === mover,
      info: [`taken ${read.taken_now[s]}`,
        seatValue("guaranteed", s) !== null ? `guaranteed ${seatValue("guaranteed", s)}` : null,
        seatValue("equilibrium", s) !== null ? `max^n ${seatValue("equilibrium", s)}` : null].filter(Boolean),
      cardOptions: s === mover && !over ? card => ({
        onclick: () => playCard(card),
        values: valueLines(card, values, best, mover),
        details: valueDetails(card, values),
        classes: `${best.g.has(card) ? "best-g" : ""} ${best.m.has(card) ? "best-m" : ""} ${card === choice ? "choice" : ""}`,
      }) : null,
    })),
    summary: solved ? `${solved.exact ? "exact" : "not exact"}, ${solved.nodes.toLocaleString()} nodes, ${solved.seconds.toFixed(2)} s`
      : "Solve to see each card's values.",
  });
  $("step-back").disabled = visited.length < 2;
  $("step-line").disabled = !choice;
  drawLines(read);
}

function drawLines(read) {
  const box = $("main-lines");
  box.replaceChildren();
  if (!solved) return;
  const first = 3 - read.table.cards.length;  // cards until the trick on the table is complete
  const line = (title, cards) => cards && cards.length ? el("p", {},
    el("b", { text: `${title}: ` }),
    ...cards.map((card, i) => [chipEl(card), (i + 1 - first) % 3 === 0 ? el("span", { class: "trick-end" }) : null])) : null;
  box.append(el("div", { class: "lines" },
    line("Max^n line (everyone for themselves)", solved.equilibrium_line),
    line("Paranoid line (the mover against the pair)", solved.line)));
}

async function solveCurrent() {
  const text = $("position-text").value;
  showError($("solve-error"), null);
  let answer;
  try {
    answer = await search("/api/solve", {
      position: text, mode: $("solve-mode").value, time_limit: Number($("solve-time").value) || null,
    }, $("solve-status"));
  } catch (error) {
    // an error in the position goes beside it; any other beside the solve
    const inPosition = /^(position|hand|leader|trick|taken)/.test((error && error.field) || "");
    refused(error, $(inPosition ? "position-error" : "solve-error"), inPosition ? $("position-text") : null);
    return;
  }
  if (!answer) return;  // the page has moved on to another position or search
  const current = ticket("position");
  const read = await post("/api/position", { position: answer.position });
  if (!current()) return;
  solved = answer;
  drawPosition(read);
  if (shownTab() === "position") remember(false);
}

// Play a card of the mover: the next position, a new entry in the browser's history.
async function playCard(card) {
  const current = visited[visited.length - 1] || $("position-text").value;
  try {
    const read = await post("/api/view", { view: `${current} | ${card}` });
    const next = read.position;
    const path = [...visited, next];
    if (!await loadPosition(next, { visited: path, remembered: true })) return;
    remember(true);
    if (!read.over) await solveCurrent();
  } catch (error) {
    refused(error, $("solve-error"));
  }
}

// The Back button: one card back along the positions played, a new entry in the browser's
// history as a card played is (the browser's Back goes back through that history).
async function stepBack() {
  if (visited.length < 2) return;
  const path = visited.slice(0, -1);
  if (!await loadPosition(path[path.length - 1], { visited: path, remembered: true })) return;
  remember(true);
  await solveCurrent();
}

async function analyzeCurrent() {
  showError($("solve-error"), null);
  let result;
  try {
    result = await search("/api/analyze", {
      position: $("position-text").value, time_limit: Number($("solve-time").value) || null,
    }, $("solve-status"));
  } catch (error) {
    refused(error, $("solve-error"));
    return;
  }
  if (!result) return;
  const rows = result.decisions.map(d => el("tr", { class: d.disagree ? "parts" : "" },
    el("td", { class: "num", text: d.number }), el("td", { class: "num", text: d.seat }),
    el("td", {}, chipEl(d.played), d.estimated ? el("span", { class: "estimated-tag", text: "~" }) : null),
    el("td", {}, el("div", { class: "cards" }, d.cards.map(c => cardEl(c.card, {
      classes: `${c.paranoid_optimal ? "best-g" : ""} ${c.maxn_best ? "best-m" : ""} ${c.maxn_choice ? "choice" : ""}`,
      values: el("div", { class: "values" },
        el("span", { class: `g ${c.paranoid_optimal ? "best" : ""}`, text: `g ${points(c.paranoid, false)}` }),
        el("span", { class: `m ${c.maxn_best ? "best" : ""} ${d.estimated ? "estimated" : ""}`, text: `m ${points(c.maxn[d.seat], d.estimated)}` })),
    })))),
    el("td", { text: d.disagree ? `modes part: -${d.paranoid_cost}` : "" })));
  // the main line, each estimated card marked ~
  const line = result.decisions.map(d => [chipEl(d.played), d.estimated ? el("span", { class: "estimated-tag", text: "~" }) : null, " "]);
  $("analysis").replaceChildren(el("h2", { id: "main-line" }, "Main line: ", ...line),
    el("p", { class: "dim", text: result.main_line }),
    el("div", { class: "table-scroll" }, el("table", { class: "results" }, el("tr", {}, ...["#", "seat", "plays", "every card: g guaranteed, m max^n own", ""]
      .map(h => el("th", { text: h }))), ...rows)),
    el("p", { class: "dim", text: `${result.exact ? "exact" : result.estimated.length ? `estimated (~): cards ${rangesText(result.estimated)}, beyond exact reach in the time` : "not exact: the time ran out"}${result.complete ? "" : "; stopped before the end of the hand"}, ${result.nodes.toLocaleString()} nodes, ${result.seconds.toFixed(2)} s` }));
}

$("position-load").onclick = () => loadPosition($("position-text").value);
$("position-text").addEventListener("keydown", e => { if (e.key === "Enter") loadPosition($("position-text").value); });
$("setup-leader").onchange = setupChanged;
SEATS.forEach(s => { $(`taken-${s}`).onchange = setupChanged; });
$("setup-clear").onclick = () => { setupPicker.set({}); setupChanged(); };
$("setup-deal").onclick = async () => {
  try {
    const dealt = await post("/api/deal", { cards: Number($("deal-cards").value), leader: Number($("setup-leader").value) });
    await loadPosition(dealt.position);
  } catch (error) {
    refused(error, $("position-error"));
  }
};
$("solve").onclick = solveCurrent;
$("analyze").onclick = analyzeCurrent;
$("step-back").onclick = stepBack;
$("step-line").onclick = () => {
  const card = (solved.equilibrium_line || solved.line || [])[0];
  if (card) playCard(card);
};

// ===== hint ===============================================================================
const viewPicker = new Picker($("view-picker"), $("view-targets"), [
  { id: "hand", label: "Your hand", badge: "H" }, { id: "played", label: "Played, in order", badge: "#", sequence: true },
], { exclusive: false, onchange: viewChanged });

function viewText() {
  const seat = Number($("view-seat").value);
  const hands = SEATS.map(s => (s === seat ? handText(viewPicker.groups.hand) : "?"));
  const played = viewPicker.groups.played;
  return `${hands.join(" ")} ${$("view-leader").value} -${played.length ? " | " + played.join(" ") : ""}`;
}

function viewChanged() {
  $("view-text").value = viewText();
  loadView($("view-text").value, { quiet: true });
}

async function loadView(text, { quiet = false } = {}) {
  const current = ticket("view");
  dropSearch($("hint-status"));
  try {
    const read = await post("/api/view", { view: text });
    if (!current()) return null;
    showError($("view-error"), null, $("view-text"));
    const known = SEATS.filter(s => read.start[s] !== null);
    if (read.view && known.length === 1) {
      const seat = known[0];
      $("view-seat").value = seat;
      viewPicker.set({ hand: read.start[seat], played: read.moves });
    }
    $("view-leader").value = read.leader;
    drawView(read);
    if (shownTab() === "hint") remember(false);
    return read;
  } catch (error) {
    if (!current()) return null;
    refused(error, $("view-error"), $("view-text"));
    if (!quiet) $("view-board").replaceChildren();
    return null;
  }
}

function drawView(read, hint) {
  const ranks = hint ? new Map(hint.cards.map((entry, i) => [entry.card, { ...entry, rank: i + 1 }])) : null;
  const top = hint && hint.cards.length ? hint.cards[0].mean : null;
  const tricks = read.tricks.length;
  drawTable($("view-board"), {
    table: { ...read.table, note: read.table.cards.length ? "" : `seat ${read.table.leader} leads` },
    seats: SEATS.map(s => ({
      name: read.hands[s] ? `Seat ${s} (you)` : `Seat ${s}`,
      cards: read.hands[s] ? [...read.hands[s]].sort(byDisplay) : null, count: read.sizes[s],
      toMove: s === read.to_move,
      info: [`taken ${read.taken_now[s]}`],
      cardOptions: ranks ? card => {
        const entry = ranks.get(card);
        return entry ? {
          classes: entry.tied ? "best-g" : "",
          values: el("div", { class: "values" }, el("span", { class: entry.tied ? "best" : "", text: `${entry.mean.toFixed(2)}` }),
            el("span", { text: stderrText(entry) })),
        } : {};
      } : null,
    })),
    summary: `${tricks} trick${tricks === 1 ? "" : "s"} played; ${read.moves.length} card${read.moves.length === 1 ? "" : "s"} since the start of the view`,
  });
}

async function hintView() {
  showError($("hint-error"), null);
  const read = await loadView($("view-text").value);
  if (!read) return;
  let result;
  try {
    result = await search("/api/hint", {
      view: $("view-text").value, samples: Number($("hint-samples").value) || null,
      time_limit: Number($("hint-time").value) || null, mode: $("hint-mode").value, sampler: $("hint-sampler").value,
      opponents: $("hint-opponents").value, policy_weight: Number($("hint-policy-weight").value),
    }, $("hint-status"));
  } catch (error) {
    refused(error, $("hint-error"));
    return;
  }
  if (!result) return;
  drawView(read, result);
  $("hint-result").replaceChildren(hintTable(result));
}

// a standard error needs two deals or more: none is shown from fewer
const stderrText = entry => (entry.stderr === null ? "±–" : `±${entry.stderr.toFixed(2)}`);

function hintTable(result) {
  const top = Math.max(...result.cards.map(c => c.mean), 1);
  const what = result.mode === "maxn" ? "own points, everyone for themselves" : "guaranteed points";
  return el("div", { class: "hint-list" },
    el("table", { class: "results", id: "hint-table" },
      el("tr", {}, ...["", "card", "mean", "± stderr", "best in", "behind", "deals", ""].map(h => el("th", { text: h }))),
      ...result.cards.map((entry, i) => el("tr", { "data-card": entry.card, class: entry.tied ? "tied" : "" },
        el("td", { class: "num", text: i + 1 }), el("td", {}, chipEl(entry.card)),
        el("td", { class: "num mean", text: entry.mean.toFixed(2) }),
        el("td", { class: "num", text: stderrText(entry).slice(1) }),
        el("td", { class: "num", text: `${Math.round(entry.best_rate * 100)}%` }),
        el("td", { class: "num", text: i === 0 ? "best" : `${entry.behind.toFixed(2)}${entry.tied ? " tied" : ""}` }),
        el("td", { class: "num", text: entry.samples }),
        el("td", {}, el("span", { class: "bar", style: `width:${Math.round(120 * entry.mean / top)}px` }))))),
    el("p", { class: "dim", text: `Seat ${result.seat} to move. mean: ${what} from here on, over ${result.samples} sampled deals (${result.exact_samples} solved exactly, ${result.sampler} sampling${result.policy_weight ? `; each deal's value ${Number((1 - result.policy_weight).toFixed(3))} of itself, ${result.policy_weight} the self-play policy's value of the card` : ""}); best in: the share of deals where the card was best; behind: the best card's lead, deal by deal (tied: within the noise); a card clearly behind stops being valued (fewer deals). ${result.seconds.toFixed(2)} s` }),
    ...(result.beliefs.length ? [el("p", { class: "dim", id: "hint-beliefs", text: `Belief: ${result.beliefs.map(beliefText).join("; ")}.` })] : []));
}

// what a seat's cards so far say of how it plays (analysis.opponents)
function beliefText(belief) {
  const share = `${Math.round(belief.posterior[belief.likeliest] * 100)}%`;
  if (!belief.plays) return `seat ${belief.seat}: no card seen yet, ${belief.likeliest} (${share}) by the prior`;
  return `seat ${belief.seat} plays like ${belief.likeliest} (${share}, ${belief.plays} card${belief.plays > 1 ? "s" : ""} seen)`;
}

$("view-load").onclick = () => loadView($("view-text").value);
$("view-text").addEventListener("keydown", e => { if (e.key === "Enter") loadView($("view-text").value); });
$("view-seat").onchange = viewChanged;
$("view-leader").onchange = viewChanged;
$("view-clear").onclick = () => { viewPicker.set({}); viewChanged(); };
$("hint").onclick = hintView;

// ===== play ===============================================================================
let game = null;
let gameFollowed = null;  // the timer that asks for the game again while the bots play
const FOLLOW_MS = 500;
const BOTS_PLAYING = "The bots are playing...";

async function newGame() {
  showError($("play-error"), null);
  const match = document.querySelector("input[name=play-kind]:checked").value === "match";
  const fields = {
    seat: Number($("play-seat").value), bots: [$("play-left").value, $("play-right").value],
    seed: $("play-seed").value === "" ? null : Number($("play-seed").value),
  };
  if (match) fields.target = Number($("play-target").value);
  else fields.cards = Number($("play-cards").value);
  $("play-new").disabled = true;
  try {
    drawGame(await post("/api/play", fields));
  } catch (error) {
    refused(error, $("play-error"));
  } finally {
    $("play-new").disabled = false;
  }
}

async function playMyCard(card) {
  showError($("play-error"), null);
  $("play-hint-result").replaceChildren();
  for (const button of $("play-board").querySelectorAll("button.card")) button.disabled = true;
  $("play-message").textContent = BOTS_PLAYING;
  try {
    drawGame(await post("/api/play/move", { game: game.game, card }));
  } catch (error) {
    refused(error, $("play-error"));
    drawGame(game);  // the hand as it was, its cards clickable again
  }
}

const GAME_KEY = "coins.game";  // the game in progress: a reload of the page goes on with it

// The game this browser was playing, as the server has it now (none: it has gone).
async function resumeGame() {
  const id = localStorage.getItem(GAME_KEY);
  if (!id) return;
  try {
    drawGame(await get(`/api/play/${encodeURIComponent(id)}`));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    localStorage.removeItem(GAME_KEY);  // the server ended it or restarted
  }
}

function drawGame(state) {
  game = state;
  localStorage.setItem(GAME_KEY, state.game);
  const me = state.seat;
  const inTrick = state.trick.length;
  const last = state.last_trick;
  let table;
  if (inTrick || !last) {
    const leader = inTrick ? state.trick[0].seat : me;
    table = { leader, cards: state.trick.map(p => p.card), note: inTrick ? "" : "" };
  } else {
    table = { leader: last.cards[0].seat, cards: last.cards.map(p => p.card), winner: last.winner,
      note: `${state.names[last.winner]} won the trick, ${last.points} Coin${last.points === 1 ? "" : "s"}` };
  }
  drawTable($("play-board"), {
    table,
    seats: SEATS.map(s => ({
      name: s === me ? `Seat ${s} (you)` : state.names[s].replace(/^seat (\d)/, "Seat $1"),
      cards: s === me ? state.hand : null, count: state.held[s],
      toMove: s === me && state.your_turn,
      info: [`${state.target ? `match ${state.scores[s]} of ${state.target}` : ""}`, `this hand ${state.hand_points[s]}`].filter(Boolean),
      cardOptions: s === me ? card => ({ onclick: state.your_turn ? () => playMyCard(card) : null }) : null,
    })),
    summary: state.target ? `Hand ${state.hand_number}, a match to ${state.target} points` : `One hand of ${state.cards} cards`,
  });
  if (state.your_turn) { /* make the hand's buttons clickable */ } else {
    for (const button of $("play-board").querySelectorAll("button.card")) button.disabled = true;
  }
  $("play-hint").disabled = !state.your_turn;
  // the server answers as the solver starts compiling for the bots (a first run): say so
  let message = state.your_turn ? "Your turn: click a card."
    : state.notice ? `The bots wait: ${state.notice}...` : BOTS_PLAYING;
  if (state.over) {
    message = state.error ? state.error
      : state.winner !== null ? `${state.winner === me ? "You win" : `${state.names[state.winner]} wins`} the match, ${state.scores.join("-")}.`
        : `The hand is over: ${state.hand_points.join("-")} (seats 0-1-2).`;
  }
  $("play-message").textContent = message;
  const tricks = [];
  for (let i = 2; i < state.played.length; i += 3) tricks.push(state.played.slice(i - 2, i + 1));
  $("play-log").replaceChildren(...tricks.map((trick, i) => {
    const end = trick[2];
    return el("p", {}, `Trick ${i + 1}: `, ...trick.map(p => [`${p.seat === me ? "you" : `seat ${p.seat}`} `, chipEl(p.card), " "]),
      `- ${end.winner === me ? "you win" : `${state.names[end.winner]} wins`} it, ${end.points} Coin${end.points === 1 ? "" : "s"}`);
  }).reverse());
  $("play-hands").replaceChildren(...state.hands.map(h => el("li", {},
    `Hand ${h.number}: ${h.points.join("-")} `,
    el("button", { type: "button", class: "review-hand", text: "Review", onclick: () => reviewRecord(h.record, me) }))));
  followGame(state);
}

// While the bots play (or the solver compiles for them), ask for the game again until it is
// the user's turn or the game is over; a game the page left is no longer followed.
function followGame(state) {
  clearTimeout(gameFollowed);
  if (state.your_turn || state.over) return;
  gameFollowed = setTimeout(async () => {
    try {
      const now = await get(`/api/play/${encodeURIComponent(state.game)}`);
      if (game && game.game === state.game) drawGame(now);
    } catch (error) {
      refused(error, $("play-error"));
    }
  }, FOLLOW_MS);
}

async function playHint() {
  $("play-hint").disabled = true;
  try {
    const result = await post("/api/hint", { view: game.view, time_limit: 2 });
    $("play-hint-result").replaceChildren(hintTable(result));
  } catch (error) {
    refused(error, $("play-error"));
  } finally {
    $("play-hint").disabled = !game.your_turn;
  }
}

$("play-new").onclick = newGame;
$("play-hint").onclick = playHint;

// ===== review =============================================================================
// A review comes in card by card, from the last card backward (the job's partial results,
// polled); the rows, the graph and the replay are drawn from what has come so far.
const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };  // as coins review prints them
let reviewShown = null;  // the review on the page: {read, seat, settings, moves: Map(number → move), result, step}

function reviewRecord(record, seat) {
  $("review-text").value = record;
  $("review-seat").value = seat === undefined || seat === null ? "" : String(seat);
  showTab("review", { remembered: true });  // the review's own entry follows
  reviewCurrent();
}

// A review's settings, each as text ("" where empty): the record and REVIEW_FIELDS' values.
function reviewSettings(record, value) {
  return { record, ...Object.fromEntries(Object.keys(REVIEW_FIELDS).map(name => [name, value(name) || ""])) };
}

const sameSettings = (a, b) => JSON.stringify(a) === JSON.stringify(b);

function fillReviewForm(review) {
  $("review-text").value = review.record;
  for (const [name, id] of Object.entries(REVIEW_FIELDS)) {
    $(id).value = review[name];
    if ($(id).selectedIndex === -1) $(id).value = "";  // a seat the select has not: none
  }
}

// Review the record of the form with its settings, as the Review button does; `remembered`:
// the address shows it already (a link, Back or Forward), so this history entry is updated.
async function reviewCurrent({ remembered = false } = {}) {
  showError($("review-error"), null, $("review-text"));
  const settings = reviewSettings($("review-text").value.trim(), name => $(REVIEW_FIELDS[name]).value.trim());
  const { record } = settings;
  const seat = settings.seat === "" ? null : Number(settings.seat);
  const state = { read: null, seat, settings, moves: new Map(), result: null, step: 0 };
  reviewShown = state;
  $("review-result").replaceChildren();
  if (shownTab() === "review") remember(!remembered);
  try {
    state.read = await post("/api/view", { view: record });
  } catch (error) {
    if (reviewShown === state) refused(error, $("review-error"), $("review-text"));
    return;
  }
  if (reviewShown !== state) return;
  const add = moves => {
    if (reviewShown !== state || moves.length === state.moves.size) return;
    for (const move of moves) state.moves.set(move.number, move);
    drawReview(state);
  };
  if (!state.read.view) drawReview(state);
  let result;
  try {
    result = await search("/api/review", {
      record, seat, samples: Number(settings.samples) || null, time_limit: Number(settings.time_limit) || null,
    }, $("review-status"), job => add(job.partial));
  } catch (error) {
    $("review-result").replaceChildren();  // no rows waiting for a review that was refused
    refused(error, $("review-error"), $("review-text"));
    return;
  }
  if (!result || reviewShown !== state) return;
  state.result = result;
  for (const move of result.moves) state.moves.set(move.number, move);
  drawReview(state);
}

// "1-3, 7": move numbers as ranges
function rangesText(numbers) {
  const parts = [];
  for (const n of numbers) {
    const last = parts[parts.length - 1];
    if (last && last[1] === n - 1) last[1] = n; else parts.push([n, n]);
  }
  return parts.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(", ");
}

const plural = (count, word) => `${count} ${word}${count === 1 ? "" : "s"}`;
const costText = (cost, estimated) => (estimated ? `~${cost.toFixed(2)}` : `${cost}`);

function markEl(label) {
  return label ? el("span", { class: `mark ${label}`, "data-label": label, text: MARKS[label], title: label }) : null;
}

function drawReview(state) {
  const { read, result } = state;
  const known = state.seat !== null;
  const seatOf = i => read.seats[read.trick.length + i];
  const chips = cards => el("span", {}, ...cards.map(chipEl));
  const graph = (position, mode) => el("a", {
    href: `/graph.svg?${new URLSearchParams({ position, mode, depth: 1 })}`, target: "_blank", text: mode,
  });
  // the modes part where no card is best in both: playing for points then costs against a pair
  const parts = m => m.paranoid && !m.maxn.best.some(card => m.paranoid.optimal.includes(card));
  const knewText = k => (k ? `${k.cost.toFixed(2)}${k.stderr === null ? "" : `±${k.stderr.toFixed(2)}`}${k.tied ? " tie" : ""}` : "");
  const columns = ["#", "seat", "card", "m cost", "m best", "g cost", ...(known ? [`knew (seat ${state.seat})`] : []),
    "taken", "trick won by", "", "decision graph"];
  const rows = read.moves.map((card, i) => {
    const m = state.moves.get(i + 1);
    const cells = m ? [
      // a loss only where the card is not among the best (an estimate within half a point is)
      el("td", { class: `num maxn-cost ${m.maxn.best.includes(m.card) ? "" : "cost"}`, text: costText(m.maxn.cost, m.estimated) }),
      el("td", {}, chips(m.maxn.best)),
      el("td", { class: `num paranoid-cost ${m.paranoid && m.paranoid.cost ? "cost" : ""}`, text: m.paranoid ? m.paranoid.cost : "-" }),
      ...(known ? [el("td", { class: `num knew-cost ${m.known && m.known.label ? "cost" : ""}`, text: knewText(m.known) })] : []),
      el("td", { text: m.taken.join(",") }),
      el("td", { text: m.trick_winner !== null ? `seat ${m.trick_winner} +${m.trick_points}` : "" }),
      el("td", { text: parts(m) ? "modes part" : "" }),
      el("td", {}, m.estimated ? "" : [graph(m.position, "paranoid"), " ", graph(m.position, "maxn")]),
    ] : [el("td", { class: "dim waiting", colspan: columns.length - 3, text: result ? "not reviewed" : "…" })];
    return el("tr", {
      "data-move": i + 1, class: `${m ? "reviewed" : "missing"} ${m && parts(m) ? "parts" : ""} ${state.step === i ? "current" : ""}`,
      onclick: event => {
        if (event.target.closest("a")) return;  // a decision graph's link
        replayTo(state, i);
        $("replay-board").scrollIntoView({ block: "nearest" });
      },
    }, el("td", { class: "num", text: i + 1 }), el("td", { class: "num", text: seatOf(i) }),
    el("td", { class: "played" }, chipEl(card), m && m.estimated ? el("span", { class: "estimated-tag", text: "~" }) : null, markEl(m && m.label)),
    ...cells);
  });
  const summary = result ? el("table", { class: "results", id: "review-summary" },
    el("tr", {}, ...["seat", "cards", "accuracy", ...Object.values(MARKS).reverse(), "m lost", "g lost (proven)",
      ...(known ? ["knew lost"] : [])].map(h => el("th", { text: h }))),
    ...result.summary.map(s => el("tr", { "data-seat": s.seat },
      el("td", { class: "num", text: s.seat }), el("td", { class: "num", text: s.moves }),
      el("td", { class: "num accuracy", text: s.accuracy === null ? "-" : `${Math.round(s.accuracy)}%` }),
      ...Object.keys(MARKS).reverse().map(label => el("td", { class: "num", "data-label": label, text: s.labels[label] })),
      el("td", { class: "num", text: costText(s.maxn_lost, s.estimated > 0) }),
      el("td", { class: "num", text: s.paranoid_lost }),
      ...(known ? [el("td", { class: "num", text: s.seat === state.seat ? s.known_lost.toFixed(2) : "" })] : [])))) : null;
  $("review-result").replaceChildren(
    el("p", { id: "review-footer", class: `footer ${result ? "" : "dim"}`, text: reviewFooter(state) }),
    summary,
    el("div", { class: "review-views" },
      el("div", { class: "graph-box" }, el("h2", { text: "Expected points over the hand" }), evaluationGraph(state)),
      el("div", { class: "replay" }, el("h2", { text: "Replay" }), replayControls(state),
        el("div", { id: "replay-board", class: "board" }))),
    el("div", { class: "table-scroll" }, el("table", { class: "results", id: "review-table" },
      el("tr", {}, ...columns.map(h => el("th", { text: h }))), ...rows)),
    el("p", { class: "dim", text: "cost: what the card lost its player against its best card, in points from that decision on. "
      + "m: own points, everyone for themselves (max^n); g: guaranteed points, the other two against it (paranoid), "
      + `where proven; ~: estimated (no g there); best: within ${NEAR_TIE} points for an estimate. `
      + (known ? `knew: seat ${state.seat}'s cost on the deals it could not rule out (a hint from its view at the time), ± its standard error. ` : "")
      + (result ? `Marks: ${Object.entries(MARKS).reverse().map(([label, mark]) => `${mark} ${label} from ${result.labels[label]}`).join(", ")} points`
        + (known ? `, by what it knew for seat ${state.seat}, else by the m cost` : ", by the m cost")
        + "; accuracy: the share of a seat's choices that earned no mark. " : "")
      + "Highlighted: the modes part (no card is best in both)." }));
  drawReplay(state);
}

function reviewFooter(state) {
  const { result, read } = state;
  const cards = read.moves.length;
  if (!result) return `Reviewing: ${state.moves.size} of ${plural(cards, "card")} done, from the last card backward...`;
  const missing = result.missing.length;
  const where = missing ? ` (moves ${rangesText(result.missing)})` : "";
  let what;
  if (result.interrupted) {
    what = `Cancelled: ${result.moves.length} of ${plural(cards, "card")} reviewed, ${missing} not reviewed${where}.`;
  } else if (missing) {
    what = `Stopped by the time limit: ${plural(missing, "card")} not reviewed${where}; the review works from the last card backward.`;
  } else {
    what = `Finished: all ${plural(cards, "card")} reviewed.`;
  }
  const estimated = result.moves.filter(m => m.estimated).map(m => m.number);
  what += estimated.length ? ` Estimated (~): moves ${rangesText(estimated)}, beyond what the exact search finished in the time.`
    : result.moves.length ? " Every cost is exact." : "";
  return `${what} ${result.nodes.toLocaleString()} nodes, ${result.seconds.toFixed(2)} s.`;
}

// ----- the replay: the hand card by card, every hand open, each card's values then -------
// The position before card `step` + 1 (step = the number of cards played; all of them: the end).
function replayPosition(read, step) {
  const onTable = [...read.trick, ...read.moves];
  const played = read.trick.length + step;
  const done = Math.floor(played / 3);
  const hands = read.start.map(hand => [...hand]);
  read.moves.slice(0, step).forEach((card, i) => {
    const hand = hands[read.seats[read.trick.length + i]];
    hand.splice(hand.indexOf(card), 1);
  });
  const taken = [...read.taken];
  for (const trick of read.tricks.slice(0, done)) taken[trick.winner] += trick.cards.filter(c => c.endsWith("O")).length;
  const last = read.tricks[done - 1];
  let table;
  if (played % 3 === 0 && last && step > 0) {  // the trick just taken stays in view
    const won = last.cards.filter(c => c.endsWith("O")).length;
    table = { leader: last.leader, cards: last.cards, winner: last.winner, note: `seat ${last.winner} won the trick, +${won}` };
  } else {
    table = { leader: last ? last.winner : read.leader, cards: onTable.slice(done * 3, played), note: "" };
  }
  const over = step === read.moves.length;
  return { hands, taken, table, toMove: over ? null : read.seats[read.trick.length + step] };
}

function replayControls(state) {
  const n = state.read.moves.length;
  const button = (id, text, title, to) => el("button", { type: "button", id, text, title, "aria-label": title,
    disabled: to() < 0 || to() > n || to() === state.step, onclick: () => replayTo(state, to()) });
  return el("div", { class: "row replay-controls" },
    button("replay-first", "|◀", "the start (Home)", () => 0),
    button("replay-prev", "◀", "the card before (Left arrow)", () => state.step - 1),
    button("replay-next", "▶", "the next card (Right arrow)", () => state.step + 1),
    button("replay-last", "▶|", "the end (End)", () => n),
    el("span", { id: "replay-note", class: "message", text: replayNote(state) }));
}

function replayNote(state) {
  const n = state.read.moves.length;
  if (state.step === n) return `The end: all ${n} cards played.`;
  const m = state.moves.get(state.step + 1);
  const card = state.read.moves[state.step];
  const what = m ? `m cost ${costText(m.maxn.cost, m.estimated)}${m.paranoid ? `, g cost ${m.paranoid.cost}` : ""}${m.label ? ` ${MARKS[m.label]}` : ""}`
    : "not reviewed";
  return `Card ${state.step + 1} of ${n}: seat ${state.read.seats[state.read.trick.length + state.step]} plays ${card} (${what}).`;
}

function replayTo(state, step) {
  if (step < 0 || step > state.read.moves.length || state !== reviewShown) return;
  state.step = step;
  drawReview(state);
}

function drawReplay(state) {
  const { read } = state;
  const at = replayPosition(read, state.step);
  const m = state.moves.get(state.step + 1);
  const values = m ? moveValues(m) : new Map();
  const best = m ? bestCards(values, m.seat) : { g: new Set(), m: new Set() };
  const card = read.moves[state.step];
  drawTable($("replay-board"), {
    table: { ...at.table, note: at.table.note || (at.toMove === null ? "the hand is over" : `seat ${at.table.leader} leads`) },
    seats: SEATS.map(s => ({
      name: `Seat ${s}${s === state.seat ? " (reviewed)" : ""}`, cards: at.hands[s].sort(byDisplay), toMove: s === at.toMove,
      info: [`taken ${at.taken[s]}`, m ? `expects ${points(m.expected[s], m.estimated)}` : null].filter(Boolean),
      cardOptions: s === at.toMove ? c => ({
        values: valueLines(c, values, best, s),
        details: valueDetails(c, values),
        classes: `${best.g.has(c) ? "best-g" : ""} ${best.m.has(c) ? "best-m" : ""} ${c === card ? "choice" : ""}`,
      }) : null,
    })),
    summary: m ? `${m.estimated ? "estimated (~)" : "exact"} values: g guaranteed, m own points (max^n); the raised card is the one played`
      : at.toMove === null ? "" : "this card was not reviewed",
  });
}

// ----- the evaluation graph: each seat's expected points for the hand, card by card --------
const SEAT_COLOURS = ["#1565c0", "#d84315", "#6a1b9a"];

function evaluationGraph(state) {
  const { read, moves } = state;
  const n = read.moves.length;
  const [width, height, left, right, top, bottom] = [640, 220, 30, 12, 14, 24];
  const reviewed = [...moves.values()].sort((a, b) => a.number - b.number);
  const last = moves.get(n);
  const high = Math.max(4, ...reviewed.flatMap(m => m.expected), ...(last ? last.taken : []));
  const x = number => left + (number - 1) / Math.max(n, 1) * (width - left - right);
  const y = value => top + (1 - value / high) * (height - top - bottom);
  const f = v => v.toFixed(1);
  const grid = [0, Math.round(high / 2), Math.floor(high)].map(v => [
    svgEl("line", { x1: left, x2: width - right, y1: f(y(v)), y2: f(y(v)), class: "grid" }),
    svgEl("text", { x: left - 6, y: f(y(v) + 4), "text-anchor": "end", text: v })]);
  const tricks = Array.from({ length: Math.floor((read.trick.length + n) / 3) }, (_, k) => 3 * (k + 1) - read.trick.length)
    .filter(after => after > 0 && after < n)
    .map(after => svgEl("line", { x1: f(x(after + 0.5)), x2: f(x(after + 0.5)), y1: top, y2: height - bottom, class: "trick" }));
  const estimated = reviewed.filter(m => m.estimated);
  const shade = estimated.length ? svgEl("rect", {
    x: f(x(estimated[0].number)), y: top, height: height - top - bottom, class: "estimated-area",
    width: f(x(estimated[estimated.length - 1].number) - x(estimated[0].number)),
  }, svgEl("title", { text: "estimated (~)" })) : null;
  // the score after the last card closes each line at n + 1
  const line = s => [...reviewed.map(m => [x(m.number), y(m.expected[s])]), ...(last ? [[x(n + 1), y(last.taken[s])]] : [])];
  const lines = SEATS.map(s => svgEl("polyline", {
    points: line(s).map(p => p.map(f).join(",")).join(" "), class: "seat-line", stroke: SEAT_COLOURS[s], "data-seat": s,
  }));
  const marked = reviewed.filter(m => m.label && (state.seat === null || m.seat === state.seat));
  const marks = marked.map(m => svgEl("text", {
    x: f(x(m.number)), y: f(y(m.expected[m.seat]) - 7), "text-anchor": "middle", class: `mark ${m.label}`,
    "data-move": m.number, text: MARKS[m.label], onclick: () => replayTo(state, m.number - 1),
  }, svgEl("title", { text: `card ${m.number}: seat ${m.seat} plays ${m.card}, a ${m.label}` })));
  const dots = reviewed.map(m => svgEl("circle", {
    cx: f(x(m.number)), cy: f(y(m.expected[m.seat])), r: 2.5, fill: SEAT_COLOURS[m.seat],
  }));
  // a column per card, the whole height: a click (or tap) anywhere in it replays that card
  const step = (width - left - right) / Math.max(n, 1);
  const columns = Array.from({ length: n + 1 }, (_, i) => svgEl("rect", {
    x: f(x(i + 1) - step / 2), y: 0, width: f(step), height, class: `hit ${i === state.step ? "current" : ""}`,
    "data-step": i, onclick: () => replayTo(state, i),
  }, svgEl("title", { text: i === n ? "the end" : `card ${i + 1}: ${read.moves[i]}` })));
  const graph = svgEl("svg", { viewBox: `0 0 ${width} ${height}`, id: "review-graph", role: "img",
    "aria-label": "each seat's expected points for the hand, card by card" },
  shade, grid, tricks, columns, lines, dots, marks,
  svgEl("text", { x: left, y: height - 6, text: "card 1" }),
  svgEl("text", { x: width - right, y: height - 6, "text-anchor": "end", text: "end" }));
  const legend = el("p", { class: "dim graph-legend" }, ...SEATS.map(s => el("span", { class: "swatch-item" },
    el("span", { class: "swatch", style: `background:${SEAT_COLOURS[s]}` }), `seat ${s}`)), el("br"),
  `Each seat's points for the hand before each card: taken + the best card's max^n result${estimated.length ? "; shaded: estimated (~)" : ""}; `
    + `${state.seat === null ? "marks" : `seat ${state.seat}'s marks`} on the mover's line. Click a card's column to replay it.`);
  return [graph, legend];
}

$("review").onclick = () => reviewCurrent();
document.addEventListener("keydown", event => {
  if ($("tab-review").hidden || !reviewShown || !reviewShown.read || reviewShown.read.view) return;
  if (event.target.closest("input, textarea, select") || event.altKey || event.ctrlKey || event.metaKey) return;
  const to = { ArrowLeft: reviewShown.step - 1, ArrowRight: reviewShown.step + 1, Home: 0, End: reviewShown.read.moves.length }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  replayTo(reviewShown, to);
});

// ----- start: what the address shows, else a six-card ending from the README ------------------
(async () => {
  const addressed = stateOf(location.hash);
  viewChanged();
  await resumeGame();
  if (!addressed || addressed.tab !== "position" || !addressed.text) {
    await loadPosition("J9.J4..52 .K75.6.N8 A753.8.5. 0 -", { remembered: true });
  }
  if (addressed) await recall(window.history.state || addressed);
  remember(false);
})();
