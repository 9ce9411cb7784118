// Shared helpers of the game pages: calls with the CSRF token, countdowns, safe text.
"use strict";
const Web = (() => {
  const csrf = document.querySelector('meta[name="csrf"]').content;
  let skew = 0; // server clock minus ours (ms)

  async function call(method, path, body) {
    const opts = { method, headers: { "X-CSRF-Token": csrf }, credentials: "same-origin" };
    if (body !== undefined) { opts.headers["Content-Type"] = "application/json"; opts.body = JSON.stringify(body); }
    let resp;
    try { resp = await fetch(path, opts); } catch (e) { return { ok: false, error: "连不上机器人，请检查网络后再试。" }; }
    let data;
    try { data = await resp.json(); } catch (e) { return { ok: false, error: "机器人暂时没有回应，请稍后再试。" }; }
    if (resp.status === 401) { data.error = data.error || "登录已过期，请刷新页面。"; }
    return data;
  }

  function el(tag, attrs, ...kids) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") n.addEventListener("click", v);
      else if (k === "text") n.textContent = v;
      else if (v === true) n.setAttribute(k, "");
      else if (v !== false && v !== null && v !== undefined) n.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) n.append(k);
    return n;
  }

  function setClock(nowIso) { skew = new Date(nowIso).getTime() - Date.now(); }
  function now() { return Date.now() + skew; }
  function left(iso) { return iso ? Math.max(0, Math.ceil((new Date(iso).getTime() - now()) / 1000)) : null; }
  function fmt(s) {
    if (s === null) return "—";
    const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), x = s % 60;
    return (h ? h + "时" : "") + (h || m ? String(m).padStart(h ? 2 : 1, "0") + "分" : "") + String(x).padStart(2, "0") + "秒";
  }
  function localTime(iso) {
    if (!iso) return "";
    const d = new Date(iso);
    return `${d.getMonth() + 1}月${d.getDate()}日 ${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  }

  function header(v) {
    document.getElementById("title").textContent = `${v.game} · ${v.alias ? v.seat + "号 " + v.alias : (v.is_host ? "主持" : "")}`;
    document.getElementById("phase").textContent = `${v.status_label}${v.phase && v.phase !== v.status_label ? " · " + v.phase : ""}`;
    document.getElementById("notice").textContent = v.notice || "";
  }

  function answer(lines, ok) {
    const box = document.getElementById("answer");
    box.textContent = lines.join("\n");
    box.className = ok ? "answer" : "answer bad";
    box.scrollIntoView({ block: "nearest" });
  }

  function recent(v) {
    const ul = document.getElementById("recent");
    if (!ul) return;
    ul.replaceChildren(...(v.recent || []).map(t => el("li", { text: t })));
    if (!ul.children.length) ul.append(el("li", { class: "muted", text: "还没有消息。" }));
  }

  const out = document.getElementById("logout");
  if (out) out.addEventListener("click", async () => { await call("POST", "logout", {}); location.reload(); });

  return { call, el, setClock, left, fmt, localTime, header, answer, recent, csrf };
})();
