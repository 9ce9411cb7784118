"""What a game's engine is built from, and all it imports: the contract with the kernel
(``contract``), typed arguments (``args``), the typed state's base (``state``), settings
(``settings``, ``datafile``), the effects, and pure helpers (``clock``, ``textcheck``).
Nothing here imports NoneBot, Tortoise or a database."""
