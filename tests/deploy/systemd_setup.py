"""The system package the deployment tests need: Debian's systemd, for ``systemd-analyze verify``
on deploy/qq-game-host.service. When it is missing and we are root (as CI is), it is installed with
apt-get (as tests/demo/browser_setup.py installs Chromium).

    python tests/deploy/systemd_setup.py     (run by `make install-test`)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys


def ensure() -> str | None:
    """Install systemd if missing and we may; None when systemd-analyze is there, else why not."""
    if shutil.which("systemd-analyze"):
        return None
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        return "missing systemd-analyze: run `apt-get install -y systemd` as root (or `make install-test` as root)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    cmd = ["apt-get", "install", "-y", "-q", "--no-install-recommends", "systemd"]
    if subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL).returncode != 0:  # stale or absent package lists
        subprocess.run(["apt-get", "update", "-q"], env=env, stdin=subprocess.DEVNULL)
        subprocess.run(cmd, env=env, stdin=subprocess.DEVNULL)
    return None if shutil.which("systemd-analyze") else "apt-get could not install systemd"


if __name__ == "__main__":
    reason = ensure()
    if reason:
        print(f"deployment tests: {reason}", file=sys.stderr)
