"""What the fork server does before it forks any worker: import the drawing code and the
question builders, and load the default fonts.

A worker forked from the server starts with all of it in memory, so two workers do not each
pay for the imports, nor each load the same fonts and mathtext parsers on their first
figures (about 0.3-1 CPU s per process). Importing this module is that work; nothing else
imports it.
"""

from __future__ import annotations

import signal

# Ctrl-C reaches the whole process group: the parent stops the build and reports it in one
# line; the server and the workers it forks (they inherit this) must not each print a
# KeyboardInterrupt traceback.
signal.signal(signal.SIGINT, signal.SIG_IGN)

import figgen.build.dataset  # noqa: E402, F401
import figgen.build.figure  # noqa: E402, F401
import figgen.vqa  # noqa: E402, F401
from figgen.render.canvas import warm_fonts  # noqa: E402

warm_fonts()
