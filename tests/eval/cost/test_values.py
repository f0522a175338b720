"""Usage arithmetic, the price table and its overrides, images and token estimates."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from figgen.errors import FiggenError
from figgen.eval.cost.prices import default_prices, load_prices
from figgen.eval.cost.tokens import anthropic_image_tokens, gemini_image_tokens, openai_image_tokens
from figgen.eval.cost.usage import Usage
from figgen.eval.providers import parse_option
from figgen.eval.providers.image import FigureImage, media_type_of


def test_usage_adds_up() -> None:
    parts = [Usage(10, 2, 0.5), Usage(5, 1, 0.25), Usage()]
    assert sum(parts, Usage()) == Usage(15, 3, 0.75)
    assert sum(parts) == Usage(15, 3, 0.75)


def test_price_table_is_dated_and_matches_snapshots() -> None:
    table = default_prices()
    assert table.as_of
    assert table.lookup("gpt-4o-mini").input == 0.15  # type: ignore[union-attr]
    # a dated snapshot takes the longest listed prefix, not a shorter family
    assert table.lookup("gpt-4o-mini-2024-07-18") == table.lookup("gpt-4o-mini")
    assert table.lookup("openai:gpt-4o-2024-08-06") == table.lookup("gpt-4o")
    assert table.lookup("no-such-model") is None
    assert table.cost("gpt-4o", 1_000_000, 100_000) == pytest.approx(2.5 + 1.0)


def test_price_override_file(tmp_path: Path) -> None:
    path = tmp_path / "prices.toml"
    path.write_text(
        '[models."gpt-4o"]\ninput = 1.0\noutput = 2.0\n'
        '[models."my-vlm"]\ninput = 0.5\noutput = 0.5\n'
    )
    table = load_prices(path)
    assert table.cost("gpt-4o", 1_000_000, 1_000_000) == pytest.approx(3.0)
    assert table.cost("openai-compatible:my-vlm", 2_000_000, 0) == pytest.approx(1.0)
    assert table.lookup("gpt-4o-mini").input == 0.15  # type: ignore[union-attr]
    path.write_text('[models."x"]\ninput = "cheap"\n')
    with pytest.raises(FiggenError, match="is invalid"):
        load_prices(path)
    with pytest.raises(FiggenError, match="does not exist"):
        load_prices(tmp_path / "missing.toml")


def test_image_media_type_comes_from_the_bytes(tmp_path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 20)).save(buffer, format="JPEG")
    path = tmp_path / "looks-like.png"  # JPEG bytes under a .png name
    path.write_bytes(buffer.getvalue())
    image = FigureImage.from_file(path)
    assert image.media_type == "image/jpeg"
    assert image.data_url().startswith("data:image/jpeg;base64,")
    half = image.scaled(0.5)
    assert (half.width, half.height, half.scale) == (20, 10, 0.5)
    assert half.media_type == "image/png"
    with pytest.raises(ValueError):
        media_type_of(b"not an image")


def test_image_token_rules_hand_computed() -> None:
    # 1024x1024: shortest side to 768 -> 768x768 -> 2x2 tiles -> 85 + 4*170
    assert openai_image_tokens(1024, 1024) == 765
    # 4096x2048: fit 2048 -> 2048x1024, short side 768 -> 1536x768 -> 3x2 tiles
    assert openai_image_tokens(4096, 2048) == 85 + 170 * 6
    assert anthropic_image_tokens(750, 1000) == 1000
    assert anthropic_image_tokens(3136, 1568) == pytest.approx(1568 * 784 / 750, abs=1)
    assert gemini_image_tokens(300, 200) == 258
    assert gemini_image_tokens(1000, 700) == 258 * 2


def test_option_values_are_json_when_they_parse() -> None:
    assert parse_option("reasoning_effort=high") == ("reasoning_effort", "high")
    assert parse_option("max_tokens=10000") == ("max_tokens", 10000)
    assert parse_option('thinking={"type": "adaptive"}') == ("thinking", {"type": "adaptive"})
    with pytest.raises(FiggenError):
        parse_option("novalue")
