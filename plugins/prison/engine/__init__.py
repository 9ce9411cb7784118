"""The Prison Game (囚犯游戏) pure rules engine: ``engine.ENGINE`` (the GameEngine the kernel
registers), ``commands.COMMANDS`` (the command table), ``model`` (the typed state), ``content``
(the typed settings). This package module imports none of them, so the modules may import each
other by ``from . import …`` without a cycle through it."""
