"""System packages the browser tests need: Debian's Chromium and a CJK font
(fonts-noto-cjk). When they are missing and we are root (as CI is), they are
installed with apt-get; no browser build is ever downloaded.

    python tests/demo/browser_setup.py     (run by `make install-test`)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def _has_cjk_font() -> bool:
    if not shutil.which("fc-list"):
        return False
    out = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True).stdout
    return "Noto Sans CJK" in out


CHECKS = {"chromium": lambda: shutil.which("chromium") is not None, "fonts-noto-cjk": _has_cjk_font}


def missing() -> list[str]:
    return [pkg for pkg, present in CHECKS.items() if not present()]


def ensure() -> str | None:
    """Install what is missing if we may; None when everything is there, else why not."""
    need = missing()
    if not need:
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return f"missing {' '.join(need)}: run `apt-get install -y {' '.join(need)}` as root (or `make install-test` as root)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", *need]
    if subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL).returncode != 0:  # stale or absent package lists
        subprocess.run(["apt-get", "update", "-q"], env=env, stdin=subprocess.DEVNULL)
        subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL)
    need = missing()
    return f"apt-get could not install {' '.join(need)}" if need else None


if __name__ == "__main__":
    reason = ensure()
    if reason:
        print(f"browser tests: {reason}", file=sys.stderr)
