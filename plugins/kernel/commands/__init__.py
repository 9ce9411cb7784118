"""The kernel's own commands, by theme (lobby, hosting, discipline, info,
admin, speech), registered in :mod:`.table`. Games declare theirs as
:class:`~plugins.gamekit.contract.CommandSpec` rows."""
