// Opens one player's game page: the room sends /网页 as that player, logs in with the
// password the bot answered and gives this tab the page's cookie; then we go there.
"use strict";

(async () => {
  const say = document.getElementById("say");
  const user = location.pathname.split("/").filter(Boolean).pop();
  let r = null;
  try {
    r = await fetch(`/api/web/${encodeURIComponent(user)}?host=${encodeURIComponent(location.hostname)}`, { method: "POST" });
  } catch (err) {
    say.textContent = "演练室没有回应：是否已经结束了 make demo？";
    return;
  }
  let data = {};
  try { data = await r.json(); } catch (err) { data = {}; }
  if (!r.ok) {
    say.textContent = `没有打开网页：${data.detail || "演练室出错了。"}`;
    document.title = "没有打开网页 · QQ 演练室";
    return;
  }
  if (data.password) {  // the room's host name does not reach the bot: log in by hand
    say.textContent = `${data.name} 的网页已准备好。`;
    document.getElementById("link").href = data.url;
    document.getElementById("password").textContent = data.password;
    document.getElementById("manual").hidden = false;
    return;
  }
  location.replace(data.url);
})();
