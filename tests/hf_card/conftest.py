from tests.export.conftest import built, hf_dir  # noqa: F401  (the shared small build, its HF folder)
