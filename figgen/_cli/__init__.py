"""The ``figgen`` command: its entry point and the app that mounts every package's commands."""
