// The rehearsal room's fake QQ: chats on the left (a drawer on a phone), the open
// chat on the right, a speaker picker; everything comes from /api/log (long polling).
"use strict";

const $ = (id) => document.getElementById(id);
const COLORS = ["#4e7cf6", "#f77234", "#14c9c9", "#9a5cf0", "#f5319d", "#3bb346", "#e8a400", "#5d7092"];
const state = { run: "", users: [], names: {}, group: "", chats: {}, open: "", next: 0, speaker: "" };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

function avatar(id) {
  const a = el("div", "avatar");
  if (id === "bot") { a.textContent = "机"; a.style.background = "#12b7f5"; return a; }
  const u = state.names[id] || id;
  a.textContent = u === "主持人" ? "主" : u.replace(/^玩家/, "");
  a.style.background = COLORS[Number(id) % COLORS.length];
  return a;
}

function chatTitle(key) {
  const [kind, id] = key.split(":");
  if (kind === "group") return id === state.group ? `演示群（${id}）` : `群 ${id}`;
  return `${state.names[id] || id} 与机器人的私聊`;
}

function ensureChat(key) {
  if (state.chats[key]) return state.chats[key];
  const [kind, id] = key.split(":");
  const item = el("div", "chat-item");
  item.dataset.chat = key;
  item.append(kind === "group" ? Object.assign(avatar("bot"), { textContent: "群" }) : avatar(id));
  const who = el("div", "who");
  who.append(el("b", "", kind === "group" ? chatTitle(key) : (state.names[id] || id)), el("small", "", ""));
  const badge = el("span", "badge", "");
  item.append(who, badge);
  if (kind === "private") {
    const web = el("button", "web", "网页");
    web.type = "button";
    web.title = `以 ${state.names[id] || id} 的身份打开游戏网页（私聊机器人 /网页 并自动登录）`;
    web.dataset.web = id;
    web.addEventListener("click", (ev) => { ev.stopPropagation(); openWeb(id); });
    item.append(web);
  }
  item.addEventListener("click", () => { openChat(key); setDrawer(false); });
  (kind === "group" ? $("groups") : $("privates")).append(item);
  const chat = { key, entries: [], item, preview: who.querySelector("small"), badge, unread: 0 };
  state.chats[key] = chat;
  return chat;
}

function isMine(entry) {
  return entry.kind === "user" && entry.sender === state.speaker;
}

function render(entry) {
  if (entry.kind === "system" || entry.kind === "note") {
    const line = el("div", "line");
    line.dataset.kind = entry.kind;
    line.append(el("span", "", entry.text));
    return line;
  }
  const msg = el("div", "msg" + (isMine(entry) ? " mine" : ""));
  msg.dataset.kind = entry.kind;
  msg.dataset.sender = entry.sender;
  const body = el("div", "body");
  body.append(el("div", "name", `${entry.name}  ${entry.time}`));
  const bubble = el("div", "bubble");
  for (const part of entry.parts) {
    if (part.t === "image") {
      const img = el("img");
      img.src = part.v;
      img.alt = "图片";
      bubble.append(img);
    } else {
      bubble.append(el("span", part.t === "at" ? "at" : "", part.v));
    }
  }
  body.append(bubble);
  msg.append(avatar(entry.sender), body);
  return msg;
}

function drawOpen() {
  const box = $("messages");
  box.replaceChildren(...state.chats[state.open].entries.map(render));
  box.scrollTop = box.scrollHeight;
}

function openChat(key) {
  const chat = ensureChat(key);
  state.open = key;
  for (const c of Object.values(state.chats)) c.item.classList.toggle("active", c.key === key);
  chat.unread = 0;
  chat.badge.textContent = "";
  const [kind, id] = key.split(":");
  if (kind === "private") state.speaker = id;
  $("speaker").value = state.speaker;
  $("title").replaceChildren(chatTitle(key), el("small", "", kind === "group"
    ? "群里说话：选说话人后输入；主持人是群主，也是机器人的管理员"
    : `私聊：以 ${state.names[id] || id} 的身份和机器人单独说话（换说话人即换到他的私聊）`));
  const web = $("web-open");
  web.hidden = kind !== "private";
  web.dataset.web = kind === "private" ? id : "";
  web.title = kind === "private" ? `以 ${state.names[id] || id} 的身份打开游戏网页（私聊机器人 /网页 并自动登录）` : "";
  drawOpen();
  showUnread();
}

function showUnread() {
  const n = Object.values(state.chats).reduce((sum, c) => sum + c.unread, 0);
  $("unread").textContent = n ? String(n) : "";
}

function setDrawer(open) {
  document.body.classList.toggle("drawer", open);
}

function clearChats() {
  for (const c of Object.values(state.chats)) {
    c.entries = [];
    c.unread = 0;
    c.badge.textContent = "";
    c.preview.textContent = "";
  }
  drawOpen();
  showUnread();
}

