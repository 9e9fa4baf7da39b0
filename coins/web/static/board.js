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

function suitIcon(suit, className) {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("aria-hidden", "true");
  const use = document.createElementNS("http://www.w3.org/2000/svg", "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

// A card drawn: rank, suit letter and picture; `values` lines below; `onclick` makes it a button.
function cardEl(card, { onclick, values, classes = "", title } = {}) {
  const suit = card[card.length - 1];
  const rank = card.slice(0, -1);
  const node = el(onclick ? "button" : "div", {
    class: `card suit-${suit} ${classes}`, "data-card": card, onclick, type: onclick ? "button" : null,
    title: title || `${rank} of ${SUIT_NAMES[SUITS.indexOf(suit)]}`,
  }, el("span", { class: "rank", text: rank }), el("span", { class: "letter", text: suit }),
  suitIcon(suit, "pip"));
  if (values) node.append(values);
  return node;
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

async function post(path, fields) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fields),
  });
  const body = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new ApiError(body.error || "request failed", body.field, response.status);
  return body;
}

// A search with its status line: seconds, what it is proving, and a Cancel button.
async function search(path, fields, statusBox) {
  const job = Math.random().toString(36).slice(2) + Date.now().toString(36);
  const text = statusBox.querySelector(".status-text");
  const cancel = statusBox.querySelector(".cancel");
  const started = performance.now();
  const limit = fields.time_limit ? ` of at most ${fields.time_limit} s` : "";
  text.textContent = `${path.split("/").pop()}: starting...`;
  statusBox.hidden = false;
  cancel.disabled = false;
  cancel.onclick = () => { cancel.disabled = true; post(`/api/jobs/${job}/cancel`, {}); };
  const poll = setInterval(async () => {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    try {
      const state = await (await fetch(`/api/jobs/${job}`)).json();
      if (!state.done) text.textContent = `${seconds} s${limit}: ${state.progress}`;
    } catch (error) { /* the answer is on its way */ }
  }, 400);
  try {
    return await post(path, { ...fields, job });
  } finally {
    clearInterval(poll);
    statusBox.hidden = true;
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
    el("div", { class: `cards ${!seat.cards ? "fan" : seat.cards.length > 11 ? "long" : ""}` },
      seat.cards ? seat.cards.map(card => cardEl(card, seat.cardOptions ? seat.cardOptions(card) : {}))
        : Array.from({ length: seat.count }, cardBack))));
  box.replaceChildren(middle, ...rows, summary ? el("div", { class: "summary", text: summary }) : "");
}

