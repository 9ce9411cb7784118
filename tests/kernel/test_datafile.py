"""The shared game-data formatter: one Chinese line per mistake, each naming where it is."""

from __future__ import annotations

from typing import Annotated, Literal

import pytest
from pydantic import Field, field_validator

from plugins.gamekit.contract import Rejected
from plugins.gamekit.datafile import HHMM, Data, check, merged, problems, validate


class Role(Data):
    key: str
    count: Annotated[int, Field(ge=0)]
    side: Literal["white", "black"] = "white"


class Game(Data):
    close: HHMM = "21:00"
    roles: list[Role]
    fill: str = ""

    @field_validator("fill")
    @classmethod
    def _fill(cls, fill: str, info) -> str:
        roles = info.data.get("roles") or []
        if fill and fill not in [r.key for r in roles]:
            problems([f"fill「{fill}」不存在。"])
        return fill


def test_each_mistake_is_one_line_naming_its_path_counted_from_one():
    _, lines = validate(Game, {"close": "9点", "roles": [{"key": "a", "count": 1},
                                                       {"key": "b", "count": -1, "side": "grey", "colour": 1},
                                                       {"count": True}]})
    assert lines == [
        "close：时间格式应为 时:分，例如 21:00，收到「9点」。",
        "roles[2].count 应为不小于 0 的整数。",
        "roles[2].side 只能是 white 或 black。",
        "未知设置项「roles[2].colour」，请检查拼写。",
        "缺少 roles[3].key。",
        "roles[3].count 应为整数。",  # strict: true is not 1
    ]


def test_a_cross_reference_is_reported_in_its_own_words_and_check_raises_rejected():
    with pytest.raises(Rejected) as exc:
        check(Game, {"roles": [{"key": "a", "count": 1}], "fill": "z"})
    assert str(exc.value) == "fill「z」不存在。"
    assert check(Game, {"roles": [], "fill": ""}).roles == []


def test_a_variant_merges_tables_key_by_key_and_replaces_lists():
    base = {"times": {"a": 1, "b": 2}, "rows": [1, 2]}
    assert merged(base, {"times": {"b": 3}, "rows": [9]}) == {"times": {"a": 1, "b": 3}, "rows": [9]}
    assert merged(base, None) == base and base == {"times": {"a": 1, "b": 2}, "rows": [1, 2]}
