// smuggle serve: helpers shared by the lobby, the table and the replay viewer.
// Everything is drawn from the JSON the server sends; the page never holds more than its seat may see.
// The pages run under a strict Content-Security-Policy: no inline scripts or styles, so nodes are
// built here and styled by class (app.css); only positions are set from code (node.style.left).
"use strict";

// What pages call each game, filled from the server (each game's web plugin names it): the lobby
// from /api/envs, a table or replay from its view's game_name. Unknown ids show as themselves.
const GAME_NAMES = {};

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// replaceChildren without the nulls (it would show them as the text "null")
function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.classList.toggle("hidden", !message);
}

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

// Every POST carries a JSON body ({} when there is nothing to say): the server accepts only
// application/json, which a page of another site cannot send without asking first.
async function api(path, options = {}) {
  const method = options.method || "GET";
  const init = { method, headers: { ...(options.headers || {}) } };
  const body = options.body !== undefined ? options.body : method === "GET" ? undefined : {};
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  const response = await fetch(path, init);
  let data = null;
  try { data = await response.json(); } catch (e) { data = null; }
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || response.statusText);
  return data;
}

function fmtScore(x) {
  return Number.isInteger(x) ? x.toLocaleString("en-GB") : x.toFixed(1);
}

function sleep(ms) { return new Promise((resolve) => { setTimeout(resolve, ms); }); }

// ----- who sits where ---------------------------------------------------------------------------------
// A live table sends each seat's label and kind. A stored game (the replay viewer, the lobby's
// list) names a person "human:NAME" and numbers repeated bots "rule#2": shown as the table shows
// them, the person by name, the bot by its label.
function seatWho(label, kind) {
  if (kind) return { label, kind };
  const plain = label.replace(/#\d+$/, "");
  if (plain.startsWith("human:")) return { label: plain.slice("human:".length), kind: "human" };
  return { label: plain, kind: "agent" };
}

function playerWho(player) { return seatWho(player.label, player.kind); }

function kindWord(kind) { return kind === "human" ? "person" : "bot"; }

// ----- cards --------------------------------------------------------------------------------------------
// A card's power shows on hover (its title), and on a click, a tap or Enter in a small popover, so
// it can be read on a touch screen too.
function drawCard(card) {
  const text = `${card.name}${card.text ? ": " + card.text : ""}`;
  const node = el("div", {
    class: `card ${card.colour || ""}`, title: text, "data-name": card.name, tabindex: "0", role: "button", "aria-label": text,
  },
  el("span", { class: "corner", text: card.corner || "" }),
  el("span", { class: "big", text: card.big || "" }),
  el("span", { class: "name", text: card.name }));
  if (card.count > 1) node.append(el("span", { class: "count", text: `×${card.count}` }));
  node.addEventListener("click", (event) => { event.stopPropagation(); toggleCardInfo(node, card); });
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); toggleCardInfo(node, card); }
  });
  return node;
}

function cardInfoBox() {
  let box = document.getElementById("card-info");
  if (!box) {
    box = el("div", { id: "card-info", class: "card-info hidden", role: "dialog" });
    document.body.append(box);
    document.addEventListener("click", (event) => { if (!box.contains(event.target)) hideCardInfo(); });
    document.addEventListener("keydown", (event) => { if (event.key === "Escape") hideCardInfo(); });
  }
  return box;
}

function hideCardInfo() {
  const box = document.getElementById("card-info");
  if (box) { box.classList.add("hidden"); box.dataset.for = ""; }
}

function toggleCardInfo(anchor, card) {
  const box = cardInfoBox();
  const key = `${card.name}|${card.corner || ""}`;
  if (!box.classList.contains("hidden") && box.dataset.for === key) { hideCardInfo(); return; }
  fill(box, el("strong", { text: card.name }), card.corner ? el("span", { class: "muted", text: `  ${card.corner}` }) : null,
    el("p", { text: card.text || "no text" }), card.count > 1 ? el("p", { class: "muted", text: `${card.count} copies` }) : null);
  box.dataset.for = key;
  box.classList.remove("hidden");
  const rect = anchor.getBoundingClientRect();
  const width = box.offsetWidth;
  const left = Math.max(4, Math.min(rect.left, document.documentElement.clientWidth - width - 4));
  box.style.left = `${left + window.scrollX}px`;
  box.style.top = `${rect.bottom + window.scrollY + 4}px`;
}

function drawZones(zones) {
  return el("div", { class: "zones" }, zones.map((zone) => el("div", { class: "zone", "data-zone": zone.title },
    el("h3", {}, zone.title, zone.note ? el("span", { class: "note", text: `  ${zone.note}` }) : null),
    el("div", { class: "cards" }, zone.cards.length ? zone.cards.map(drawCard) : el("span", { class: "empty", text: "none" })))));
}

// ----- players, the log, what happened ---------------------------------------------------------------
function drawPlayers(view, me) {
  return el("div", { class: "players" }, view.players.map((p) => {
    const who = playerWho(p);
    return el("div", { class: `player${p.to_move ? " to-move" : ""}${p.seat === me ? " me" : ""}`, "data-seat": p.seat },
      el("div", {}, el("strong", { text: `P${p.seat} ${who.label}` })),
      el("div", { class: "score", text: p.score_text ?? fmtScore(p.score) }),
      el("div", { class: "kind", text: kindWord(who.kind) + (p.to_move ? " · to move" : "") + (p.seat === me ? " · you" : "") }),
      (p.badges || []).length ? el("div", { class: "badges" }, p.badges.map((b) => el("span", { class: "badge", "data-badge": b, text: b }))) : null);
  }));
}

