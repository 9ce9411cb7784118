"""Shared text figures: Word-style count, quotes, repeats, Simplified."""

from __future__ import annotations

import pytest

from plugins.gamekit.textcheck import TextFigures, describe, measure


def test_chars_ignore_every_kind_of_whitespace():
    f = measure("春 眠\t不觉\n晓，　处处闻啼鸟。")
    assert f.chars == 12  # the full-width space is whitespace too
    assert f.unquoted == 12 and f.quoted == 0


@pytest.mark.parametrize(
    "text,quoted",
    [
        ("他说“你好啊”就走了", 5),
        ("「外『内』外」尾", 7),
        ('a "bc" d', 4),
        ("> 引用的一行\n正文", 6),
        ("【引用】原文如此\n正文", 8),
        ("引用：原文\n正文", 5),
        ("“没有闭合的引号", 0),
        ("第一行“开\n第二行”合", 0),
    ],
)
def test_quoted_characters(text, quoted):
    assert measure(text).quoted == quoted


def test_quote_ratio_and_unquoted():
    f = measure("“一二三四五”六七八九十")
    assert f.chars == 12 and f.quoted == 7 and f.unquoted == 5
    assert f.quote_ratio == pytest.approx(7 / 12)


def test_repeated_sentences_count_after_the_first():
    text = "今天天气很好。今天天气很好！短句。短句。另一句不同的话？"
    f = measure(text)
    assert f.repeated == 6  # the second 今天天气很好; 短句 is under 4 characters
    assert f.repeat_ratio == pytest.approx(6 / f.chars)


def test_repeats_ignore_spacing_inside_sentences():
    assert measure("我们 一起走吧\n我们一起走吧").repeated == 6


def test_traditional_characters_are_counted():
    f = measure("這是一段繁體中文")
    assert f.traditional == 2 and not f.simplified  # 這 體 (繁 is Simplified too)


def test_simplified_text_including_words_that_look_traditional():
    f = measure("乾坤朗朗，著作等身，于是我们出发了。")
    assert f.traditional == 0 and f.simplified


def test_text_without_han_is_not_simplified_chinese():
    f = measure("hello world")
    assert f.traditional == 0 and not f.simplified
    empty = measure("")
    assert empty == TextFigures(0, 0, 0, 0.0, 0, 0.0, 0, False)


def test_describe_is_one_short_chinese_line():
    line = describe(measure("“一二三”" + "四" * 97))
    assert line == "字数 102（不计空格），引用 5（4.9%），去引用 97，重复 0%，简体：是"
    assert describe(measure("這個")).endswith("简体：否（繁体字 2 个）")


def test_a_clause_repeated_with_commas_counts_as_repeated():
    """20 comma-chained copies of one clause are not new text."""
    from plugins.gamekit.textcheck import measure

    fig = measure("，".join(["今天天气真好啊"] * 20) + "。")
    assert fig.repeated == 19 * 7 and fig.repeat_ratio > 0.8  # every copy after the first
    assert measure("今天天气真好啊，明天也许下雨吧，后天再说。").repeated == 0
