"""Long text in pieces that each fit one QQ message."""

from __future__ import annotations

MAX_CHUNK = 2000  # characters per QQ message


def chunks(text: str, size: int = MAX_CHUNK) -> list[str]:
    """Split long text at line ends so each piece fits one QQ message."""
    text = text.strip("\n")
    if len(text) <= size:
        return [text]
    out: list[str] = []
    cur = ""
    for line in text.split("\n"):
        while len(line) > size:
            if cur:
                out.append(cur)
                cur = ""
            out.append(line[:size])
            line = line[size:]
        if cur and len(cur) + 1 + len(line) > size:
            out.append(cur)
            cur = line
        else:
            cur = f"{cur}\n{line}" if cur else line
    if cur:
        out.append(cur)
    return out