// What a score means (CIQ's cards left, Humble smuggle's tie-break), under the player boxes.
function scoreNote(view) {
  if (!view.score_note) return null;
  return el("p", { class: "score-note", id: "score-note", text: `Scores: ${view.score_note}.` });
}

function markBadge(mark) {
  if (!mark) return null;
  const cls = mark === "true" ? "true" : mark === "false" ? "false" : mark === "caught" ? "caught" : mark.startsWith("truthful") ? "truthful" : "other";
  return el("span", { class: `mark ${cls}`, text: mark });
}

function labelsOf(view) { return view.players.map((p) => playerWho(p).label); }

function outcomesByN(view) { return new Map((view.outcomes || []).map((o) => [o.n, o.text])); }

// "money: P0 +£900, P2 −£900": each payment kept on one line
function outcomeText(text) {
  return text.split(/(P\d+ [+−]\S+)/).filter(Boolean).map((part) => (/^P\d+ [+−]/.test(part) ? el("span", { class: "nowrap", text: part }) : part));
}

function logLine(entry, labels, outcome) {
  return el("div", { "data-n": entry.n },
    el("span", { class: "muted", text: `${entry.n + 1}. ` }), `P${entry.seat} ${labels[entry.seat] || ""}: ${entry.text}`, markBadge(entry.mark),
    outcome ? el("div", { class: "outcome" }, "→ ", outcomeText(outcome)) : null);
}

function drawLog(view) {
  const labels = labelsOf(view);
  const outcomes = outcomesByN(view);
  const box = el("div", { class: "log", id: "log" }, view.log.map((entry) => logLine(entry, labels, outcomes.get(entry.n))));
  setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);
  return box;
}

// On the felt: the latest thing that came of a move (a search's verdict, money paid) up top, and
// the last few moves under the decision, so nobody has to scroll to the log or the text table.
function drawLatest(view) {
  const latest = (view.outcomes || []).length ? view.outcomes[view.outcomes.length - 1] : null;
  if (!latest) return null;
  return el("div", { class: "latest", id: "latest" }, el("span", { class: "when", text: `after move ${latest.n + 1}: ` }), outcomeText(latest.text));
}

function drawRecent(view, count = 4) {
  if (!view.log.length) return null;
  const labels = labelsOf(view);
  const outcomes = outcomesByN(view);
  return el("div", { class: "recent", id: "recent" },
    view.log.slice(-count).map((entry) => logLine(entry, labels, outcomes.get(entry.n))));
}

function resultLine(view) {
  if (!view.result) return null;
  if (view.result.truncated) return "Stopped by the game's turn limit: no winner.";
  const labels = labelsOf(view);
  const names = view.result.winners.map((s) => `P${s} ${labels[s]}`);
  return `Game over. Winner${names.length > 1 ? "s" : ""}: ${names.join(", ") || "none"}.`;
}

// ----- the side panel: rules summary and card tables, from /api/rules -----------------------
async function drawRules(container, envId) {
  const data = await api(`/api/rules/${envId}`);
  const body = el("div", {});
  const tabs = el("div", { class: "tabs" });
  const sections = [["Rules", () => el("div", {},
    el("p", { class: "muted", text: `${data.source[0].toUpperCase()}${data.source.slice(1)}; every card is in the card tabs.` }),
    data.rules.length ? el("ol", { class: "rules" }, data.rules.map((r) => el("li", {}, el("b", { text: `${r.n}. ` }), r.text))) : null)]];
  for (const table of data.tables) sections.push([table.title, () => drawTable(table)]);
  const show = (i) => {
    body.replaceChildren(sections[i][1]());
    [...tabs.children].forEach((b, j) => b.classList.toggle("on", i === j));
  };
  sections.forEach(([title], i) => tabs.append(el("button", { type: "button", onclick: () => show(i) }, title)));
  container.replaceChildren(el("h2", { text: `${GAME_NAMES[envId] || envId}: rules and cards` }), tabs, body);
  show(0);
}

// A table of up to four columns is a table; a wider one (Import / Export's 128 cards with nine
// columns) is a list of small blocks, one per row, so it fits the side panel with no sideways
// scrolling: the name in bold, the short columns on one line, the long text (the power) under it.
const LONG_COLUMNS = ["power", "what it does"];

function drawTable(table) {
  const filter = el("input", { placeholder: "filter rows", type: "search", class: "filter" });
  const wide = table.columns.length > 4;
  const body = wide ? el("div", { class: "rows" }) : el("tbody", {});
  const render = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    const rows = table.rows.filter((row) => words.every((w) => row.join(" ").toLowerCase().includes(w)));
    body.replaceChildren(...rows.map((row) => (wide ? rowBlock(table.columns, row) : el("tr", {}, row.map((cell) => el("td", { text: cell }))))));
  };
  filter.addEventListener("input", render);
  render();
  return el("div", {}, table.rows.length > 12 ? filter : null,
    wide ? body : el("table", { class: "data" }, el("thead", {}, el("tr", {}, table.columns.map((c) => el("th", { text: c })))), body));
}

function rowBlock(columns, row) {
  const nameAt = Math.max(0, columns.indexOf("card"));
  const longAt = columns.findIndex((c) => LONG_COLUMNS.includes(c));
  const short = columns.map((c, i) => [c, row[i]]).filter(([, v], i) => i !== nameAt && i !== longAt && v !== "" && v !== null);
  return el("div", { class: "row-block" },
    el("strong", { text: String(row[nameAt]) }), " ",
    el("span", { class: "muted", text: short.map(([c, v]) => `${c} ${v}`).join(" · ") }),
    longAt >= 0 ? el("div", { text: String(row[longAt]) }) : null);
}