// ----- tabs -------------------------------------------------------------------------------
function showTab(name) {
  for (const button of document.querySelectorAll("nav button")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  for (const section of document.querySelectorAll("section.tab")) section.hidden = section.id !== `tab-${name}`;
}
for (const button of document.querySelectorAll("nav button")) button.onclick = () => showTab(button.dataset.tab);

const $ = id => document.getElementById(id);

// ===== set-up and analysis ================================================================
const setupPicker = new Picker($("setup-picker"), $("setup-targets"), [
  { id: "0", label: "Seat 0", badge: "0" }, { id: "1", label: "Seat 1", badge: "1" },
  { id: "2", label: "Seat 2", badge: "2" }, { id: "trick", label: "Trick", badge: "T", sequence: true },
], { exclusive: true, onchange: setupChanged });

let history = [];      // positions stepped through, the current one last
let solved = null;     // the solve JSON of the current position

function setupText() {
  const hands = SEATS.map(s => setupPicker.groups[String(s)]);
  const taken = SEATS.map(s => Number($(`taken-${s}`).value) || 0);
  return positionText(hands, Number($("setup-leader").value), setupPicker.groups.trick, taken);
}

function setupChanged() {
  $("position-text").value = setupText();
  history = [];
  loadPosition($("position-text").value, { quiet: true });
}

// Read a position (server-checked) into the picker and draw it; errors go beside the field.
async function loadPosition(text, { quiet = false, keepHistory = false } = {}) {
  try {
    const read = await post("/api/position", { position: text });
    showError($("position-error"), null, $("position-text"));
    setupPicker.set({ 0: read.start[0], 1: read.start[1], 2: read.start[2], trick: read.trick });
    $("setup-leader").value = read.leader;
    SEATS.forEach(s => { $(`taken-${s}`).value = read.taken[s]; });
    $("position-text").value = read.text;
    if (!keepHistory) history = [read.text];
    solved = null;
    drawPosition(read);
    return read;
  } catch (error) {
    refused(error, $("position-error"), $("position-text"));
    if (!quiet) $("board").replaceChildren();
    return null;
  }
}

const points = (value, estimated) => (estimated ? `~${value.toFixed(1)}` : `${value}`);

function valueLines(card, values, best) {
  const v = values.get(card);
  if (!v) return null;
  const lines = el("div", { class: "values" });
  if (v.guaranteed) {
    lines.append(el("span", {
      class: `g ${best.g.has(card) ? "best" : ""} ${v.guaranteed.estimated ? "estimated" : ""}`,
      "data-guaranteed": v.guaranteed.value, text: `g ${v.guaranteed.value}`,
      title: v.guaranteed.estimated ? "estimated" : "exact",
    }));
  }
  if (v.maxn) {
    const own = v.maxn.value[solved.to_move];
    lines.append(el("span", {
      class: `m ${best.m.has(card) ? "best" : ""} ${v.maxn.estimated ? "estimated" : ""}`,
      "data-maxn": v.maxn.value.join(","), text: `m ${points(own, v.maxn.estimated)}`,
      title: `max^n: seats 0-1-2 get ${v.maxn.value.map(x => points(x, v.maxn.estimated)).join(" ")}`
        + (v.maxn.estimated ? " (estimated)" : ""),
    }));
  }
  return lines;
}

function bestCards(values, mover) {
  const g = [...values].filter(([, v]) => v.guaranteed);
  const m = [...values].filter(([, v]) => v.maxn);
  const topG = Math.max(...g.map(([, v]) => v.guaranteed.value));
  const topM = Math.max(...m.map(([, v]) => v.maxn.value[mover]));
  return {
    g: new Set(g.filter(([, v]) => v.guaranteed.value === topG).map(([c]) => c)),
    m: new Set(m.filter(([, v]) => v.maxn.value[mover] === topM).map(([c]) => c)),
  };
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
        values: valueLines(card, values, best),
        classes: `${best.g.has(card) ? "best-g" : ""} ${best.m.has(card) ? "best-m" : ""} ${card === choice ? "choice" : ""}`,
      }) : null,
    })),
    summary: solved ? `${solved.exact ? "exact" : "not exact"}, ${solved.nodes.toLocaleString()} nodes, ${solved.seconds.toFixed(2)} s`
      : "Solve to see each card's values.",
  });
  $("step-back").disabled = history.length < 2;
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
  try {
    solved = await search("/api/solve", {
      position: text, mode: $("solve-mode").value, time_limit: Number($("solve-time").value) || null,
    }, $("solve-status"));
  } catch (error) {
    // an error in the position goes beside it; any other beside the solve
    const inPosition = /^(position|hand|leader|trick|taken)/.test((error && error.field) || "");
    refused(error, $(inPosition ? "position-error" : "solve-error"), inPosition ? $("position-text") : null);
    return;
  }
  const read = await post("/api/position", { position: solved.position });
  drawPosition(read);
}

async function playCard(card) {
  const current = history[history.length - 1] || $("position-text").value;
  try {
    const read = await post("/api/view", { view: `${current} | ${card}` });
    const next = read.position;
    history.push(next);
    await loadPosition(next, { keepHistory: true });
    if (!read.over) await solveCurrent();
  } catch (error) {
    refused(error, $("solve-error"));
  }
}

async function stepBack() {
  if (history.length < 2) return;
  history.pop();
  await loadPosition(history[history.length - 1], { keepHistory: true });
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
  const rows = result.decisions.map(d => el("tr", { class: d.disagree ? "parts" : "" },
    el("td", { class: "num", text: d.number }), el("td", { class: "num", text: d.seat }),
    el("td", {}, chipEl(d.played)),
    el("td", {}, el("div", { class: "cards" }, d.cards.map(c => cardEl(c.card, {
      classes: `${c.paranoid_optimal ? "best-g" : ""} ${c.maxn_best ? "best-m" : ""} ${c.maxn_choice ? "choice" : ""}`,
      values: el("div", { class: "values" }, el("span", { class: c.paranoid_optimal ? "best" : "", text: `g ${c.paranoid}` }),
        el("span", { class: c.maxn_best ? "best" : "", text: `m ${c.maxn[d.seat]}` })),
    })))),
    el("td", { text: d.disagree ? `modes part: -${d.paranoid_cost}` : "" })));
  $("analysis").replaceChildren(el("h2", { text: `Main line: ${result.main_line}` }),
    el("table", { class: "results" }, el("tr", {}, ...["#", "seat", "plays", "every card: g guaranteed, m max^n own", ""]
      .map(h => el("th", { text: h }))), ...rows),
    el("p", { class: "dim", text: `${result.exact ? "exact" : "not exact: the time ran out"}, ${result.nodes.toLocaleString()} nodes, ${result.seconds.toFixed(2)} s` }));
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
  try {
    const read = await post("/api/view", { view: text });
    showError($("view-error"), null, $("view-text"));
    const known = SEATS.filter(s => read.start[s] !== null);
    if (read.view && known.length === 1) {
      const seat = known[0];
      $("view-seat").value = seat;
      viewPicker.set({ hand: read.start[seat], played: read.moves });
    }
    $("view-leader").value = read.leader;
    drawView(read);
    return read;
  } catch (error) {
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
    }, $("hint-status"));
  } catch (error) {
    refused(error, $("hint-error"));
    return;
  }
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
    el("p", { class: "dim", text: `Seat ${result.seat} to move. mean: ${what} from here on, over ${result.samples} sampled deals (${result.exact_samples} solved exactly, ${result.sampler} sampling); best in: the share of deals where the card was best; behind: the best card's lead, deal by deal (tied: within the noise); a card clearly behind stops being valued (fewer deals). ${result.seconds.toFixed(2)} s` }));
}