function openWeb(id) {
  // a tab of the room's own that sends /网页 as this player and logs in (open.js)
  const tab = window.open(`/open/${id}`, "_blank");
  if (!tab) $("hint").textContent = "浏览器拦截了新标签页：请允许本页弹出窗口后再点「网页」。";
}

function add(entry) {
  if (entry.kind === "clear") { clearChats(); return; }
  const chat = ensureChat(entry.chat);
  chat.entries.push(entry);
  chat.preview.textContent = (entry.kind === "user" || entry.kind === "bot" ? entry.name + "：" : "") + entry.text;
  if (entry.chat === state.open) {
    const box = $("messages");
    const atEnd = box.scrollHeight - box.scrollTop - box.clientHeight < 80;
    box.append(render(entry));
    if (atEnd || isMine(entry)) box.scrollTop = box.scrollHeight;
  } else if (entry.kind !== "note") {
    chat.unread += 1;
    chat.badge.textContent = String(chat.unread);
    showUnread();
  }
}

function showScript(script) {
  const status = $("status");
  const running = !!script && script.status === "running";
  for (const b of document.querySelectorAll("header .games button")) b.disabled = running;
  if (!script) { status.dataset.state = "idle"; status.textContent = ""; return; }
  status.dataset.state = script.status;
  status.dataset.game = script.game;
  status.dataset.step = script.step || "";
  status.title = (script.missing || []).join("\n");
  status.textContent = { running: `正在演示：${script.title}（第 ${script.step || 1} 步）…`, done: `${script.title} 开场演示完毕`,
                         failed: `${script.title} 第 ${script.step} 步未按预期，见群里的说明` }[script.status];
}

async function poll() {
  for (;;) {
    try {
      const r = await fetch(`/api/log?since=${state.next}&wait=15`);
      const data = await r.json();
      if (data.run !== state.run) { location.reload(); return; }
      for (const e of data.entries) add(e);
      state.next = data.next;
      showScript(data.script);
      $("hint").textContent = "";
    } catch (err) {
      $("hint").textContent = "和演练室的连接断开了，正在重连…（是否已经结束了 make demo？）";
      await new Promise((ok) => setTimeout(ok, 1000));
    }
  }
}

async function problem(r, fallback) {
  try { return (await r.json()).detail || fallback; } catch (err) { return fallback; }
}

async function send(ev) {
  ev.preventDefault();
  const text = $("text").value.trim();
  if (!text) return;
  $("text").value = "";
  const r = await fetch("/api/say", { method: "POST", headers: { "Content-Type": "application/json" },
                                      body: JSON.stringify({ user: state.speaker, chat: state.open, text }) })
    .catch(() => null);
  if (!r || !r.ok) $("hint").textContent = await problem(r, "发送失败：演练室没有回应。");
}

async function play(key) {
  openChat(`group:${state.group}`);
  setDrawer(false);
  const r = await fetch(`/api/play/${key}`, { method: "POST" }).catch(() => null);
  if (!r || !r.ok) $("hint").textContent = await problem(r, "演示没有开始：演练室没有回应。");
}

async function start() {
  const info = await (await fetch("/api/state")).json();
  state.run = info.run;
  state.users = info.users;
  state.group = info.group;
  for (const u of info.users) state.names[u.id] = u.name;
  for (const g of info.games) {
    const b = el("button", "", g.title);
    b.type = "button";
    b.title = g.summary;
    b.dataset.game = g.key;
    b.addEventListener("click", () => play(g.key));
    $("games").append(b);
  }
  const sel = $("speaker");
  for (const u of info.users) {
    const o = el("option", "", u.host ? `${u.name}（群主·管理员）` : u.name);
    o.value = u.id;
    sel.append(o);
  }
  sel.addEventListener("change", () => {
    state.speaker = sel.value;
    if (state.open.startsWith("private:")) openChat(`private:${sel.value}`);
    else drawOpen();
  });
  ensureChat(`group:${info.group}`);
  for (const u of info.users) ensureChat(`private:${u.id}`);
  state.speaker = info.users[0].id;
  openChat(`group:${info.group}`);
  showScript(info.script);
  $("composer").addEventListener("submit", send);
  if (window.matchMedia("(max-width: 720px)").matches) $("text").placeholder = "输入消息或命令，例如 /帮助";
  $("menu").addEventListener("click", () => setDrawer(!document.body.classList.contains("drawer")));
  $("backdrop").addEventListener("click", () => setDrawer(false));
  $("web-open").addEventListener("click", () => openWeb($("web-open").dataset.web));
  $("text").addEventListener("keydown", (ev) => {
    if (ev.key === "Enter" && !ev.shiftKey && !ev.isComposing) { ev.preventDefault(); $("composer").requestSubmit(); }
  });
  poll();
}

start();
