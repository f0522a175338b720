from tests.export.conftest import built  # noqa: F401  (the shared small build with questions)
