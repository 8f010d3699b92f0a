// The rummykit browser table: a lobby (new table, join by link) and a table that draws the
// seat's view (GET /api/tables/ID/view, pushed over WS /ws/tables/ID) and plays the legal
// moves the view lists (POST /api/tables/ID/moves).  No build step, no outside files.
"use strict";

const GAMES = {
  gin: { name: "Gin Rummy", players: [2], family: "knock" },
  oklahoma_gin: { name: "Oklahoma Gin", players: [2], family: "knock" },
  oklahoma_rummy: { name: "Oklahoma Rummy", players: [2, 3, 4], family: "knock" },
  rummy: { name: "Rummy", players: [2, 3, 4, 5, 6], family: "table" },
  kaluki: { name: "Kaluki", players: [2, 3, 4, 5], family: "table" },
};
const BOTS = ["greedy", "best", "ismcts", "random"];
const SUITS = { S: ["\u2660", false], H: ["\u2665", true], D: ["\u2666", true], C: ["\u2663", false] };
const CARD_RE = /^(10|[2-9TJQKA])([SHDC])$/i;
const BOT_PAUSE_MS = 450; // how long each bot move stays on screen
// the per-seat entries of a match standing shown in the score table, and their column titles
const STANDING = [["scores", "score"], ["boxes", "boxes"], ["total_scores", "total"], ["games_won", "games"], ["bonuses", "bonus"]];

const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
};

// ---- cards ---------------------------------------------------------------------------

function isCard(token) {
  return CARD_RE.test(token) || /^jk$/i.test(token);
}

function cardsOf(text) {
  // the card texts an action names, in order ("meld 7H 8H 9H" -> ["7H", "8H", "9H"])
  return text.split(/[\s,]+/).filter(isCard).map(normCard);
}

function normCard(token) {
  if (/^jk$/i.test(token)) return "Jk";
  const m = CARD_RE.exec(token);
  return (m[1] === "10" ? "T" : m[1].toUpperCase()) + m[2].toUpperCase();
}

function cardNode(text, opts = {}) {
  const node = el("div", "card" + (opts.small ? " small" : ""));
  node.dataset.card = text;
  if (text === "Jk") {
    node.classList.add("joker");
    node.append(el("span", "rank", "Jk"), el("span", "pip", "\u2605"));
    node.title = "joker";
    return node;
  }
  const t = normCard(text);
  const rank = t[0] === "T" ? "10" : t[0];
  const [symbol, red] = SUITS[t[1]];
  if (red) node.classList.add("red");
  node.append(el("span", "rank", rank), el("span", "suit-small", symbol), el("span", "pip", symbol));
  node.title = rank + symbol;
  return node;
}

function backNode() {
  return el("div", "card back");
}

const RANK_ORDER = "A23456789TJQK";
const SUIT_ORDER = "CDSH";
function sortHand(cards) {
  const key = (c) => (c === "Jk" ? 99 : SUIT_ORDER.indexOf(c[1]) * 20 + RANK_ORDER.indexOf(c[0]));
  return cards.map((c, i) => [c, i]).sort((a, b) => key(a[0]) - key(b[0]) || a[1] - b[1]).map((p) => p[0]);
}

// ---- state -----------------------------------------------------------------------------

const app = {
  table: null, // table id
  token: null, // this seat's token (null: watching)
  view: null, // the view on screen
  selected: [], // indices into the sorted hand
  queue: [], // views waiting to be shown (bot moves are shown one by one)
  showing: false,
  socket: null,
  retry: 0,
  log: new Map(), // action index -> the move in words, this hand
  logHand: null,
  info: null, // GET /api/tables/ID: the seats, gin actions, the last finished hand
  shownEnds: null, // hands_played when the hand-end screen was last shown
};

function infoPath() {
  return `/api/tables/${encodeURIComponent(app.table)}` + (app.token ? `?token=${encodeURIComponent(app.token)}` : "");
}

async function refreshInfo() {
  try {
    app.info = await api("GET", infoPath());
  } catch (error) {
    showError(error.message);
  }
}

