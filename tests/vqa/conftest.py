import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402


@pytest.fixture(scope="module")
def unbalanced() -> Iterator[None]:
    """Ask every item the rules allow: no balancing draws (tests of a family's rules).

    Balancing at the source (``figgen.vqa.api.balance``) drops some items of dominant answers by
    a seeded draw; it is tested on its own in ``test_balance.py``.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("figgen.vqa.api.balance.KEEP", {})
        yield
