"""PNG encoders: every one writes exactly the pixels drawn; the choice is the config's."""

from __future__ import annotations

import importlib.util
import io
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from figgen.build.dataset import build_dataset
from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig, config_from_dict, load_config
from figgen.errors import BuildDirError, ConfigError
from figgen.render.png import PNG_ENCODERS, PngSettings, encode_rgba

HAS_FPNG = importlib.util.find_spec("fpng") is not None
ENCODERS = [
    pytest.param(name, marks=pytest.mark.skipif(not HAS_FPNG, reason="needs figgen[fpng]"))
    if name == "fpng"
    else name
    for name in PNG_ENCODERS
]


def _decode(png: bytes) -> tuple[str, np.ndarray]:
    image = Image.open(io.BytesIO(png))
    return image.mode, np.asarray(image)


def _with_encoder(encoder: str, level: int = 1) -> FigureConfig:
    values = load_config("small").model_dump()
    values["image"].update(png_encoder=encoder, png_compress_level=level)
    return config_from_dict(values)


@pytest.fixture(scope="module")
def canvas() -> np.ndarray:
    """An opaque figure canvas with text, lines, fills and antialiased edges."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(3, 2), dpi=80)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.plot([0, 1, 2], [2, 0, 1], marker="o")
    ax.contourf(np.outer(np.linspace(0, 1, 20), np.linspace(0, 1, 30)))
    ax.set_title(r"$\alpha^2$ title")
    fig.canvas.draw()
    return np.array(fig.canvas.buffer_rgba())


@pytest.mark.parametrize("encoder", ENCODERS)
def test_opaque_canvas_is_written_as_exact_rgb(encoder: str, canvas: np.ndarray) -> None:
    mode, pixels = _decode(encode_rgba(canvas, PngSettings(encoder)))  # type: ignore[arg-type]
    assert mode == "RGB"
    assert np.array_equal(pixels, canvas[..., :3])


@pytest.mark.parametrize("encoder", ENCODERS)
def test_translucent_canvas_keeps_its_alpha(encoder: str) -> None:
    rng = np.random.default_rng(0)
    rgba = rng.integers(0, 256, size=(37, 53, 4), dtype=np.uint8)  # odd sizes, every byte value
    mode, pixels = _decode(encode_rgba(rgba, PngSettings(encoder)))  # type: ignore[arg-type]
    assert mode == "RGBA"
    assert np.array_equal(pixels, rgba)


def test_zlib_writer_is_a_valid_png_stream(canvas: np.ndarray) -> None:
    """Chunks, CRCs and the up filter, read back by hand rather than by Pillow."""
    png = encode_rgba(canvas, PngSettings("zlib", 6))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        assert int.from_bytes(png[at + 8 + length : at + 12 + length], "big") == zlib.crc32(
            kind + data
        )
        chunks.append((kind, data))
        at += 12 + length
    assert [kind for kind, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    height, width = canvas.shape[:2]
    assert chunks[0][1] == width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes(
        [8, 2, 0, 0, 0]
    )
    rows = np.frombuffer(zlib.decompress(chunks[1][1]), np.uint8).reshape(height, -1)
    assert (rows[:, 0] == 2).all()
    unfiltered = np.cumsum(rows[:, 1:].astype(np.int64), axis=0) % 256
    assert np.array_equal(unfiltered.reshape(height, width, 3), canvas[..., :3])


def test_compress_level_trades_bytes(canvas: np.ndarray) -> None:
    for encoder in ("pillow", "zlib"):
        sizes = [len(encode_rgba(canvas, PngSettings(encoder, level))) for level in (0, 1, 9)]  # type: ignore[arg-type]
        assert sizes[0] > sizes[1] >= sizes[2]
        assert sizes[0] > canvas[..., :3].size  # level 0 stores the rows uncompressed


@pytest.mark.skipif(not HAS_FPNG, reason="needs figgen[fpng]")
def test_each_encoder_builds_figures_with_identical_pixels_and_records() -> None:
    built = {
        encoder: [generate_figure(_with_encoder(encoder), 5, i) for i in range(3)]
        for encoder in PNG_ENCODERS
    }
    reference = built["pillow"]
    for encoder, figures in built.items():
        for figure, ref in zip(figures, reference, strict=True):
            assert figure.record_json == ref.record_json, encoder
            mode, pixels = _decode(figure.png)
            ref_mode, ref_pixels = _decode(ref.png)
            assert mode == ref_mode
            assert np.array_equal(pixels, ref_pixels), (encoder, figure.record.id)
    assert len({tuple(len(f.png) for f in figures) for figures in built.values()}) == 3


@pytest.mark.skipif(not HAS_FPNG, reason="needs figgen[fpng]")
def test_encoder_is_part_of_the_build_identity(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    build_dataset(
        out, n=1, seed=2, workers=1, config=_with_encoder("zlib"), progress=False, questions=False
    )
    with pytest.raises(BuildDirError, match="holds another build"):
        build_dataset(
            out,
            n=1,
            seed=2,
            workers=1,
            config=_with_encoder("fpng"),
            progress=False,
            questions=False,
        )


def test_missing_fpng_fails_in_one_line_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "fpng", None)  # what an install without the extra sees
    out = tmp_path / "ds"
    with pytest.raises(ConfigError) as info:
        build_dataset(out, n=2, seed=0, workers=1, config=_with_encoder("fpng"), progress=False)
    message = str(info.value)
    assert "\n" not in message
    assert "pip install 'figgen[fpng]'" in message and "'zlib'" in message
    assert not out.exists()


def test_config_validates_the_encoder_and_level() -> None:
    assert FigureConfig().image.png_encoder == "zlib"
    with pytest.raises(ConfigError, match="image.png_encoder"):
        config_from_dict({"image": {"png_encoder": "jpeg"}})
    with pytest.raises(ConfigError, match="image.png_compress_level"):
        config_from_dict({"image": {"png_compress_level": 10}})