function parseHash() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { table: params.get("t"), token: params.get("k") };
}

function saved() {
  try {
    return JSON.parse(localStorage.getItem("rummykit.tables") || "{}");
  } catch (e) {
    return {};
  }
}

function save(table, info) {
  const all = saved();
  all[table] = Object.assign(all[table] || {}, info);
  localStorage.setItem("rummykit.tables", JSON.stringify(all));
}

// ---- the lobby ---------------------------------------------------------------------------

function showLobby() {
  $("lobby").hidden = false;
  $("table").hidden = true;
  $("title").textContent = "";
  const game = $("game");
  const players = $("players");
  const fillPlayers = () => {
    const choices = GAMES[game.value].players;
    players.replaceChildren(...choices.map((n) => {
      const option = el("option", null, String(n));
      option.value = String(n);
      return option;
    }));
    players.value = String(choices.includes(2) ? 2 : choices[0]);
    fillSeats();
  };
  const fillSeats = () => {
    const box = $("seats");
    box.replaceChildren(el("legend", null, "Seats"));
    const n = Number(players.value);
    for (let i = 0; i < n; i++) {
      const row = el("label", null, `Seat ${i + 1}: `);
      if (i === 0) {
        row.append(el("strong", null, "you"));
      } else {
        const select = el("select");
        select.id = `seat-${i}`;
        for (const bot of BOTS) {
          const option = el("option", null, `${bot} bot`);
          option.value = `bot:${bot}`;
          select.append(option);
        }
        const friend = el("option", null, "a friend (send a link)");
        friend.value = "human";
        select.append(friend);
        row.append(select);
      }
      box.append(row);
    }
  };
  game.onchange = fillPlayers;
  players.onchange = fillSeats;
  fillPlayers();
  $("new-table").onsubmit = async (event) => {
    event.preventDefault();
    $("lobby-error").textContent = "";
    const n = Number(players.value);
    const seats = [{ type: "human" }];
    for (let i = 1; i < n; i++) {
      const v = $(`seat-${i}`).value;
      seats.push(v === "human" ? { type: "human" } : { type: "bot", agent: v.slice(4) });
    }
    const options = {};
    const target = $("target").value;
    if (target) options[game.value === "kaluki" ? "elimination_threshold" : "target_score"] = Number(target);
    try {
      const answer = await api("POST", "/api/tables", { game: game.value, options, seats });
      const links = {};
      answer.tokens.forEach((token, seat) => {
        if (token && seat > 0) links[seat] = token;
      });
      save(answer.table, { token: answer.tokens[0], game: game.value, invites: links, created: Date.now() });
      location.hash = `t=${answer.table}&k=${answer.tokens[0]}`;
    } catch (error) {
      $("lobby-error").textContent = error.message;
    }
  };
  $("join").onsubmit = (event) => {
    event.preventDefault();
    const link = $("join-link").value.trim();
    const hash = link.includes("#") ? link.slice(link.indexOf("#")) : "#" + link;
    location.hash = hash;
  };
  const list = $("my-tables");
  const mine = Object.entries(saved()).sort((a, b) => (b[1].created || 0) - (a[1].created || 0));
  list.replaceChildren(...mine.slice(0, 10).map(([table, info]) => {
    const item = el("li");
    const link = el("a", null, `${GAMES[info.game] ? GAMES[info.game].name : info.game || "table"} ${table}`);
    link.href = `#t=${table}&k=${info.token || ""}`;
    item.append(link);
    return item;
  }));
  if (!mine.length) list.append(el("li", null, "none yet"));
}

// ---- talking to the server -----------------------------------------------------------------

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `the server answered ${response.status}` };
  }
  if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
  return data;
}

function viewPath() {
  return `/api/tables/${encodeURIComponent(app.table)}/view` + (app.token ? `?token=${encodeURIComponent(app.token)}` : "");
}

