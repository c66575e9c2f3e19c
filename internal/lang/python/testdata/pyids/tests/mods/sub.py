"""A submodule: its __name__ is mods.sub."""
