"""Rendering: spec -> figure -> measured elements -> repaired layout -> PNG, in one draw.

:mod:`.pipeline` holds the loop; :mod:`.canvas` draws, :mod:`.elements` measures,
:mod:`.repair` plans fixes for overlaps, :mod:`.visibility` measures what stays visible.
"""

from __future__ import annotations

from figgen.render.pipeline import Rendered, render

__all__ = ["Rendered", "render"]