function connect() {
  if (app.socket) app.socket.close();
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = app.token ? `?token=${encodeURIComponent(app.token)}` : "";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(app.table)}${query}`);
  app.socket = socket;
  let opened = false;
  socket.onopen = () => {
    opened = true;
    app.retry = 0;
    setConnection(true);
  };
  socket.onmessage = (event) => enqueue(JSON.parse(event.data));
  socket.onclose = (event) => {
    if (app.socket !== socket) return;
    setConnection(false);
    if (!opened) {
      // refused (a wrong link) or the server is away: the view says which
      api("GET", viewPath()).then(
        () => undefined,
        (error) => showError(error.message),
      );
    }
    app.retry = Math.min(app.retry + 1, 6);
    setTimeout(() => {
      if (app.socket === socket) connect();
    }, 500 * app.retry);
  };
}

function setConnection(up) {
  const node = $("connection");
  node.textContent = up ? "connected" : "reconnecting\u2026";
  node.classList.toggle("down", !up);
}

async function play(action) {
  showError("");
  try {
    const before = app.view;
    const view = await api("POST", `/api/tables/${encodeURIComponent(app.table)}/moves`, {
      token: app.token,
      action: action.id,
    });
    app.selected = [];
    if (app.log && before && before.match && app.logHand === (before.match.hands_played || 0)) {
      app.log.set(before.action_count, `seat ${before.seat}: ${action.text}`);
    }
    // with the socket open the same view arrives as a push, in order with the bots' moves
    if (!app.socket || app.socket.readyState !== WebSocket.OPEN) render(view);
    else if (!app.showing) render(app.view);
  } catch (error) {
    showError(error.message);
  }
}

function showError(text) {
  $("error").textContent = text;
}

// views arrive over the socket after every change: a bot's moves are shown one at a time
function enqueue(view) {
  app.queue.push(view);
  if (!app.showing) drain();
}

function drain() {
  const view = app.queue.shift();
  if (!view) {
    app.showing = false;
    return;
  }
  app.showing = true;
  const before = app.view;
  render(view);
  const mine = app.token && before && before.current_player === view.seat;
  setTimeout(drain, app.queue.length && !mine ? BOT_PAUSE_MS : 0);
}

// ---- the table -------------------------------------------------------------------------------

function seatName(seat) {
  const view = app.view;
  if (view && seat === view.seat) return "You";
  const seats = app.info && app.info.seats;
  const info = seats && seats[seat];
  if (info && info.type === "bot") return `Seat ${seat + 1} (${info.agent || "bot"})`;
  return `Seat ${seat + 1}`;
}

function legal() {
  return (app.view && app.view.legal) || [];
}

function handCards() {
  return sortHand((app.view && app.view.hand) || []);
}

function selectedCards() {
  const hand = handCards();
  return app.selected.map((i) => hand[i]);
}

// the legal actions that use every selected card (as a multiset)
function candidates() {
  const chosen = selectedCards();
  if (!chosen.length) return [];
  return legal().filter((action) => {
    const cards = cardsOf(action.text);
    return chosen.every((c) => {
      const i = cards.indexOf(c);
      if (i < 0) return false;
      cards.splice(i, 1);
      return true;
    });
  });
}

function kind(action) {
  const word = action.text.trim().split(/\s+/)[0].toLowerCase();
  if (word === "draw") return /discard/i.test(action.text) ? "take" : "draw";
  return word;
}

function find(kindName, card) {
  return legal().find((a) => kind(a) === kindName && (!card || cardsOf(a.text)[0] === card));
}

function render(view) {
  app.view = view;
  const hash = parseHash();
  if (hash.table !== app.table) return;
  const game = GAMES[view.game] || { name: view.game, family: "table" };
  $("title").textContent = `${game.name} \u00b7 table ${app.table}` + (app.token ? "" : " (watching)");
  const n = (view.hand_sizes || []).length;
  const hand = handCards();
  app.selected = app.selected.filter((i) => i < hand.length);

  // the other seats
  const opponents = $("opponents");
  opponents.replaceChildren();
  for (let seat = 0; seat < n; seat++) {
    if (seat === view.seat) continue;
    const box = el("div", "seat" + (seat === view.current_player ? " to-move" : ""));
    box.dataset.seat = String(seat);
    box.append(el("div", "name", seatName(seat)));
    const count = view.hand_sizes[seat];
    box.append(el("div", "count", `${count} card${count === 1 ? "" : "s"}` + scoreText(seat)));
    const backs = el("div", "backs");
    for (let i = 0; i < Math.min(count, 14); i++) backs.append(backNode());
    box.append(backs);
    opponents.append(box);
  }

  // stock and discard pile
  const draw = find("draw");
  const take = find("take");
  const stock = $("stock");
  stock.classList.toggle("clickable", !!draw);
  stock.onclick = draw ? () => play(draw) : null;
  stock.draggable = !!draw;
  stock.ondragstart = (e) => e.dataTransfer.setData("text/plain", "stock");
  const stockSize = view.stock_size !== undefined ? view.stock_size : null;
  $("stock-caption").textContent = stockSize === null ? "stock" : `stock (${stockSize})`;
  const pile = $("discard");
  pile.replaceChildren();
  const discards = view.discard_pile || [];
  for (const card of discards.slice(-3)) pile.append(cardNode(card));
  pile.classList.toggle("clickable", !!take);
  pile.onclick = take ? () => play(take) : null;
  const top = pile.lastElementChild;
  if (top && take) {
    top.draggable = true;
    top.ondragstart = (e) => e.dataTransfer.setData("text/plain", "discard");
  }
  $("discard-caption").textContent = `discard pile (${discards.length})`;
  dropTarget(pile, (what) => {
    const discard = find("discard", what);
    if (discard) play(discard);
  });

  // table melds
  const melds = $("melds");
  melds.replaceChildren();
  (view.melds || []).forEach((meld, i) => {
    const cards = Array.isArray(meld) ? meld : meld.cards || [];
    const box = el("div", "meld");
    box.dataset.meld = String(i + 1);
    const owner = !Array.isArray(meld) && meld.owner !== undefined && meld.owner !== null ? ` ${seatName(meld.owner)}` : "";
    box.append(el("span", "label", `${i + 1}${owner}`));
    for (const c of cards) box.append(cardNode(cardText(c), { small: true }));
    const onIt = candidates().filter((a) => new RegExp(`\\b(on|from) ${i + 1}\\b`).test(a.text));
    if (onIt.length) {
      box.classList.add("target");
      box.title = onIt.map((a) => a.text).join("\n");
      box.onclick = () => (onIt.length === 1 ? play(onIt[0]) : showCandidates(onIt));
    }
    melds.append(box);
  });

  // my hand
  const mine = $("hand");
  mine.replaceChildren();
  mine.classList.toggle("many", hand.length > 11);
  const usable = new Set(legal().flatMap((a) => cardsOf(a.text)));
  hand.forEach((card, i) => {
    const node = cardNode(card);
    node.dataset.index = String(i);
    if (app.selected.includes(i)) node.classList.add("selected");
    if (app.token && usable.has(card)) {
      node.classList.add("clickable");
      node.onclick = () => {
        const at = app.selected.indexOf(i);
        if (at >= 0) app.selected.splice(at, 1);
        else app.selected.push(i);
        render(app.view);
      };
      node.ondblclick = () => {
        const discard = find("discard", card);
        if (discard) play(discard);
      };
      node.draggable = true;
      node.ondragstart = (e) => e.dataTransfer.setData("text/plain", card);
    }
    mine.append(node);
  });
  dropTarget(mine, (what) => {
    if (what === "stock" && draw) play(draw);
    else if (what === "discard" && take) play(take);
  });

  renderActions(view, game);
  renderSide(view, n);
  renderMatchEnd(view, n);
  if (game.family === "knock" && legal().some((a) => kind(a) === "knock") && !(app.info && app.info.version_seen === legalKey())) {
    refreshInfo().then(() => {
      if (app.info) app.info.version_seen = legalKey();
      if (app.view === view) renderActions(view, game);
    });
  }
  $("table").dataset.legal = legal().map((a) => a.id).join(","); // what the page offers now (for tests)
  $("prompt").textContent = prompt(view);
  handEnd(view);
}

function legalKey() {
  return legal().map((a) => a.id).join(",") + "/" + ((app.view && app.view.hand) || []).join(" ");
}

function cardText(c) {
  return typeof c === "string" ? c : c.card || String(c);
}

function dropTarget(node, onDrop) {
  node.ondragover = (e) => {
    e.preventDefault();
    node.classList.add("drop-ok");
  };
  node.ondragleave = () => node.classList.remove("drop-ok");
  node.ondrop = (e) => {
    e.preventDefault();
    node.classList.remove("drop-ok");
    onDrop(e.dataTransfer.getData("text/plain"));
  };
}

function scoreText(seat) {
  const scores = app.view.scores || [];
  return scores[seat] !== undefined ? ` \u00b7 ${scores[seat]} pts` : "";
}

function prompt(view) {
  if (view.match && view.match.is_over) return "The match is over.";
  if (view.seat === null || view.seat === undefined) return `Watching: ${seatName(view.current_player)} to move.`;
  if (view.current_player !== view.seat) {
    return view.current_player !== null && view.current_player >= 0 ? `${seatName(view.current_player)} to move\u2026` : "";
  }
  const kinds = new Set(legal().map(kind));
  if (kinds.has("pass")) return "Your turn: take the upcard, or pass.";
  if (kinds.has("draw") || kinds.has("take")) return "Your turn: draw from the stock or take the discard.";
  if (kinds.has("discard")) return "Your turn: select cards to meld or lay off, or double-click (or drag) a card to discard.";
  return "Your turn: select cards, then choose a move below.";
}

function renderActions(view, game) {
  const buttons = $("buttons");
  buttons.replaceChildren();
  const moves = legal();
  const plain = moves.filter((a) => cardsOf(a.text).length === 0);
  for (const action of plain) {
    const button = el("button", null, capital(action.text));
    button.dataset.action = action.text;
    button.onclick = () => play(action);
    buttons.append(button);
  }
  const chosen = selectedCards();
  if (game.family === "knock") {
    const knocks = moves.filter((a) => kind(a) === "knock");
    const gins = knocks.filter((a) => ((app.info && app.info.gin) || []).includes(a.id));
    for (const [label, list] of [["Knock", knocks.filter((a) => !gins.includes(a))], ["Gin", gins]]) {
      const button = el("button", null, label);
      button.id = `${label.toLowerCase()}-button`;
      button.disabled = !list.length;
      button.title = list.length ? list.map((a) => a.text).join(", ") : `${label.toLowerCase()} is not legal now`;
      button.onclick = () => {
        const fit = list.filter((a) => chosen.every((c) => cardsOf(a.text).includes(c)));
        if (fit.length === 1) play(fit[0]);
        else showCandidates(fit.length ? fit : list, `${label} with which card?`);
      };
      buttons.append(button);
    }
  }
  showCandidates(candidates());
}

function showCandidates(list, title) {
  const box = $("candidates");
  box.replaceChildren();
  if (!list.length) {
    if (selectedCards().length) box.append(el("span", null, "no legal move uses just these cards"));
    return;
  }
  if (title) box.append(el("span", null, title));
  for (const action of list.slice(0, 40)) {
    const button = el("button", null, capital(action.text));
    button.dataset.action = action.text;
    button.onclick = () => play(action);
    box.append(button);
  }
}

function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// the match standing per seat: score, boxes, game totals, games won, bonuses, who is out
function standingColumns(standing, n) {
  const columns = [];
  for (const [key, label] of STANDING) {
    const values = standing[key];
    if (Array.isArray(values) && values.length === n) columns.push([label, values]);
  }
  if (Array.isArray(standing.eliminated) && standing.eliminated.length) {
    columns.push(["out", [...Array(n).keys()].map((seat) => (standing.eliminated.includes(seat) ? "out" : ""))]);
  }
  return columns;
}

// the places at the match's end, best first, each a list of seats (a tie shares a place)
function places(standing, n) {
  if (Array.isArray(standing.ranking)) return standing.ranking;
  if (Array.isArray(standing.standings)) return standing.standings.map((seat) => [seat]);
  return [...Array(n).keys()].map((seat) => [seat]);
}

// the final standings: place, seat and the standing's figures, best first
function finalStandings(standing, n) {
  const columns = standingColumns(standing, n);
  const table = el("table", "final");
  const head = el("tr");
  head.append(el("th", null, "place"), el("th", null, "seat"), ...columns.map(([name]) => el("th", null, name)));
  table.append(head);
  places(standing, n).forEach((seats, i) => {
    for (const seat of seats) {
      const row = el("tr", seat === standing.winner ? "winner" : "");
      row.dataset.seat = String(seat);
      row.append(el("td", null, String(i + 1)), el("td", null, seatName(seat)));
      row.append(...columns.map(([, values]) => el("td", null, String(values[seat]))));
      table.append(row);
    }
  });
  return table;
}

function winnerText(standing) {
  const winner = standing.winner;
  return winner === null || winner === undefined ? "The match is drawn." : `${seatName(winner)} won the match.`;
}

function renderMatchEnd(view, n) {
  // once the match is over it stays on the page: the winner, the final standings, a new table
  const standing = view.match || {};
  const box = $("match-end");
  box.hidden = !standing.is_over;
  box.replaceChildren();
  if (!standing.is_over) return;
  box.append(el("h2", null, "The match is over"), el("p", "winner", winnerText(standing)), finalStandings(standing, n));
  const again = el("a", "button", "New table");
  again.href = "#";
  box.append(again);
}

function renderSide(view, n) {
  const table = $("scores");
  table.replaceChildren();
  const standing = view.match || {};
  const columns = standingColumns(standing, n);
  const head = el("tr");
  head.append(el("th", null, "seat"), ...columns.map(([name]) => el("th", null, name)));
  table.append(head);
  for (let seat = 0; seat < n; seat++) {
    const row = el("tr", seat === view.current_player ? "to-move" : "");
    row.append(el("td", null, seatName(seat)), ...columns.map(([, values]) => el("td", null, String(values[seat]))));
    table.append(row);
  }
  // the hand's moves so far: each view's last moves end at its action count
  const hand = standing.hands_played || 0;
  if (app.logHand !== hand) {
    app.log = new Map();
    app.logHand = hand;
  }
  for (const event of view.events || []) app.log.set(event.index, event.text);
  const recent = view.last_actions || [];
  recent.forEach((line, i) => app.log.set(view.action_count - recent.length + i, line));
  const lines = [...app.log.entries()].sort((a, b) => a[0] - b[0]).slice(-14);
  const log = $("log");
  log.replaceChildren(
    ...lines.map(([index, line]) => {
      const item = el("li", null, words(line));
      item.value = index + 1; // the move's number in the hand
      return item;
    }),
  );
  log.scrollTop = log.scrollHeight;
  const invites = $("invites");
  invites.replaceChildren();
  const info = saved()[app.table];
  if (info && info.invites && Object.keys(info.invites).length) {
    invites.append(el("h2", null, "Invite friends"));
    for (const [seat, token] of Object.entries(info.invites)) {
      invites.append(el("div", null, `Seat ${Number(seat) + 1}:`));
      const link = el("input");
      link.readOnly = true;
      link.value = `${location.origin}/#t=${app.table}&k=${token}`;
      link.onclick = () => link.select();
      invites.append(link);
    }
  }
  const watch = el("div", null, "");
  const spectate = el("a", null, "link for spectators");
  spectate.href = `#t=${app.table}`;
  spectate.style.color = "inherit";
  watch.append(spectate);
  invites.append(watch);
}