$("view-load").onclick = () => loadView($("view-text").value);
$("view-text").addEventListener("keydown", e => { if (e.key === "Enter") loadView($("view-text").value); });
$("view-seat").onchange = viewChanged;
$("view-leader").onchange = viewChanged;
$("view-clear").onclick = () => { viewPicker.set({}); viewChanged(); };
$("hint").onclick = hintView;

// ===== play ===============================================================================
let game = null;

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
  try {
    drawGame(await post("/api/play/move", { game: game.game, card }));
  } catch (error) {
    refused(error, $("play-error"));
  }
}

function drawGame(state) {
  game = state;
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
  let message = state.your_turn ? "Your turn: click a card." : "";
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
    el("button", { type: "button", class: "review-hand", text: "Review", onclick: () => reviewRecord(h.record) }))));
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
function reviewRecord(record) {
  $("review-text").value = record;
  showTab("review");
  reviewCurrent();
}

async function reviewCurrent() {
  showError($("review-error"), null, $("review-text"));
  $("review-result").replaceChildren();
  let result;
  try {
    result = await search("/api/review", {
      record: $("review-text").value, time_limit: Number($("review-time").value) || null,
    }, $("review-status"));
  } catch (error) {
    refused(error, $("review-error"), $("review-text"));
    return;
  }
  const chips = cards => el("span", {}, ...cards.map(chipEl));
  const graph = (position, mode) => el("a", {
    href: `/graph.svg?${new URLSearchParams({ position, mode, depth: 1 })}`, target: "_blank", text: mode,
  });
  // the modes part where no card is best in both: playing for points then costs against a pair
  const parts = m => !m.maxn.best.some(card => m.paranoid.optimal.includes(card));
  const rows = result.moves.map(m => el("tr", { class: parts(m) ? "parts" : "", "data-move": m.number },
  el("td", { class: "num", text: m.number }), el("td", { class: "num", text: m.seat }),
  el("td", {}, chipEl(m.card)),
  el("td", { class: `num paranoid-cost ${m.paranoid.cost ? "cost" : ""}`, text: m.paranoid.cost }), el("td", {}, chips(m.paranoid.optimal)),
  el("td", { class: `num maxn-cost ${m.maxn.cost ? "cost" : ""}`, text: m.maxn.cost }), el("td", {}, chips(m.maxn.best)),
  el("td", { text: m.taken.join(",") }),
  el("td", { text: m.trick_winner !== null ? `seat ${m.trick_winner} +${m.trick_points}` : "" }),
  el("td", { text: parts(m) ? "modes part" : "" }),
  el("td", {}, graph(m.position, "paranoid"), " ", graph(m.position, "maxn"))));
  const summary = result.summary.map(s => el("tr", {},
    el("td", { class: "num", text: s.seat }), el("td", { class: "num", text: s.moves }),
    el("td", { class: "num", text: s.paranoid_lost }), el("td", { class: "num", text: s.maxn_lost })));
  $("review-result").replaceChildren(
    el("table", { class: "results", id: "review-table" },
      el("tr", {}, ...["#", "seat", "card", "paranoid cost", "paranoid best", "max^n cost", "max^n best",
        "taken", "trick won by", "", "decision graph"].map(h => el("th", { text: h }))), ...rows),
    el("p", { class: "dim", text: "cost: what the card lost its player against its best card, in points from that decision on. paranoid: guaranteed points (the other two against it); max^n: own points (everyone for themselves). Highlighted: the modes part (no card is best in both)." }),
    el("h2", { text: "Per seat" }),
    el("table", { class: "results", id: "review-summary" },
      el("tr", {}, ...["seat", "cards", "paranoid lost", "max^n lost"].map(h => el("th", { text: h }))), ...summary),
    el("p", { class: "dim", text: `${result.exact ? "exact" : "not exact: the time ran out"}, ${result.nodes.toLocaleString()} nodes, ${result.seconds.toFixed(2)} s` }));
}

$("review").onclick = reviewCurrent;

// ----- start: a six-card ending from the README on the board --------------------------------
loadPosition("J9.J4..52 .K75.6.N8 A753.8.5. 0 -");
viewChanged();
