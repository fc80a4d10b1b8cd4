// smuggle serve: the lobby. Make a table, hand out its seats' links, find tables and stored games.
"use strict";

const lobby = { envs: [] };

function showError(message) {
  const box = document.getElementById("error");
  box.textContent = message || "";
  box.classList.toggle("hidden", !message);
}

function seatRows() {
  const n = Number(document.getElementById("players").value);
  const box = document.getElementById("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren(...Array.from({ length: n }, (_, p) => el("div", { class: "seat-row" },
    el("label", { for: `seat-${p}`, text: `seat ${p}` }),
    el("input", { id: `seat-${p}`, list: "specs", value: old[p] || (p < 1 ? "human" : "rule"), size: 28 }))));
  if (!document.getElementById("specs")) {
    document.body.append(el("datalist", { id: "specs" }, ["human", "rule", "random", "ismcts:sims=50", "ppo:PATH", "zoo:ENV_ID"].map((s) => el("option", { value: s }))));
  }
}

function onEnv() {
  const env = lobby.envs.find((e) => e.env_id === document.getElementById("env").value);
  const players = document.getElementById("players");
  players.min = env.min_players;
  players.max = env.max_players;
  players.value = Math.min(Math.max(Number(players.value), env.min_players), env.max_players);
  seatRows();
}

async function create(event) {
  event.preventDefault();
  const n = Number(document.getElementById("players").value);
  const body = {
    env_id: document.getElementById("env").value,
    seats: Array.from({ length: n }, (_, p) => document.getElementById(`seat-${p}`).value.trim()),
    bot_delay: Number(document.getElementById("delay").value),
  };
  const seed = document.getElementById("seed").value;
  if (seed !== "") body.seed = Number(seed);
  try {
    const table = await api("/api/tables", { method: "POST", body });
    showError("");
    const items = table.seats.filter((s) => s.link).map((s) => {
      const url = new URL(s.link, location.href).href;
      return el("li", {}, `seat ${s.seat}: `, el("a", { href: url, target: "_blank", class: "seat-link", "data-seat": s.seat }, "open"), " · ",
        el("button", { type: "button", onclick: () => navigator.clipboard && navigator.clipboard.writeText(url) }, "copy link"), " ", el("code", { text: url }));
    });
    const watch = items.length ? null : el("p", {}, el("a", { href: `/watch/${table.id}`, id: "watch-link" }, "Watch this table"));
    document.getElementById("created").replaceChildren(
      el("h3", { text: `Table ${table.id} (${GAME_NAMES[table.env_id]}, seed ${table.seed})` }),
      items.length ? el("p", { text: "Give each person their own link: whoever has a seat's link plays that seat. Keep them private." }) : null,
      el("ul", { class: "links" }, items), watch);
    refresh();
  } catch (error) {
    showError(error.message);
  }
}

async function refresh() {
  try {
    const { tables } = await api("/api/tables");
    document.getElementById("tables").replaceChildren(tables.length ? el("table", { class: "data" },
      el("thead", {}, el("tr", {}, ["table", "game", "seats", "decisions", "status", ""].map((h) => el("th", { text: h })))),
      el("tbody", {}, tables.map((t) => el("tr", {},
        el("td", { text: t.id }), el("td", { text: GAME_NAMES[t.env_id] }),
        el("td", { text: t.seats.map((s) => `${s.seat}: ${s.label}`).join(", ") }), el("td", { text: t.decisions }),
        el("td", { text: t.note || t.status }),
        el("td", {}, t.game_id ? el("a", { href: `/replay/${t.game_id}` }, "replay") : t.watchable ? el("a", { href: `/watch/${t.id}` }, "watch") : ""))))) : "none yet");
    const { games } = await api("/api/games");
    document.getElementById("games").replaceChildren(games.length ? el("table", { class: "data" },
      el("thead", {}, el("tr", {}, ["game", "from", "env", "seats", "scores", "decisions", "finished"].map((h) => el("th", { text: h })))),
      el("tbody", {}, games.map((g) => el("tr", {},
        el("td", {}, el("a", { href: `/replay/${g.id}`, class: "replay-link" }, `#${g.id}`)), el("td", { text: `${g.source} ${g.tournament_id}` }),
        el("td", { text: GAME_NAMES[g.env_id] || g.env_id }), el("td", { text: g.seating.join(", ") }),
        el("td", { text: g.scores.map(fmtScore).join(", ") }), el("td", { text: g.decisions }), el("td", { text: g.finished })))))) : "none yet");
  } catch (error) {
    showError(error.message);
  }
}

async function start() {
  const data = await api("/api/envs");
  lobby.envs = data.envs;
  const select = document.getElementById("env");
  data.envs.forEach((e) => select.append(el("option", { value: e.env_id, text: `${GAME_NAMES[e.env_id] || e.env_id} (${e.min_players}-${e.max_players})` })));
  select.onchange = onEnv;
  document.getElementById("players").onchange = seatRows;
  document.getElementById("create").onsubmit = create;
  onEnv();
  refresh();
  setInterval(refresh, 5000);
}

start().catch((error) => showError(error.message));
