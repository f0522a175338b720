"""The ``figgen`` command's entry point, kept free of the drawing code.

A local build with several workers gets its fork server started before anything heavy is
imported: the server imports matplotlib and the kinds on one core while this process
imports the command line on the other, so the first figure is handed out with no wait.
"""

from __future__ import annotations

import sys

from figgen.build.workers import start_early, stop_early


def main() -> None:
    start_early(sys.argv[1:])
    try:
        from figgen._cli.main import main as cli_main

        cli_main()
    finally:
        stop_early()
