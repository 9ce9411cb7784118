"""Write NapCat's OneBot 11 settings for the bot account: ``onebot11_<BOT_QQ>.json`` in the folder
given, with one reverse WebSocket client (``websocketClients``) pointing at the bot, message format
``array`` and the shared token. Whatever else the file holds (entries made in NapCat's WebUI) is kept;
the bot's own entry is replaced, so the token in deploy/.env is the one that counts.

    BOT_QQ=… ONEBOT_ACCESS_TOKEN=… python deploy/napcat_config.py /app/napcat/config

(compose.yaml runs it before NapCat starts, on NapCat's config volume.)"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

NAME = "qq-game-host"
DEFAULT_URL = "ws://bot:8080/onebot/v11/ws"


def client(url: str, token: str) -> dict[str, Any]:
    return {"enable": True, "name": NAME, "url": url, "reportSelfMessage": False, "messagePostFormat": "array",
            "token": token, "debug": False, "heartInterval": 30000, "reconnectInterval": 5000}


def settings(existing: dict[str, Any] | None, url: str, token: str) -> dict[str, Any]:
    conf = existing if isinstance(existing, dict) else {}
    network = conf.setdefault("network", {})
    for key in ("httpServers", "httpSseServers", "httpClients", "websocketServers", "websocketClients", "plugins"):
        network.setdefault(key, [])
    network["websocketClients"] = [c for c in network["websocketClients"] if c.get("name") != NAME] + [client(url, token)]
    conf.setdefault("musicSignUrl", "")
    conf.setdefault("enableLocalFile2Url", False)
    conf.setdefault("parseMultMsg", False)
    return conf


def main(folder: str) -> int:
    qq = os.environ.get("BOT_QQ", "").strip()
    token = os.environ.get("ONEBOT_ACCESS_TOKEN", "").strip()
    if not qq.isdigit():
        print("没有设置 BOT_QQ（机器人的 QQ 号）：请在 deploy/.env 里填写。\nBOT_QQ (the bot's QQ number) is not set.", file=sys.stderr)
        return 1
    if not token:
        print("没有设置 ONEBOT_ACCESS_TOKEN：请在 deploy/.env 里填写（机器人与 NapCat 共用）。\nONEBOT_ACCESS_TOKEN is not set.",
              file=sys.stderr)
        return 1
    path = Path(folder) / f"onebot11_{qq}.json"
    try:
        existing = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        existing = None
    conf = settings(existing, os.environ.get("NAPCAT_WS_URL", DEFAULT_URL), token)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(conf, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    tmp.replace(path)
    print(f"已写入 NapCat 设置：{path}（反向 WebSocket → {conf['network']['websocketClients'][-1]['url']}）")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
