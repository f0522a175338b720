from tests.multichart.conftest import built  # noqa: F401  (the shared multi-chart sets)
