"""The deployment recipe (deploy/): the compose file names only files that exist and only variables
deploy/.env.example documents; its bot image installs as `make install` does, from requirements.lock;
NapCat gets a reverse WebSocket client pointing at the bot with the token; without a token neither
compose nor the bot starts; the systemd unit passes `systemd-analyze verify` and is hardened."""

import configparser
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from dotenv import dotenv_values

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
COMPOSE = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
SERVICES: dict[str, Any] = COMPOSE["services"]
DOCUMENTED = dotenv_values(DEPLOY / ".env.example")
VAR = re.compile(r"\$(?:\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\})")


class Unset(Exception):
    """What compose says for ${VAR:?message} when VAR is unset or empty: it starts nothing."""


def interpolate(node: Any, env: dict[str, str]) -> Any:
    """Compose's variable substitution (${VAR}, ${VAR:-default}, ${VAR:?error}, $$) over the whole file."""
    if isinstance(node, dict):
        return {k: interpolate(v, env) for k, v in node.items()}
    if isinstance(node, list):
        return [interpolate(v, env) for v in node]
    if not isinstance(node, str):
        return node

    def sub(m: re.Match) -> str:
        if m.group(0) == "$$":
            return "$"
        name, op, arg = m.group(1), m.group(2), m.group(3)
        value = env.get(name)
        missing = value is None or (op is not None and op.startswith(":") and value == "")
        if op in (":-", "-"):
            return arg if missing else value
        if op in (":?", "?"):
            if missing:
                raise Unset(f"{name}: {arg}")
            return value
        return value or ""

    return VAR.sub(sub, node)


def _strings(node: Any):
    if isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)
    elif isinstance(node, str):
        yield node


def _filled(**changes: str) -> dict[str, str]:
    """deploy/.env.example as an operator fills it in."""
    env = {k: v or "" for k, v in DOCUMENTED.items()}
    env.update(ONEBOT_ACCESS_TOKEN="0123abcd", NAPCAT_WEBUI_TOKEN="webui", POSTGRES_PASSWORD="pw123")
    env.update(changes)
    return env


def test_every_variable_the_compose_file_uses_is_documented():
    used = {m.group(1) for s in _strings(COMPOSE) for m in VAR.finditer(s) if m.group(1)}
    assert used, "no ${VAR} found"
    missing = sorted(used - set(DOCUMENTED))
    assert not missing, f"not in deploy/.env.example: {missing}"
    lines = (DEPLOY / ".env.example").read_text(encoding="utf-8").splitlines()
    for name in used:  # each in a block of settings under a comment that says what they are
        i = next(i for i, ln in enumerate(lines) if ln.startswith(f"{name}="))
        while i > 0 and re.match(r"[A-Z_]+=", lines[i - 1]):
            i -= 1
        assert i > 0 and lines[i - 1].startswith("#"), name


