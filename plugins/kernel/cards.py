"""The shared discipline system (prison-rules 【规则判罚】, royale-rules 违规判定):
three blue make a yellow, three yellow make a red; a red card is out."""

from __future__ import annotations

from dataclasses import dataclass

COLORS = {"blue": "蓝牌", "yellow": "黄牌", "red": "红牌"}
BY_WORD = {"蓝牌": "blue", "黄牌": "yellow", "红牌": "red"}


@dataclass(frozen=True)
class Tally:
    blue: int  # blue cards given
    yellow: int  # yellow cards given
    red: int  # red cards given

    @property
    def yellow_total(self) -> int:
        return self.yellow + self.blue // 3

    @property
    def red_total(self) -> int:
        return self.red + self.yellow_total // 3

    @property
    def sent_off(self) -> bool:
        return self.red_total >= 1

    def describe(self) -> str:
        parts = [f"蓝牌 {self.blue}", f"黄牌 {self.yellow}", f"红牌 {self.red}"]
        line = "，".join(parts)
        line += f"（折算：黄牌 {self.yellow_total}，红牌 {self.red_total}）"
        if self.sent_off:
            line += "，已被红牌罚下"
        return line


def tally(colors: list[str]) -> Tally:
    return Tally(colors.count("blue"), colors.count("yellow"), colors.count("red"))
