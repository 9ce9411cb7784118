"""Fixtures for the prison engine tests (fixtures only; helpers live in prison_helpers.py)."""

from __future__ import annotations

import pytest
from prison_helpers import Game


@pytest.fixture
def game() -> type[Game]:
    return Game
