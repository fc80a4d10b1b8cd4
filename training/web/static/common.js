// smuggle serve: helpers shared by the lobby, the table and the replay viewer.
// Everything is drawn from the JSON the server sends; the page never holds more than its seat may see.
"use strict";

const GAME_NAMES = {
  smuggle_v0: "Smuggle", ciq_v0: "CIQ", illegal_v0: "Illegal",
  humble_smuggle_v0: "Humble smuggle", import_export_v0: "Import / Export",
};

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

class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

async function api(path, options = {}) {
  const init = { method: options.method || "GET", headers: { ...(options.headers || {}) } };
  if (options.body !== undefined) {
    init.body = JSON.stringify(options.body);
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

function drawCard(card) {
  const node = el("div", { class: `card ${card.colour || ""}`, title: `${card.name}${card.text ? ": " + card.text : ""}`, "data-name": card.name },
    el("span", { class: "corner", text: card.corner || "" }),
    el("span", { class: "big", text: card.big || "" }),
    el("span", { class: "name", text: card.name }));
  if (card.count > 1) node.append(el("span", { class: "count", text: `×${card.count}` }));
  return node;
}

function drawZones(zones) {
  return el("div", { class: "zones" }, zones.map((zone) => el("div", { class: "zone", "data-zone": zone.title },
    el("h3", {}, zone.title, zone.note ? el("span", { class: "note", text: `  ${zone.note}` }) : null),
    el("div", { class: "cards" }, zone.cards.length ? zone.cards.map(drawCard) : el("span", { class: "empty", text: "none" })))));
}

function drawPlayers(view, me) {
  return el("div", { class: "players" }, view.players.map((p) => el("div", {
    class: `player${p.to_move ? " to-move" : ""}${p.seat === me ? " me" : ""}`, "data-seat": p.seat,
  },
  el("div", {}, el("strong", { text: `P${p.seat} ${p.label}` })),
  el("div", { class: "score", text: fmtScore(p.score) }),
  el("div", { class: "kind", text: (p.kind === "human" ? "person" : "bot") + (p.to_move ? " · to move" : "") + (p.seat === me ? " · you" : "") }))));
}

function markBadge(mark) {
  if (!mark) return null;
  const cls = mark === "true" ? "true" : mark === "false" ? "false" : mark === "caught" ? "caught" : mark.startsWith("truthful") ? "truthful" : "other";
  const text = mark === "true" ? "true" : mark === "false" ? "false" : mark;
  return el("span", { class: `mark ${cls}`, text });
}

function drawLog(log, labels) {
  const box = el("div", { class: "log", id: "log" }, log.map((entry) => el("div", { "data-n": entry.n },
    el("span", { class: "muted", text: `${entry.n + 1}. ` }), `P${entry.seat} ${labels[entry.seat] || ""}: ${entry.text}`, markBadge(entry.mark))));
  setTimeout(() => { box.scrollTop = box.scrollHeight; }, 0);
  return box;
}

function resultLine(view) {
  if (!view.result) return null;
  if (view.result.truncated) return "Stopped by the game's turn limit: no winner.";
  const names = view.result.winners.map((s) => `P${s} ${view.players[s].label}`);
  return `Game over. Winner${names.length > 1 ? "s" : ""}: ${names.join(", ") || "none"}.`;
}

// ----- the side panel: rules summary and card tables, from /api/rules -----------------------
async function drawRules(container, envId) {
  const data = await api(`/api/rules/${envId}`);
  const body = el("div", {});
  const tabs = el("div", { class: "tabs" });
  const sections = [["Rules", () => el("div", {},
    el("p", { class: "muted", text: `From ${data.source}.` }),
    data.rules.length ? el("ol", { class: "rules" }, data.rules.map((r) => el("li", {}, el("b", { text: `${r.n}. ` }), r.text)))
      : el("p", { text: "The rules summary is in the source checkout's docs/rules/." }))]];
  for (const table of data.tables) sections.push([table.title, () => drawTable(table)]);
  const show = (i) => {
    body.replaceChildren(sections[i][1]());
    [...tabs.children].forEach((b, j) => b.classList.toggle("on", i === j));
  };
  sections.forEach(([title], i) => tabs.append(el("button", { onclick: () => show(i) }, title)));
  container.replaceChildren(el("h2", { text: `${GAME_NAMES[envId] || envId}: rules and cards` }), tabs, body);
  show(0);
}

function drawTable(table) {
  const filter = el("input", { placeholder: "filter rows", type: "search" });
  const tbody = el("tbody", {});
  const render = () => {
    const words = filter.value.toLowerCase().split(/\s+/).filter(Boolean);
    tbody.replaceChildren(...table.rows.filter((row) => words.every((w) => row.join(" ").toLowerCase().includes(w)))
      .map((row) => el("tr", {}, row.map((cell) => el("td", { text: cell })))));
  };
  filter.addEventListener("input", render);
  render();
  return el("div", {}, table.rows.length > 12 ? filter : null,
    el("table", { class: "data" }, el("thead", {}, el("tr", {}, table.columns.map((c) => el("th", { text: c })))), tbody));
}
