// The league's page: a player's place and points; a referee's desk — the day's games, a sheet
// filled in by taps, checked live by the /录分 rule on the server, sent as /录分 or /改分.
"use strict";
(() => {
  const { el, call } = Web;
  const $ = id => document.getElementById(id);
  const MAX_DAY = 8;
  let view = null;
  let desk = null;
  let L = {};
  let cur = null; // { key, label, draft, board }
  let last = null; // the last check's answer
  let seq = 0;
  let timer = null;
  const pending = { day: 1, runoff: false, target: 0, voters: new Set(), tday: 1, stage: new Set(), boom: false };

  const fmt = (s, args) => s.replace(/\{(\w+)\}/g, (_, k) => (k in args ? String(args[k]) : ""));
  const storeKey = key => `league-desk:${location.pathname}:${key}`;
  const clone = x => JSON.parse(JSON.stringify(x));

  function stored(key) {
    try { return JSON.parse(localStorage.getItem(storeKey(key)) || "null"); } catch (e) { return null; }
  }
  function save() {
    if (!cur) return;
    try { localStorage.setItem(storeKey(cur.key), JSON.stringify(cur.draft)); } catch (e) { /* private mode: no drafts kept */ }
  }
  function forget(key) { try { localStorage.removeItem(storeKey(key)); } catch (e) { /* nothing kept */ } }

  function option(value, text, selected) {
    return el("option", { value: String(value), text, selected: !!selected });
  }
  function seatName(n) {
    const s = cur.draft.seats.find(x => x.gseat === n);
    return fmt(L.seat, { n }) + (s ? " " + s.name : "");
  }

  // ---- the page ----------------------------------------------------------------------------

  function show(v) {
    view = v;
    Web.setClock(v.now);
    Web.header(v);
    Web.recent(v);
    const pg = v.page;
    if (!pg) return;
    $("me-box").hidden = !pg.me;
    if (pg.me) { $("info").textContent = pg.me.info; $("points-me").textContent = pg.me.points; }
    $("desk-box").hidden = $("bar").hidden = !pg.desk;
    if (!pg.desk) return;
    desk = pg.desk;
    L = desk.labels;
    $("day").textContent = desk.day ? desk.day.label : desk.round;
    $("desk-note").textContent = desk.note || "";
    $("slots").replaceChildren(...desk.slots.map(s => el("button", {
      type: "button", class: "slot" + (s.game ? " done" : "") + (cur && cur.key === s.key ? " on" : ""), "data-slot": s.key,
      onclick: () => pickSlot(s),
    }, el("b", { text: s.label }), el("span", { text: s.status }))));
    $("reopen").replaceChildren(option("", L.reopen, true), ...desk.entered.map(g => option(g.game, g.label)));
    const again = cur && desk.slots.find(s => s.key === cur.key);
    if (again) pickSlot(again);
    else if (!cur && desk.slots.length) pickSlot(desk.slots.find(s => !s.game) || desk.slots[0]);
    else if (!desk.slots.length) { $("editor").hidden = true; $("bar").hidden = true; }
  }

  function pickSlot(slot) {
    const keep = stored(slot.key);
    const fresh = slot.draft;
    const same = keep && keep.game === fresh.game && keep.seats.length === fresh.seats.length
      && keep.seats.every((s, i) => s.seat === fresh.seats[i].seat);
    open({ key: slot.key, label: slot.label, draft: same ? keep : clone(fresh), board: desk.boards[fresh.board] });
  }

  function open(c) {
    cur = c;
    for (const b of document.querySelectorAll("#slots .slot")) b.classList.toggle("on", b.dataset.slot === c.key);
    pending.voters.clear();
    pending.stage.clear();
    pending.target = 0;
    $("editor").hidden = false;
    $("bar").hidden = false;
    render();
    check();
  }

  function changed() {
    save();
    render();
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  }

  // ---- the editor ------------------------------------------------------------------------

  function render() {
    const d = cur.draft;
    $("ed-title").textContent = d.game ? fmt(L.rescore_of, { label: cur.label, game: d.game }) : fmt(L.score_of, { label: cur.label });
    $("ed-note").textContent = d.note || "";
    $("winner").replaceChildren(el("span", { class: "muted", text: L.winner }), ...desk.sides.map(side => el("button", {
      type: "button", class: "side" + (d.winner === side ? " on" : ""), "data-side": side, text: side,
      onclick: () => { d.winner = d.winner === side ? "" : side; changed(); },
    })));
    const used = {};
    for (const s of d.seats) if (s.role) used[s.role] = (used[s.role] || 0) + 1;
    $("roles-left").textContent = `${L.roles_left} ${cur.board.name}：` + cur.board.roles.map(r => `${r.role} ${used[r.role] || 0}/${r.n}`).join(" · ");
    $("seats").replaceChildren(...d.seats.map(seatCard));
    renderVotes();
    $("send").textContent = d.game ? fmt(L.resend, { game: d.game }) : L.send;
    $("restart").textContent = L.restart;
    $("sheet-summary").textContent = L.sheet;
  }

  function seatCard(s) {
    const role = cur.board.roles.find(r => r.role === s.role);
    const pick = el("select", { class: "role", "aria-label": L.role },
      option("", L.role, !s.role), ...cur.board.roles.map(r => option(r.role, `${r.role}（${r.side}）`, r.role === s.role)));
    pick.addEventListener("change", () => {
      s.role = pick.value;
      const evs = (cur.board.roles.find(r => r.role === s.role) || { events: [] }).events.map(e => e.name);
      s.events = s.events.filter(e => evs.includes(e.name)); // another role's events go with the old role
      changed();
    });
    const toggle = (field, label) => el("button", {
      type: "button", class: "tap toggle" + (s[field] ? " on" : ""), text: label,
      onclick: () => { s[field] = !s[field]; changed(); },
    });
    const taps = (role ? role.events : []).map(e => el("button", {
      type: "button", class: "tap", title: e.label, text: `+${e.name}`,
      onclick: () => { s.events.push({ name: e.name, time: "" }); changed(); },
    }, el("small", { text: e.label })));
    const viol = el("select", { class: "viol", "aria-label": L.violation },
      option("", L.violation, true), ...desk.violations.map(t => option(t, t)));
    viol.addEventListener("change", () => { if (viol.value) { s.violations.push(viol.value); changed(); } });
    const picked = s.events.map((e, i) => {
      const when = el("select", { "aria-label": L.no_time }, option("", L.no_time, !e.time));
      for (let n = 1; n <= MAX_DAY; n++) {
        for (const [k, w] of [["night", L.night_word], ["day", L.day_word]]) when.append(option(w + n, fmt(L[k], { n }), e.time === w + n));
      }
      when.addEventListener("change", () => { e.time = when.value; changed(); });
      return el("span", { class: "chip" }, el("b", { text: e.name }), when,
        el("button", { type: "button", class: "x", "aria-label": L.remove, text: "×", onclick: () => { s.events.splice(i, 1); changed(); } }));
    });
    const viols = s.violations.map((t, i) => el("span", { class: "chip bad" }, el("b", { text: fmt(L.viol_chip, { type: t }) }),
      el("button", { type: "button", class: "x", "aria-label": L.remove, text: "×", onclick: () => { s.violations.splice(i, 1); changed(); } })));
    return el("li", { class: "seat" + (s.role ? "" : " empty"), "data-gseat": String(s.gseat) },
      el("div", { class: "seat-head" }, el("b", { class: "no", text: fmt(L.seat, { n: s.gseat }) }), el("span", { class: "who", text: s.name }), pick),
      el("div", { class: "taps" }, ...taps, toggle("badge", L.badge), toggle("mvp", L.mvp), toggle("svp", L.svp), viol),
      picked.length || viols.length ? el("div", { class: "picked" }, ...picked, ...viols) : null,
      el("ul", { class: "seat-errors" }));
  }

  function seatGrid(box, chosen, onTap) {
    box.replaceChildren(...cur.draft.seats.map(s => el("button", {
      type: "button", class: "num" + (chosen.has(s.gseat) ? " on" : ""), title: s.name, text: String(s.gseat),
      onclick: () => { onTap(s.gseat); },
    })));
  }

  function days(sel, value, first) {
    sel.replaceChildren(...(first ? [first] : []));
    for (let n = 1; n <= MAX_DAY; n++) sel.append(option(n, fmt(L.day_n, { n }), n === value));
  }

  function renderVotes() {
    const d = cur.draft;
    days($("v-day"), pending.day);
    $("v-kind").replaceChildren(option("vote", L.vote, !pending.runoff), option("runoff", L.runoff, pending.runoff));
    $("v-target").replaceChildren(option(0, L.target, !pending.target),
      ...d.seats.map(s => option(s.gseat, seatName(s.gseat), s.gseat === pending.target)));
    $("v-voters-label").textContent = L.voters;
    seatGrid($("v-voters"), pending.voters, n => { pending.voters.has(n) ? pending.voters.delete(n) : pending.voters.add(n); renderVotes(); });
    $("v-add").textContent = L.add_vote;
    $("votes").replaceChildren(...d.votes.map((v, i) => el("li", { "data-vote": String(i) },
      el("span", { text: fmt(L.vote_line, { day: v.day, word: v.runoff ? L.runoff : L.vote, target: v.target, voters: v.voters.join(" ") }) }),
      el("button", { type: "button", class: "x", "aria-label": L.remove, text: "×", onclick: () => { d.votes.splice(i, 1); changed(); } }))));
    days($("t-day"), pending.tday);
    $("t-boom").checked = pending.boom;
    $("t-boom-label").textContent = L.selfboom;
    $("t-stage-label").textContent = L.stage;
    seatGrid($("t-stage"), pending.stage, n => { pending.stage.has(n) ? pending.stage.delete(n) : pending.stage.add(n); renderVotes(); });
    $("t-add").textContent = L.add_tie;
    $("ties").replaceChildren(...d.ties.map((t, i) => el("li", { "data-tie": String(i) },
      el("span", { text: fmt(L.tie_line, { day: t.day, stage: t.stage.join(" "), boom: t.selfboom ? L.boom : "" }) }),
      el("button", { type: "button", class: "x", "aria-label": L.remove, text: "×", onclick: () => { d.ties.splice(i, 1); changed(); } }))));
    days($("bind"), d.bind, option("", L.no_bind, d.bind === null));
    for (const o of $("bind").options) if (o.value) o.textContent = `${L.bind} ${o.textContent}`;
  }

  $("v-day").addEventListener("change", () => { pending.day = Number($("v-day").value); });
  $("v-kind").addEventListener("change", () => { pending.runoff = $("v-kind").value === "runoff"; });
  $("v-target").addEventListener("change", () => { pending.target = Number($("v-target").value); });
  $("v-add").addEventListener("click", () => {
    if (!cur || !pending.target || !pending.voters.size) return;
    cur.draft.votes.push({ day: pending.day, runoff: pending.runoff, target: pending.target, voters: [...pending.voters].sort((a, b) => a - b) });
    pending.voters.clear();
    pending.target = 0;
    changed();
  });
  $("t-day").addEventListener("change", () => { pending.tday = Number($("t-day").value); });
  $("t-boom").addEventListener("change", () => { pending.boom = $("t-boom").checked; });
  $("t-add").addEventListener("click", () => {
    if (!cur || pending.stage.size < 2) return;
    cur.draft.ties.push({ day: pending.tday, stage: [...pending.stage].sort((a, b) => a - b), selfboom: pending.boom });
    pending.stage.clear();
    pending.boom = false;
    changed();
  });
  $("bind").addEventListener("change", () => { cur.draft.bind = $("bind").value ? Number($("bind").value) : null; changed(); });
  $("restart").addEventListener("click", () => {
    if (!cur) return;
    forget(cur.key);
    const slot = desk.slots.find(s => s.key === cur.key);
    if (slot) pickSlot(slot);
  });
  async function reopen(game) {
    const slot = desk.slots.find(s => s.game === game);
    if (slot) { pickSlot(slot); return; }
    const r = await call("POST", "api/x/open", { game });
    if (!r.ok) { Web.answer([r.error], false); return; }
    open({ key: `game-${game}`, label: r.label, draft: r.draft, board: r.board });
  }
  $("reopen").addEventListener("change", () => {
    const game = Number($("reopen").value);
    $("reopen").value = "";
    if (game) reopen(game);
  });

  // ---- the check and the send ------------------------------------------------------------

  async function check() {
    if (!cur) return null;
    const mine = ++seq;
    $("bar-state").textContent = L.checking;
    $("send").disabled = true;
    const r = await call("POST", "api/x/check", { draft: cur.draft });
    if (mine !== seq) return null; // a newer check is on its way
    last = r;
    result(r);
    return r;
  }

  function result(r) {
    const errors = r.errors || (r.error ? [r.error] : []);
    const where = r.where || {};
    for (const li of document.querySelectorAll("#seats .seat")) {
      li.classList.remove("bad");
      li.querySelector(".seat-errors").replaceChildren();
    }
    for (const e of errors) {
      const m = /^第(\d+)行/.exec(e);
      const at = m && where[m[1]];
      if (at && at.seat) {
        const li = document.querySelector(`#seats .seat[data-gseat="${at.seat}"]`);
        if (li) { li.classList.add("bad"); li.querySelector(".seat-errors").append(el("li", { text: e })); }
      }
    }
    const empty = cur.draft.seats.filter(s => !s.role).length;
    $("errors").replaceChildren(...errors.map(e => el("li", { text: e })));
    $("notes").replaceChildren(...(r.notes || []).map(n => el("li", { text: n })));
    $("picture-note").textContent = r.ok && r.picture ? L.picture : "";
    $("sheet-text").textContent = r.text || "";
    $("points-title").textContent = r.ok ? r.title : "";
    $("points").replaceChildren(...(r.ok ? r.points : []).map(p => el("li", { "data-gseat": String(p.gseat) },
      el("span", { class: "who" }, el("b", { text: fmt(L.seat, { n: p.gseat }) }), ` ${p.name} ${p.role} ${p.result}`,
        p.award ? el("span", { class: "tag on", text: p.award }) : null),
      el("span", { class: "nums" },
        el("span", { text: `${L.game} ${p.line}` }),
        el("span", { text: `${L.total} ${p.before === p.after ? p.after : `${p.before} → ${p.after}`}` }),
        el("span", { text: p.rank ? fmt(L.rank, { n: p.rank }) : "—" })))));
    $("bar-state").textContent = r.ok ? L.ok
      : [empty ? fmt(L.empty_roles, { n: empty }) : "", fmt(L.wrong, { n: errors.length })].filter(Boolean).join(" · ");
    $("bar").classList.toggle("ready", !!r.ok);
    $("send").disabled = !r.ok;
  }

  $("send").addEventListener("click", async () => {
    clearTimeout(timer);
    const r = await check(); // the text sent is the one just checked
    if (!r || !r.ok) return;
    $("send").disabled = true;
    const done = await call("POST", "api/act", { word: r.word, rest: r.rest, host: true });
    Web.answer(done.replies || [done.error || ""], !!done.ok);
    if (done.ok) forget(cur.key);
    if (done.view) show(done.view);
    if (done.ok && cur.key.startsWith("game-")) reopen(cur.draft.game); // an earlier day's game: as now stored
  });

  async function load() {
    const r = await call("GET", "api/view");
    if (r.ok === false) { Web.answer([r.error], false); return; }
    show(r);
  }
  load();
})();
