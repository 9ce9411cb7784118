"""The game's NoneBot plugin. Its rules are the pure engine (``.engine``), which imports without
NoneBot; the chat side (``.plugin``: registration with the kernel, web pages, pictures) is loaded
only when NoneBot runs, so ``import plugins.prison.engine`` works in a plain interpreter."""

try:
    from nonebot import get_driver

    get_driver()  # ValueError: NoneBot is not running (the engine is imported on its own)
except (ImportError, ValueError):
    pass
else:
    from .plugin import KIND, __plugin_meta__  # noqa: F401
