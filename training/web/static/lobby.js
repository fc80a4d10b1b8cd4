// smuggle serve: the lobby. Make a table, hand out its seats' links, find tables and stored games.
"use strict";

const lobby = { envs: [], specs: [], operator: false };
// What a seat may hold when the server does not list it (an older server).
const DEFAULT_SPECS = ["human", "rule", "random", "ismcts:sims=50", "pimc", "zoo"];
const OWNER = (id) => `smuggle:owner:${id}`; // this browser made the table: it may close it
const OPERATOR = "smuggle:operator"; // the operator token, for this tab only (sessionStorage)

// Making, closing and listing tables carry the operator token when the server asks for one.
function operatorHeaders() {
  const token = sessionStorage.getItem(OPERATOR);
  return lobby.operator && token ? { "X-Operator-Token": token } : {};
}

function needToken() { return lobby.operator && !sessionStorage.getItem(OPERATOR); }

function askToken(message) {
  if (message) showError(message);
  document.getElementById("operator-box").classList.remove("hidden");
  document.getElementById("operator-token").focus();
}

function useToken(event) {
  event.preventDefault();
  const token = document.getElementById("operator-token").value.trim();
  if (!token) return;
  sessionStorage.setItem(OPERATOR, token);
  document.getElementById("operator-box").classList.add("hidden");
  showError("");
  refresh();
}

// A refusal of the token itself: forget it and ask again.
function tokenRefused(error) {
  if (!(error instanceof ApiError) || !lobby.operator || (error.status !== 401 && error.status !== 403)) return false;
  if (!/operator token/.test(error.message)) return false;
  sessionStorage.removeItem(OPERATOR);
  askToken(`${error.message}: enter the operator token again.`);
  return true;
}

function seatRows() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(...Array.from({ length: n }, (_, p) => el("div", { class: "seat-row" },
    el("label", { for: `seat-${p}`, text: `seat ${p}` }),
    el("input", { id: `seat-${p}`, class: "seat-spec", list: "specs", value: old[p] || (p < 1 ? "human" : "rule"), size: 28 }))));
}

function drawSpecs(specs) {
  document.body.append(el("datalist", { id: "specs" }, specs.map((s) => el("option", { value: s }))));
  const hint = document.getElementById("spec-hint");
  hint.replaceChildren("A seat is a person (", el("code", { text: "human" }), ") or an agent this server offers: ",
    ...specs.filter((s) => s !== "human").flatMap((s, i) => [i ? ", " : "", el("code", { text: s })]), ".");
}

function onEnv() {
  const env = lobby.envs.find((e) => e.env_id === document.getElementById("env").value);
  const players = document.getElementById("players");
  players.min = env.min_players;
  players.max = env.max_players;
  players.value = Math.min(Math.max(Number(players.value), env.min_players), env.max_players);
  seatRows();
}

function readConfig() {
  const text = document.getElementById("config").value.trim();
  if (!text) return null;
  let config;
  try { config = JSON.parse(text); } catch (e) { throw new Error(`game options: not JSON (${e.message})`); }
  if (config === null || typeof config !== "object" || Array.isArray(config)) throw new Error("game options: a JSON object, like {\"trading\": true}");
  return config;
}

function tableRequest() {
  const n = Number(document.getElementById("players").value);
  const body = {
    env_id: document.getElementById("env").value,
    seats: Array.from({ length: n }, (_, p) => document.getElementById(`seat-${p}`).value.trim()),
    bot_delay: Number(document.getElementById("delay").value),
  };
  // The seed stays a string of digits: Number() would round seeds past 2**53.
  const seed = document.getElementById("seed").value.trim();
  if (seed !== "") body.seed = seed;
  const config = readConfig();
  if (config) body.config = config;
  return body;
}

function copyButton(url) {
  const copy = (event) => {
    if (!navigator.clipboard) { showError("This browser cannot copy here: select the link and copy it."); return; }
    navigator.clipboard.writeText(url).then(() => { event.target.textContent = "copied"; },
      () => showError("Not copied (the browser refused): select the link and copy it."));
  };
  return el("button", { type: "button", class: "copy", onclick: copy }, "copy link");
}

function drawCreated(table) {
  const items = table.seats.filter((s) => s.link).map((s) => {
    const url = new URL(s.link, location.href).href;
    return el("li", {}, `seat ${s.seat}: `, el("a", { href: url, target: "_blank", class: "seat-link", "data-seat": s.seat }, "open"), " · ",
      copyButton(url), " ", el("code", { text: url }));
  });
  const watch = items.length ? null : el("p", {}, el("a", { href: `/watch/${table.id}`, id: "watch-link" }, "Watch this table"));
  fill(document.getElementById("created"),
    el("h3", { id: "created-title", "data-table": table.id, text: `Table ${table.id} (${GAME_NAMES[table.env_id]}, seed ${table.seed})` }),
    items.length ? el("p", { text: "Give each person their own link: whoever has a seat's link plays that seat. Keep them private." }) : null,
    el("ul", { class: "links" }, items), watch);
}

