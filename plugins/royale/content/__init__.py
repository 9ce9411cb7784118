"""Default game data of the royale engine (TOML files, shipped as package data)."""
