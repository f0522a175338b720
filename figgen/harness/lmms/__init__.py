"""lmms-eval: a task folder (its YAML and the ``utils.py`` copied from :mod:`.task_utils`)."""