async function create(event) {
  event.preventDefault();
  const go = document.getElementById("create-go");
  if (needToken()) { askToken("Enter the operator token first."); return; }
  go.disabled = true; // one table per press
  try {
    const table = await api("/api/tables", { method: "POST", headers: operatorHeaders(), body: tableRequest() });
    if (table.owner_token) localStorage.setItem(OWNER(table.id), table.owner_token);
    showError("");
    drawCreated(table);
    await refresh();
  } catch (error) {
    if (!tokenRefused(error)) showError(error.message);
  } finally {
    go.disabled = false;
  }
}

async function closeTable(id) {
  try {
    const headers = { ...operatorHeaders(), "X-Owner-Token": localStorage.getItem(OWNER(id)) || "" };
    await api(`/api/tables/${id}/close`, { method: "POST", headers, body: {} });
    localStorage.removeItem(OWNER(id));
    showError("");
  } catch (error) {
    if (!tokenRefused(error)) showError(`Not closed: ${error.message}`);
  }
  refresh();
}

function tableLinks(t) {
  const link = t.game_id ? el("a", { href: `/replay/${t.game_id}` }, "replay") : t.watchable ? el("a", { href: `/watch/${t.id}` }, "watch") : null;
  const mine = t.status === "playing" && localStorage.getItem(OWNER(t.id));
  const close = mine ? el("button", { type: "button", class: "close-table", "data-table": t.id, onclick: () => closeTable(t.id) }, "close") : null;
  return el("td", {}, link, link && close ? " " : null, close);
}

function seatText(seats) {
  return seats.map((s) => {
    const who = seatWho(s.label, s.kind);
    if (who.kind === "human" && s.joined === false) return `${s.seat}: free (person)`;
    return `${s.seat}: ${who.label}${who.kind === "human" ? " (person)" : ""}`;
  }).join(", ");
}

function drawTables(tables) {
  if (!tables.length) return "none yet";
  return el("table", { class: "data" },
    el("thead", {}, el("tr", {}, ["table", "game", "seed", "seats", "decisions", "status", ""].map((h) => el("th", { text: h })))),
    el("tbody", {}, tables.map((t) => el("tr", { "data-table": t.id },
      el("td", { text: t.id }), el("td", { text: GAME_NAMES[t.env_id] || t.env_id }),
      el("td", { class: "seed", text: String(t.seed ?? "") }),
      el("td", { text: seatText(t.seats) }), el("td", { text: t.decisions }),
      el("td", { text: t.note || t.status }), tableLinks(t)))));
}

function drawGames(games) {
  if (!games.length) return "none yet";
  return el("table", { class: "data" },
    el("thead", {}, el("tr", {}, ["game", "from", "env", "seats", "scores", "decisions", "finished"].map((h) => el("th", { text: h })))),
    el("tbody", {}, games.map((g) => el("tr", { "data-game": g.id },
      el("td", {}, el("a", { href: `/replay/${g.id}`, class: "replay-link", "data-game": g.id }, `#${g.id}`)),
      el("td", { text: `${g.source} ${g.tournament_id}` }),
      el("td", { text: GAME_NAMES[g.env_id] || g.env_id }),
      el("td", { text: seatText(g.seating.map((label, seat) => ({ seat, label }))) }),
      el("td", { text: g.scores.map(fmtScore).join(", ") }), el("td", { text: g.decisions }), el("td", { text: g.finished })))));
}

async function refresh() {
  if (needToken()) return; // the lists are the operator's: asked for once the token is given
  try {
    const { tables } = await api("/api/tables", { headers: operatorHeaders() });
    document.getElementById("tables").replaceChildren(drawTables(tables));
    const { games } = await api("/api/games", { headers: operatorHeaders() });
    document.getElementById("games").replaceChildren(drawGames(games));
    document.body.dataset.refreshed = String(Date.now()); // the tests wait for the lists
  } catch (error) {
    if (!tokenRefused(error)) showError(error.message);
  }
}

function drawIdle(minutes) {
  if (!minutes) return;
  const note = document.getElementById("idle-note");
  note.textContent = `Tables close after ${minutes} minutes without a move.`;
  note.classList.remove("hidden");
}

async function start() {
  const data = await api("/api/envs");
  lobby.envs = data.envs;
  lobby.operator = Boolean(data.operator_required);
  document.getElementById("operator-form").addEventListener("submit", useToken);
  if (needToken()) askToken();
  drawIdle(data.table_idle_minutes);
  data.envs.forEach((e) => { GAME_NAMES[e.env_id] = e.name; });
  lobby.specs = data.agent_specs && data.agent_specs.length ? data.agent_specs : DEFAULT_SPECS;
  drawSpecs(lobby.specs.includes("human") ? lobby.specs : ["human", ...lobby.specs]);
  const select = document.getElementById("env");
  data.envs.forEach((e) => select.append(el("option", { value: e.env_id, text: `${GAME_NAMES[e.env_id] || e.env_id} (${e.min_players}-${e.max_players})` })));
  select.addEventListener("change", onEnv);
  document.getElementById("players").addEventListener("input", seatRows);
  document.getElementById("create").addEventListener("submit", create);
  onEnv();
  await refresh();
  document.body.dataset.ready = "1";
  setInterval(refresh, 5000);
}

start().catch((error) => showError(error.message));