def test_every_file_the_compose_file_names_exists():
    named = 0
    for name, svc in SERVICES.items():
        build = svc.get("build")
        if build:
            context = (DEPLOY / build["context"]).resolve()
            assert context.is_dir(), name
            assert (context / build.get("dockerfile", "Dockerfile")).is_file(), name
            named += 1
        for env_file in svc.get("env_file", []) or []:
            assert (DEPLOY / env_file).is_file(), name
        for volume in svc.get("volumes", []) or []:
            source = volume.split(":", 1)[0]
            if source.startswith((".", "/")):
                assert (DEPLOY / source).exists(), f"{name}: {source}"
            else:
                assert source in COMPOSE["volumes"], f"{name}: undeclared volume {source}"
        for part in svc.get("command") or []:
            if part.endswith(".py"):  # run in the image, whose working folder holds the repository's files
                assert (ROOT / part).is_file(), f"{name}: {part}"
                named += 1
    assert named >= 2
    for line in (DEPLOY / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if line.startswith("COPY "):
            for source in shlex.split(line)[1:-1]:
                assert (ROOT / source).exists(), line


def test_the_image_installs_as_make_install_does_from_the_lock():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    install = re.search(r"^install:.*\n\t\$\(BIN\)/pip install -q (.+)$", makefile, re.M)
    assert install, "Makefile's install target"
    args = install.group(1).strip()
    assert "-c requirements.lock" in args
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^RUN python -m pip install -q " + re.escape(args), dockerfile, re.M), args
    assert re.search(r"^COPY .*requirements\.lock", dockerfile, re.M)
    assert re.search(r'^CMD \["python", "bot.py"\]', dockerfile, re.M)
    assert re.search(r"^USER (?!root)", dockerfile, re.M)


def test_the_services_napcat_postgresql_and_the_bot():
    napcat, pg, bot = SERVICES["napcat"], SERVICES["postgres"], SERVICES["bot"]
    assert napcat["image"].startswith("mlikiowa/napcat-docker")
    assert any(v.endswith(":/app/.config/QQ") for v in napcat["volumes"])  # QQ's login data kept
    assert any(v.endswith(":/app/napcat/config") for v in napcat["volumes"])
    assert napcat["depends_on"]["napcat-config"]["condition"] == "service_completed_successfully"
    assert re.fullmatch(r"postgres:\d+", pg["image"])
    assert any(v.endswith(":/var/lib/postgresql/data") for v in pg["volumes"])
    assert "pg_isready" in " ".join(pg["healthcheck"]["test"])
    assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
    env = interpolate(COMPOSE, _filled())["services"]["bot"]["environment"]
    assert env["GAMEHOST__DATABASE_URL"] == "postgresql://gamehost:pw123@postgres:5432/gamehost"
    assert env["ONEBOT_ACCESS_TOKEN"] == "0123abcd" and env["HOST"] == "0.0.0.0"
    assert json.loads(env["SUPERUSERS"]) == ["111111111"]
    for svc in SERVICES.values():  # nothing published beyond this machine
        for port in svc.get("ports", []):
            assert port.startswith("127.0.0.1:"), port


def test_napcat_is_given_a_reverse_websocket_client_to_the_bot_with_the_token(tmp_path):
    gen = interpolate(COMPOSE, _filled(BOT_QQ="123456789"))["services"]["napcat-config"]
    folder = tmp_path / "config"
    env = {**os.environ, **gen["environment"]}
    r = subprocess.run([sys.executable, str(ROOT / gen["command"][1]), str(folder)], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    conf = json.loads((folder / "onebot11_123456789.json").read_text(encoding="utf-8"))
    (client,) = conf["network"]["websocketClients"]
    bot_port = SERVICES["bot"]["environment"]["PORT"]
    assert client["enable"] is True and client["url"] == f"ws://bot:{bot_port}/onebot/v11/ws"
    assert client["messagePostFormat"] == "array" and client["token"] == "0123abcd"
    # an entry made in NapCat's WebUI is kept; the bot's own is replaced (a new token counts)
    conf["network"]["websocketClients"].append({"name": "other", "url": "ws://elsewhere/ws", "enable": True})
    (folder / "onebot11_123456789.json").write_text(json.dumps(conf), encoding="utf-8")
    r = subprocess.run([sys.executable, str(ROOT / gen["command"][1]), str(folder)], env={**env, "ONEBOT_ACCESS_TOKEN": "new"},
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    clients = json.loads((folder / "onebot11_123456789.json").read_text(encoding="utf-8"))["network"]["websocketClients"]
    assert sorted(c["name"] for c in clients) == ["other", "qq-game-host"]
    assert next(c for c in clients if c["name"] == "qq-game-host")["token"] == "new"
    r = subprocess.run([sys.executable, str(ROOT / gen["command"][1]), str(tmp_path / "x")],
                       env={**env, "ONEBOT_ACCESS_TOKEN": ""}, capture_output=True, text=True)
    assert r.returncode == 1 and "没有设置 ONEBOT_ACCESS_TOKEN" in r.stderr


def test_without_a_token_compose_refuses_to_start():
    with pytest.raises(Unset, match="ONEBOT_ACCESS_TOKEN"):
        interpolate(COMPOSE, _filled(ONEBOT_ACCESS_TOKEN=""))
    env = _filled()
    del env["ONEBOT_ACCESS_TOKEN"]
    with pytest.raises(Unset, match="ONEBOT_ACCESS_TOKEN"):
        interpolate(COMPOSE, env)
    for name, svc in SERVICES.items():  # wherever the token is used, it is required
        for value in _strings(svc):
            if "ONEBOT_ACCESS_TOKEN" in value:
                assert "${ONEBOT_ACCESS_TOKEN:?" in value, name


def test_the_bot_refuses_to_start_on_the_compose_settings_without_a_token(tmp_path):
    """Were the compose guard gone, the bot's own rule still holds: HOST=0.0.0.0 needs the token."""
    env = interpolate(COMPOSE, _filled())["services"]["bot"]["environment"]
    env = {**{k: v for k, v in os.environ.items() if k.upper() != "ONEBOT_ACCESS_TOKEN" and not k.upper().startswith("GAMEHOST")},
           **{k: str(v) for k, v in env.items()}, "ONEBOT_ACCESS_TOKEN": "", "GAMEHOST__DATA_DIR": str(tmp_path),
           "PORT": "1"}  # (never reached: it refuses before listening)
    r = subprocess.run([sys.executable, "bot.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "拒绝启动" in r.stdout + r.stderr and "ONEBOT_ACCESS_TOKEN" in r.stdout + r.stderr


@pytest.mark.parametrize("path", [ROOT / ".env.example", DEPLOY / ".env.example"], ids=["env", "deploy-env"])
def test_json_values_in_env_files_are_single_quoted(path):
    """systemd's EnvironmentFile= drops double quotes anywhere in a value (["1"] would become [1]):
    single-quoted values read the same in systemd, python-dotenv and compose."""
    values = dotenv_values(path)
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or "=" not in line:
            continue
        name, raw = line.split("=", 1)
        if '"' in raw:
            assert raw.startswith("'") and raw.endswith("'"), line
            json.loads(values[name])


UNIT = DEPLOY / "qq-game-host.service"


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keys are case-sensitive
    parser.read(UNIT, encoding="utf-8")
    return parser


def test_the_systemd_unit_runs_the_bot_hardened():
    s = _unit()["Service"]
    home = s["WorkingDirectory"]
    assert s["User"] not in ("", "root") and s["Restart"] == "on-failure"
    assert s["EnvironmentFile"] == f"{home}/.env"
    assert s["ExecStart"] == f"{home}/.venv/bin/python bot.py"
    assert s["ReadWritePaths"] == f"{home}/data"
    for key, value in {"NoNewPrivileges": "yes", "ProtectSystem": "strict", "PrivateTmp": "yes", "ProtectHome": "yes"}.items():
        assert s[key] == value, key
    assert _unit()["Install"]["WantedBy"] == "multi-user.target"


def test_the_systemd_unit_passes_systemd_analyze_verify(tmp_path):
    exe = shutil.which("systemd-analyze")
    if exe is None:
        if os.environ.get("CI") == "true":
            pytest.fail("systemd-analyze is missing: `make install-test` installs Debian's systemd (as root)")
        pytest.skip("systemd-analyze is missing (Debian's systemd; `make install-test` as root installs it)")
    home = _unit()["Service"]["WorkingDirectory"]
    app = tmp_path / "app"  # the unit as installed, moved into a folder of the test's own
    (app / ".venv" / "bin").mkdir(parents=True)
    (app / ".venv" / "bin" / "python").symlink_to(sys.executable)
    (app / "data").mkdir()
    (app / ".env").write_text("", encoding="utf-8")
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(home, str(app)), encoding="utf-8")
    r = subprocess.run([exe, "verify", str(unit)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert r.returncode == 0 and not r.stderr.strip() and not r.stdout.strip(), r.stdout + r.stderr
    # and it does complain about a mistake (a wrong value is only a warning to systemd)
    bad = tmp_path / "bad.service"
    bad.write_text(unit.read_text(encoding="utf-8").replace("Restart=on-failure", "Restart=sometimes"), encoding="utf-8")
    r = subprocess.run([exe, "verify", str(bad)], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "sometimes" in r.stdout + r.stderr