function words(entry) {
  if (typeof entry === "string") return entry.replace(/^seat (\d+):/, (_, seat) => `${seatName(Number(seat))}:`);
  if (entry && entry.text) return entry.seat !== undefined ? `${seatName(entry.seat)}: ${entry.text}` : entry.text;
  return JSON.stringify(entry);
}

// ---- hand end and match end ---------------------------------------------------------------------

async function handEnd(view) {
  const standing = view.match || {};
  const played = standing.hands_played || 0;
  if (app.shownEnds === null) {
    // a page opened mid-match shows the screens it has not shown before (sessionStorage)
    app.shownEnds = Number(sessionStorage.getItem(`rummykit.ends.${app.table}`) || 0);
  }
  if (played <= app.shownEnds) return;
  app.shownEnds = played;
  sessionStorage.setItem(`rummykit.ends.${app.table}`, String(played));
  await refreshInfo();
  const last = app.info && app.info.last_hand;
  const body = $("overlay-body");
  body.replaceChildren();
  if (last) body.append(resultNode(last));
  const over = standing.is_over;
  $("overlay-title").textContent = over ? "The match is over" : "The hand is over";
  if (over) {
    body.append(el("p", "winner", winnerText(standing)), el("h3", null, "Final standings"));
    body.append(finalStandings(standing, (view.hand_sizes || []).length));
  }
  $("overlay").hidden = false;
}

