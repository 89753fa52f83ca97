"""The longer blocks of config/settings.py, each built by a function from what settings.py read from the environment."""
