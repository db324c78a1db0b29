// provost's board in the browser.  Draws the board description built by
// provost.interpreter.boardview (tracks, grouped spaces, scales, shared zones, player panels):
// nothing here knows any game.  Used by the server's pages and by `provost view`'s single file.
"use strict";
const Provost = (() => {
  const COLORS = ["#d1495b", "#2e6fd8", "#2a9d5c", "#d79a00", "#8e44ad", "#5d6d7e", "#e67e22", "#16a085"];
  const color = (p) => COLORS[p % COLORS.length];

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "style") e.style.cssText = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? "" : v);
    }
    for (const k of kids.flat()) {
      if (k === null || k === undefined || k === false) continue;
      e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return e;
  }

  function hue(name) {
    let h = 0;
    for (const c of String(name || "")) h = (h * 31 + c.charCodeAt(0)) % 360;
    return h;
  }

  // A collapsible section: whether it is open is the user's choice, kept across re-renders (a
  // bot's move redraws the board) and reloads, per section.
  const opened = {};
  function collapsible(key, title, attrs, ...kids) {
    const store = "provost.open." + key;
    if (!(key in opened)) {
      let saved = null;
      try { saved = localStorage.getItem(store); } catch (e) { /* no storage (a file page): this page only */ }
      opened[key] = saved !== "0";
    }
    const d = el("details", {...attrs, open: opened[key]}, el("summary", {}, title), ...kids);
    d.addEventListener("toggle", () => {
      opened[key] = d.open;
      try { localStorage.setItem(store, d.open ? "1" : "0"); } catch (e) { /* as above */ }
    });
    return d;
  }

  const fmt = (v) => (v && typeof v === "object" && v.hidden) ? "?" : (v === null || v === undefined ? "" : v);

  function worker(p, players) {
    return el("span", {class: "worker", style: `background:${color(p)}`, title: players[p] || "Neutral player"}, "");
  }

  function piece(pc, players) {
    const label = pc.hidden ? "?" : pc.value;
    return el("span", {class: "piece" + (pc.hidden ? " facedown" : "") + (pc.face_up ? "" : " down"),
                       style: `border-color:${color(pc.owner)};` + (pc.hidden ? "" : `color:${color(pc.owner)}`),
                       title: `${pc.title} of ${players[pc.owner] || "Neutral player"}${pc.hidden ? " (face down)" : pc.face_up ? "" : " (face down to the others)"}`},
              label);
  }

  // ---------------------------------------------------------------- the board
  // watching: the seat shown is nobody's at this screen (a replay, a bot's seat): its panel is
  // marked, but not "(you)"
  function board(view, onPlace, watching) {
    const players = view.players;
    const root = el("div", {class: "board"});
    const place = (name) => onPlace ? {onclick: () => onPlace(name), class: "clickable"} : {};

    for (const t of view.tracks) {
      const cells = t.cells.map((c) => {
        const marks = t.markers.filter((m) => m.at === c.index);
        const cls = ["cell", c.tile ? "built" : "empty", marks.length ? "marked" : ""].join(" ");
        const attrs = c.tile ? place(c.tile) : {};
        return el("div", {class: cls + (attrs.class ? " " + attrs.class : ""), onclick: attrs.onclick,
                          "data-place": c.tile || null, "data-index": c.index,
                          style: c.tile ? `border-top-color:hsl(${hue(c.category)},55%,45%)` : ""},
          el("div", {class: "idx"}, c.index),
          marks.map((m) => el("div", {class: "marker", "data-marker": m.name, title: `${m.title} at ${m.at}`}, m.title)),
          c.tile ? el("div", {class: "tile", title: c.category_title || ""}, c.title) : null,
          c.tile && c.owner !== null && c.owner !== undefined ?
            el("div", {class: "owner", style: `background:${color(c.owner)}`, title: "owned by " + players[c.owner]}, "") : null,
          c.workers && c.workers.length ? el("div", {class: "workers"}, c.workers.map((p) => worker(p, players))) : null,
          c.pieces && c.pieces.length ? el("div", {class: "pieces"}, c.pieces.map((pc) => piece(pc, players))) : null);
      });
      const beyond = t.markers.filter((m) => m.beyond || m.at < 1)
        .map((m) => el("span", {class: "marker", "data-marker": m.name}, `${m.title} at ${m.at}`));
      root.append(el("section", {class: "track", "data-track": t.name},
        el("h2", {}, t.title, beyond.length ? " — " : "", beyond),
        el("div", {class: "cells"}, cells)));
    }

    if (view.groups.length) {
      const groups = el("section", {class: "groups"});
      for (const g of view.groups) {
        if (g.grid) { groups.append(grid(g, players, place)); continue; }
        groups.append(el("div", {class: "group", "data-group": g.name}, el("h3", {}, g.title),
          el("div", {class: "spaces"}, g.spaces.map((s) => {
            const a = place(s.name);
            return el("div", {class: "space" + (a.class ? " " + a.class : ""), onclick: a.onclick, "data-place": s.name},
              el("div", {class: "stitle"}, s.title),
              s.workers.length ? el("div", {class: "workers"}, s.workers.map((p) => worker(p, players))) : null,
              s.pieces.length ? el("div", {class: "pieces"}, s.pieces.map((pc) => piece(pc, players))) : null);
          }))));
      }
      root.append(groups);
    }

    if (view.scales.length) {
      const sc = el("section", {class: "scales"});
      for (const s of view.scales) {
        const rows = s.by.map((label, i) => {
          const boxes = [];
          for (let v = s.min; v <= s.max; v++) {
            let marks = [];
            if (s.per_player) {
              s.values.forEach((row, p) => { if ((Array.isArray(row) ? row[i] : row) === v) marks.push(worker(p, players)); });
            } else if (s.values[i] === v) marks.push(el("span", {class: "chip"}, "●"));
            boxes.push(el("span", {class: "box" + (marks.length ? " on" : "")}, el("small", {}, v), marks));
          }
          // (a scale of one row named as the scale itself: its title already says it)
          const named = s.by.length > 1 || label !== s.title;
          return el("div", {class: "scalerow"}, named ? el("span", {class: "slabel"}, label) : null, boxes);
        });
        sc.append(el("div", {class: "scale", "data-scale": s.name}, el("h3", {}, s.title), rows));
      }
      root.append(sc);
    }

    const sh = view.shared;
    if (sh.counters.length || sh.zones.length || sh.supply.length) {
      const box = el("section", {class: "shared"});
      for (const c of sh.counters) {
        const v = Array.isArray(c.value) ? c.value.map((x, i) => `${c.by ? c.by[i] : i + 1} ${fmt(x)}`).join(", ") : fmt(c.value);
        box.append(el("div", {class: "kv"}, el("b", {}, c.title + ": "), v));
      }
      for (const z of sh.zones) box.append(zone(z));
      if (sh.supply.length) {
        const cats = {};
        for (const s of sh.supply) (cats[s.category_title || "other"] = cats[s.category_title || "other"] || []).push(s);
        box.append(collapsible("supply", "Supply", {class: "supply"},
          Object.entries(cats).map(([cat, lst]) => el("div", {class: "kv"}, el("b", {}, cat + ": "),
            lst.map((s) => el("span", {class: "stock", "data-kind": s.kind, style: `border-color:hsl(${hue(s.category)},55%,45%)`},
              s.title + (s.count > 1 ? ` ×${s.count}` : s.count < 0 ? " ×∞" : "")))))));
      }
      root.append(box);
    }

    const panels = el("section", {class: "panels"});
    for (const p of view.panels) {
      panels.append(el("div", {class: "panel" + (p.you ? " you" : "") + (view.to_move === p.seat ? " tomove" : ""),
                               "data-seat": p.seat, style: `border-color:${color(p.seat)}`},
        el("h3", {style: `background:${color(p.seat)}`}, p.name + (p.you ? (watching ? " (watched)" : " (you)") : ""),
          view.to_move === p.seat ? " ◀ to decide" : ""),
        el("div", {class: "res"}, p.resources.map((r) =>
          el("span", {class: "r" + (r.score ? " score" : "") + (r.value && r.value.hidden ? " facedown" : ""), "data-res": r.name},
            el("b", {}, fmt(r.value)), " " + r.title))),
        p.counters.length ? el("div", {class: "cts"}, p.counters.map((c) => el("span", {class: "kv"},
          c.title + ": ", typeof c.value === "object" && !c.value.hidden ?
            Object.entries(c.value).map(([k, v]) => `${k} ${v}`).join(", ") : fmt(c.value)))) : null,
        Object.keys(p.order).length ? el("div", {class: "cts"}, Object.entries(p.order).map(([o, i]) => el("span", {class: "kv"}, `${o}: ${i}`))) : null,
        p.zones.map(zone),
        p.pieces.map((g) => el("div", {class: "kv"}, el("b", {}, g.title + ": "), g.pieces.map((pc) => piece(pc, players))))));
    }
    root.append(panels);
    return root;
  }

  // the names of the places drawn on the board: the tiles on the tracks, the spaces
  function boardPlaces(view) {
    return [...new Set([...view.tracks.flatMap((t) => t.cells.map((c) => c.tile).filter((x) => x)),
                        ...view.groups.flatMap((g) => g.spaces.map((sp) => sp.name))])];
  }

  // spaces that two tags place in a table (rows x columns), each cell titled by its space
  function grid(g, players, place) {
    const t = el("table", {class: "grid"});
    t.append(el("tr", {}, el("th", {}, ""), g.grid.cols.map((c) => el("th", {}, c))));
    g.grid.rows.forEach((r, i) => {
      const tr = el("tr", {}, el("th", {class: "rowh"}, r));
      g.grid.cols.forEach((c, j) => {
        const s = g.spaces.find((x) => x.row === i && x.col === j);
        if (!s) { tr.append(el("td", {})); return; }
        const a = place(s.name);
        tr.append(el("td", {class: "space" + (a.class ? " " + a.class : ""), onclick: a.onclick, "data-place": s.name, title: s.title},
          s.workers.length ? el("div", {class: "workers"}, s.workers.map((p) => worker(p, players))) : null,
          s.pieces.length ? el("div", {class: "pieces"}, s.pieces.map((pc) => piece(pc, players))) : null));
      });
      t.append(tr);
    });
    return el("div", {class: "group", "data-group": g.name}, el("h3", {}, g.title), t);
  }

  function zone(z) {
    return el("div", {class: "zone", "data-zone": z.name}, el("b", {}, z.title + ": "),
      z.parts.map((part) => el("span", {class: "part"}, part.title ? part.title + " " : "",
        part.hidden ? el("span", {class: "facedown"}, `${part.count} face down`) :
          part.items.length ? part.items.map((it) => el("span", {class: "card"}, it)) : el("i", {}, "empty"))));
  }

  // watching: the seat is a bot's, seen through its eyes (a game of bots only), or "public":
  // the spectators' link, the board as every seat may see it
  function header(view, extra, watching) {
    const who = view.waiting_for !== undefined && view.waiting_for !== null ? (view.players[view.waiting_for] || "Neutral player") : null;
    return el("header", {},
      el("h1", {}, view.title),
      el("span", {class: "where"}, `Round ${view.round} — ${view.phase_title}`),
      watching === "public" ? el("span", {class: "who"}, "Watching: what every seat sees") :
      view.seat !== null && view.seat !== undefined ? el("span", {class: "who", style: `color:${color(view.seat)}`},
        `${watching ? "Watching" : "You"}: ${view.players[view.seat] || "Neutral"}`) : null,
      // a decision offered to this seat: said where the eye starts, not only beside the buttons
      view.options && view.options.length ? el("span", {class: "turn", id: "turn"}, "Your turn") : null,
      who ? el("span", {class: "wait"}, `${who} to decide${view.waiting_prompt ? ": " + view.waiting_prompt : ""}`) : null,
      extra || null);
  }

  // The game's end, said once in the header and laid out beside the board: each player's place
  // and score, the winners first, then by score (the engine's tie-breaks decide the winners).
  function resultLine(result, players) {
    return el("span", {class: "result", id: "result"}, "Game over — " +
      result.scores.map((s, i) => `${players[i]} ${s}`).join(", ") + " — winner: " +
      result.winners.map((w) => players[w]).join(", "));
  }
  function standings(result, players, seat) {
    const key = (i) => [result.winners.includes(i) ? 1 : 0, result.scores[i]];
    const ahead = (a, b) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1]);
    const seats = result.scores.map((_, i) => i).sort((a, b) => ahead(key(a), key(b)) ? -1 : ahead(key(b), key(a)) ? 1 : a - b);
    const rows = seats.map((i) => {
      const place = 1 + seats.filter((j) => ahead(key(j), key(i))).length;
      const won = result.winners.includes(i);
      return el("tr", {class: (won ? "winner" : "") + (i === seat ? " you" : ""), "data-seat": i},
        el("td", {}, place), el("td", {style: `color:${color(i)}`}, players[i] + (i === seat ? " (you)" : "")),
        el("td", {class: "num"}, result.scores[i]), el("td", {}, won ? "winner" : ""));
    });
    const title = result.winners.length > 1 ? "Game over — a shared victory" :
      `Game over — ${players[result.winners[0]]}${result.winners[0] === seat ? " (you)" : ""} wins`;
    return el("div", {class: "standings", id: "standings"}, el("h2", {}, title),
      el("table", {}, el("tr", {}, el("th", {}, "place"), el("th", {}, "player"), el("th", {}, "score"), el("th", {}, "")), rows));
  }

  // What happened since a seat last played: the others' moves since its move before them, and
  // its own moves after those (a decision of several steps); nobody's seat: the last three.
  function sinceLastMove(log, seat) {
    let j = log.length;
    while (seat !== null && j > 0 && log[j - 1].player === seat) j--;
    let k = j;
    while (seat !== null && k > 0 && log[k - 1].player !== seat) k--;
    return seat !== null && k < j ? k : Math.max(0, log.length - 3);
  }

  function logList(log, upto, seat) {
    const since = sinceLastMove(log, seat);
    const ol = el("ol", {class: "log", id: "log"});
    log.forEach((d, i) => ol.append(el("li", {class: (upto !== null && i >= upto ? "future" : "") + (i >= since ? " recent" : ""), value: d.n, "data-player": d.player},
      el("span", {class: "lp"}, `R${d.round} ${d.phase}`), " ",
      el("b", {style: `color:${color(d.player)}`}, d.who), ": ", d.text,
      d.prompt && d.text !== d.prompt ? el("small", {}, ` (${d.prompt})`) : null)));
    return ol;
  }

  // ---------------------------------------------------------------- the seat's page (server)
  async function api(url, opts) {
    const r = await fetch(url, opts);
    let data;
    try { data = await r.json(); } catch (e) { data = {error: `${r.status} ${r.statusText}`}; }
    if (!r.ok) throw Object.assign(new Error(data.error || `${r.status}`), {status: r.status});
    return data;
  }

  function tablePage() {
    const m = location.pathname.match(/^\/t\/([^/]+)\/([^/]+)/);
    const base = `/api/t/${m[1]}/${m[2]}`;
    const params = new URLSearchParams(location.search);
    let speed = params.has("speed") ? Number(params.get("speed")) : 600;
    const app = document.getElementById("app");
    // The decision stepped to and the speed chosen are kept in the address: a reload keeps them.
    let state = null, at = /^[0-9]{1,9}$/.test(params.get("at") || "") ? Number(params.get("at")) : null;
    let busy = false, message = "", whyText = "";
    function remember(chosenSpeed) {
      const q = new URLSearchParams(location.search);
      if (at === null) q.delete("at"); else q.set("at", at);
      if (chosenSpeed) q.set("speed", speed);
      const query = q.toString();
      history.replaceState(null, "", location.pathname + (query ? "?" + query : ""));
    }

    // Only the answer to the latest request is drawn: stepping fast with the keyboard asks for
    // several boards at once, and an earlier one answered last must not replace the one stepped to.
    let asked = 0;
    async function load() {
      const mine = ++asked;
      try { const s = await api(base + (at !== null ? `?at=${at}` : "")); if (mine === asked) show(s); }
      catch (e) { if (mine === asked) { message = e.message; render(); } }
    }
    function show(s) {
      state = s;
      if (at !== null && at >= s.decisions) at = null;     // (a place past the game's end: now)
      remember(); render(); schedule();
    }
    // One timer for what comes next (a bot's move, or asking whether another seat has moved):
    // every redraw sets it again, so stepping back and forth never starts a second round of asking.
    let timer = null;
    function later(fn, ms) { clearTimeout(timer); timer = setTimeout(() => { timer = null; fn(); }, ms); }
    function schedule() {
      if (state && state.bot_to_move && at === null) later(advance, speed);
    }
    async function advance() {
      if (busy || at !== null) return;
      busy = true;
      try { show(await api(base + "/advance", {method: "POST"})); } catch (e) { failed(e); }
      finally { busy = false; }
    }
    async function move(option) {
      if (busy) return;
      busy = true; message = ""; whyText = "";
      try { show(await api(base + "/move", {method: "POST", headers: {"Content-Type": "application/json"},
                                             body: JSON.stringify({option, n: state.decisions})})); }
      catch (e) { failed(e); }
      finally { busy = false; }
    }
    // 507: the move was played but could not be saved; the game goes on, so the board is fetched again.
    function failed(e) { message = e.message; if (e.status === 507) load(); else render(); }
    async function why(option) {
      option = option.trim();
      if (!option) whyText = "Type an option's id (a button's tooltip shows its id), or click a place on the board.";
      else {
        try { whyText = `${option}: ` + (await api(base + "/why?option=" + encodeURIComponent(option))).why; }
        catch (e) { whyText = e.message; }
      }
      render();
    }
    function onPlace(name) {
      if (!state || !state.your_turn) return;
      const opts = state.view.options.map((o) => o.id);
      const hit = opts.find((o) => o.split(":")[1] === name);
      if (hit) move(hit);
      else {
        const heads = [...new Set(opts.filter((o) => o.includes(":")).map((o) => o.split(":")[0]))];
        why(`${heads[0] || "place"}:${name}`);
      }
    }
    // Keyboard use: every redraw replaces the page, so the control that had the focus (the
    // slider, the speed menu) gets it back, and a player who answered a decision from the
    // keyboard finds the focus at the next decision (its prompt: Tab goes on to its options).
    let inDecision = false;
    function refocus(focusedId) {
      const again = focusedId && document.getElementById(focusedId);
      if (again) again.focus();
      else if (inDecision && state && state.your_turn) { document.getElementById("prompt").focus({preventScroll: true}); inDecision = false; }
    }
    function render() {
      const f = document.activeElement;
      const focusedId = f && f !== document.body && app.contains(f) ? f.id : "";
      if (f && f.closest && f.closest("#decision") && !f.id) inDecision = true;
      app.replaceChildren();
      app.dataset.n = state ? state.decisions : "";       // tests wait on these
      app.dataset.turn = state && state.your_turn ? "yes" : "no";
      if (!state) { app.append(el("p", {class: "error"}, message || "loading…")); return; }
      const v = state.view;
      const status = state.finished ? resultLine(state.result, v.players) :
        state.replay ? el("span", {class: "wait"}, "Replay") : null;
      // A replay is watched, whoever played the seat (its log may name a human there).
      const watching = state.spectator ? "public" : state.replay || state.agents[state.seat] !== "human";
      app.append(header(v, status, watching));
      const side = el("aside", {});
      // the decision
      const dec = el("section", {class: "decision", id: "decision"});
      if (state.your_turn) {
        dec.append(el("h2", {id: "prompt", tabindex: -1}, v.prompt || "Your decision"),
          el("div", {class: "options"}, v.options.map((o) => el("button", {class: "opt", "data-option": o.id, title: o.id,
            onclick: () => move(o.id)}, o.label))));
        const heads = [...new Set(v.options.filter((o) => o.id.includes(":")).map((o) => o.id.split(":")[0]))];
        const inp = el("input", {id: "whyopt", placeholder: heads.length ? heads[0] + ":…" : "option id", list: "whylist"});
        // what there is to ask about: the board's places that are not among the options
        const offered = new Set(v.options.map((o) => o.id));
        const askable = heads.length ? boardPlaces(v).map((p) => `${heads[0]}:${p}`).filter((id) => !offered.has(id)) : [];
        dec.append(el("div", {class: "why"}, "Why not…? ", inp,
          el("datalist", {id: "whylist"}, askable.map((id) => el("option", {value: id}))),
          el("button", {id: "whybtn", onclick: () => why(inp.value)}, "ask"),
          el("small", {}, " or click a place on the board")));
      } else if (at !== null) {
        dec.append(el("p", {}, `Showing the board before decision ${at + 1} of ${state.decisions}. `,
          el("button", {id: "now", onclick: () => { at = null; inDecision = true; load(); }}, "Back to now")));
      } else if (!state.finished) {
        dec.append(el("p", {class: "waiting"}, state.bot_to_move ? "Bots are playing…" : "Waiting for another player…"));
        if (!state.bot_to_move) later(() => { if (at === null && !busy) load(); }, 1500);
      }
      if (state.finished && at === null) {
        dec.append(standings(state.result, v.players, watching ? null : state.seat));
      }
      if (state.finished && !state.replay) {
        dec.append(el("p", {}, el("a", {href: base + "/log", id: "gamelog", download: ""}, "Download the game log"),
          " — replay it with ", el("code", {}, "provost serve --replay LOG"), " or ", el("code", {}, "provost view LOG -o game.html")));
      }
      if (whyText) dec.append(el("p", {class: "whytext", id: "whytext"}, whyText));
      if (message) dec.append(el("p", {class: "error", id: "error", role: "alert"}, message));
      side.append(dec);
      // step-through
      // (one decision at a time with ◀ ▶: the slider alone is too coarse in a long game)
      const shown = at === null ? state.decisions : at;
      const stepTo = (n) => { n = Math.max(0, Math.min(n, state.decisions)); at = n >= state.decisions ? null : n; load(); };
      const slider = el("input", {type: "range", id: "slider", min: 0, max: state.decisions, value: shown,
        onchange: (e) => stepTo(Number(e.target.value))});
      // (the speed menu is one of the controls: in a narrow window it comes first with them)
      side.append(el("section", {class: "stepper"}, el("label", {}, "Step through: ", slider),
        el("div", {}, el("button", {id: "prev", title: "the board one decision earlier", onclick: () => stepTo(shown - 1)}, "◀"),
          el("button", {id: "next", title: "one decision later", onclick: () => stepTo(shown + 1)}, "▶"),
          el("span", {id: "stepat"}, ` ${shown} / ${state.decisions}`)),
        state.replay ? null : el("label", {}, " bot speed ", el("select", {id: "speed", onchange: (e) => { speed = Number(e.target.value); remember(true); }},
          [[1200, "slow"], [600, "normal"], [150, "fast"], [0, "instant"]].map(([ms, l]) =>
            el("option", {value: ms, selected: ms === speed}, l))))));
      side.append(el("section", {class: "logbox"}, el("h2", {}, "Log", watching ? null : el("small", {class: "since"}, " (highlighted: since your last move)")),
        logList(state.log, at, watching ? null : state.seat)));
      app.append(el("main", {}, board(v, state.your_turn ? onPlace : null, watching), side));
      // the last move this seat may know of: its place on the board, outlined
      const last = at === null ? state.log[state.log.length - 1] : state.log[at - 1];
      if (last && last.option) {
        for (const part of last.option.split(":").slice(1)) {
          for (const e of app.querySelectorAll(`[data-place="${CSS.escape(part.split("/")[0])}"]`)) e.classList.add("lastmove");
        }
      }
      document.title = `${state.your_turn ? "Your turn — " : ""}${v.title} — ${v.players[v.seat] || "table"}`;
      const lg = document.getElementById("log");
      if (lg) lg.scrollTop = lg.scrollHeight;
      refocus(focusedId);
    }
    load();
  }

  // ---------------------------------------------------------------- the new-game page
  async function newGamePage() {
    const info = await api("/api/rulesets");
    const $ = (id) => document.getElementById(id);
    if (info.replay_links) {
      $("replay").append(el("p", {}, "Replay of a logged game — watch it as: ",
        info.replay_links.map((l) => el("a", {href: l.url, class: "seatlink"}, l.name + " "))));
    }
    for (const r of info.rulesets) $("ruleset").append(el("option", {value: r.ruleset}, r.title));
    const d = info.defaults || {};
    if (d.ruleset) $("ruleset").value = d.ruleset;
    function pick() {
      const r = info.rulesets.find((x) => x.ruleset === $("ruleset").value);
      $("variant").replaceChildren(el("option", {value: ""}, "(none)"), ...r.variants.map((v) => el("option", {value: v.name}, v.title)));
      if (d.variant && r.variants.some((v) => v.name === d.variant)) $("variant").value = d.variant;
      $("players").value = d.players && d.ruleset === r.ruleset ? d.players : Math.max(r.players[0], Math.min(4, r.players[1]));
      counts();
    }
    // the counts the chosen rules are played for: a variant's own (Ys's 2-player variants: 2), the
    // count asked for kept when it is one of them
    function counts() {
      const r = info.rulesets.find((x) => x.ruleset === $("ruleset").value);
      const v = r.variants.find((x) => x.name === $("variant").value);
      const [lo, hi] = (v && v.players) || r.players;
      $("players").min = lo; $("players").max = hi;
      const n = Number($("players").value);
      if (!(n >= lo && n <= hi)) $("players").value = Math.max(lo, Math.min(4, hi));
      $("description").textContent = (v && v.description) || r.description || "";
      seats();
    }
    function seats() {
      const n = Number($("players").value) || 1;
      const box = $("seats");
      const chosen = [...box.querySelectorAll(".seatkind")].map((s) => s.value);   // kept: a new count keeps the seats chosen
      box.replaceChildren(el("legend", {}, "Seats"));
      for (let i = 0; i < n; i++) {
        const dflt = i < chosen.length ? chosen[i] :
          (d.agents && d.agents.length) ? d.agents[Math.min(i, d.agents.length - 1)] : (i === 0 ? "human" : "greedy");
        box.append(el("label", {}, `Player ${i + 1} `, el("select", {name: `seat${i}`, class: "seatkind"},
          info.agents.map((a) => el("option", {value: a, selected: a === dflt}, a)))));
      }
    }
    $("ruleset").addEventListener("change", pick);
    $("players").addEventListener("change", seats);
    $("variant").addEventListener("change", counts);
    pick();
    $("form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      $("error").textContent = "";
      const agents = [...document.querySelectorAll(".seatkind")].map((s) => s.value);
      try {
        const g = await api("/api/games", {method: "POST", headers: {"Content-Type": "application/json"},
          body: JSON.stringify({ruleset: $("ruleset").value, variant: $("variant").value || null,
                                players: Number($("players").value), seed: $("seed").value.trim() || null, agents})});
        if (g.seats.length === 1) location.href = g.seats[0].url;
        else {
          $("links").replaceChildren(el("p", {}, agents.includes("human") ? "One link per seat (open each in its own window):" :
              "Bots only: watch the game through any seat's eyes (each link shows what that seat sees):"),
            el("ul", {}, g.seats.map((s) => el("li", {}, el("a", {href: s.url, class: "seatlink", target: "_blank"}, s.name)))));
        }
      } catch (e) { $("error").textContent = e.message; }
    });
  }

  // ---------------------------------------------------------------- `provost view`: one file, no server
  async function staticPage() {
    const raw = document.getElementById("provost-data").textContent.trim();
    let data;
    const bytes = Uint8Array.from(atob(raw), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    data = JSON.parse(await new Response(stream).text());
    const app = document.getElementById("app");
    let seat = 0, at = data.frames[0].length - 1;
    function render() {
      const f = document.activeElement;
      const focusedId = f && f !== document.body && app.contains(f) ? f.id : "";
      app.replaceChildren();
      const v = data.frames[seat][at];
      const last = at === data.frames[seat].length - 1;
      // (as the server's replay says it: the game's result with its winners, and the seat watched, not "You")
      const result = last && data.result ? resultLine(data.result, v.players) : null;
      app.append(header(v, result, true));
      const side = el("aside", {});
      const slider = el("input", {type: "range", id: "slider", min: 0, max: data.frames[seat].length - 1, value: at,
        oninput: (e) => { at = Number(e.target.value); render(); }});
      side.append(el("section", {class: "stepper"},
        el("label", {}, "Seen by ", el("select", {id: "seat", onchange: (e) => { seat = Number(e.target.value); render(); }},
          data.seats.map((name, i) => el("option", {value: i, selected: i === seat}, name)))),
        el("div", {}, el("button", {id: "prev", onclick: () => { if (at > 0) { at--; render(); } }}, "◀"),
          slider, el("button", {id: "next", onclick: () => { if (at < data.frames[seat].length - 1) { at++; render(); } }}, "▶"),
          el("span", {id: "stepat"}, ` ${at} / ${data.frames[seat].length - 1}`))));
      side.append(el("section", {class: "logbox"}, el("h2", {}, "Log"), logList(data.logs[seat], at, null)));
      if (last && data.result) side.prepend(el("section", {class: "decision"}, standings(data.result, v.players, null)));
      app.append(el("main", {}, board(v, null, true), side));
      const again = focusedId && document.getElementById(focusedId);
      if (again) again.focus();       // (as on the server's page: the step buttons keep the keyboard)
    }
    render();
  }

  return {board, tablePage, newGamePage, staticPage};
})();