function resultNode(last) {
  // the finished hand as this seat saw it at its end: every hand, the melds, the points
  const box = el("div");
  const result = last.result || {};
  const n = (last.hand_sizes || []).length;
  const parts = [];
  if (result.outcome) parts.push(`Outcome: ${String(result.outcome).replace(/_/g, " ")}`);
  if (result.winner !== undefined && result.winner !== null) parts.push(`${seatName(result.winner)} won the hand`);
  if (parts.length) box.append(el("p", null, parts.join(" \u00b7 ")));
  for (let seat = 0; seat < n; seat++) {
    box.append(el("div", "who", seatName(seat)));
    const row = el("div", "cards");
    const melds = (last.melds || []).filter((m) => m.owner === seat);
    const melded = [];
    for (const meld of melds) {
      for (const c of meld.cards) {
        row.append(cardNode(c, { small: true }));
        melded.push(c);
      }
      row.append(el("span", "gap", "\u00a0"));
    }
    const shown = (last.seen && last.seen[seat]) || [];
    const rest = shown.slice();
    if (last.family === "knock") for (const c of melded) rest.splice(rest.indexOf(c), rest.indexOf(c) >= 0 ? 1 : 0);
    for (const c of rest) row.append(cardNode(c, { small: true }));
    box.append(row);
  }
  const table = el("table");
  const figures = Object.entries(result).filter(([, v]) => Array.isArray(v) && v.length === n && v.every((x) => typeof x === "number"));
  const head = el("tr");
  head.append(el("th", null, "seat"), ...figures.map(([k]) => el("th", null, k.replace(/_/g, " "))));
  const scores = last.match && last.match.scores;
  if (scores) head.append(el("th", null, "match score"));
  table.append(head);
  for (let seat = 0; seat < n; seat++) {
    const row = el("tr");
    row.append(el("td", null, seatName(seat)), ...figures.map(([, v]) => el("td", null, String(v[seat]))));
    if (scores) row.append(el("td", null, String(scores[seat])));
    table.append(row);
  }
  box.append(table);
  return box;
}

$("overlay-close").onclick = () => {
  $("overlay").hidden = true;
};

// ---- start ------------------------------------------------------------------------------------

async function route() {
  const { table, token } = parseHash();
  $("overlay").hidden = true;
  if (!table) {
    if (app.socket) {
      const socket = app.socket;
      app.socket = null;
      socket.close();
    }
    app.table = null;
    showLobby();
    return;
  }
  app.table = table;
  app.token = token || null;
  app.view = null;
  app.selected = [];
  app.queue = [];
  app.shownEnds = null;
  app.info = null;
  if (app.token) save(table, { token: app.token });
  await refreshInfo();
  $("lobby").hidden = true;
  $("table").hidden = false;
  try {
    render(await api("GET", viewPath() + (app.token ? "&" : "?") + "since=0")); // with the hand's moves so far
  } catch (error) {
    showError(error.message);
  }
  connect();
}

window.addEventListener("hashchange", route);
route();
