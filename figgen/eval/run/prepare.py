"""Each figure's image prepared once per run, off the event loop.

The first scale comes from the provider's known limits (and from any size already refused as
too long in this run); the scale that fitted is remembered per figure, so its other questions
start there; encoded images are cached (least recently used first out, bounded in bytes);
decoding, resizing and encoding run in a worker thread, so requests in flight keep moving.
"""

from __future__ import annotations

import asyncio
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from figgen.errors import FiggenError
from figgen.eval.providers.image import (
    LOSSY_QUALITY,
    MEDIA_TYPES,
    FigureImage,
    ImageFormat,
    ImageLimits,
)

CACHE_BYTES = 256 * 2**20
"""Encoded images (and their base64) kept in memory at most; questions come grouped by
figure, so a few figures' worth is all a run reuses."""

MIN_SIDE = 32
"""An image is never shrunk below this many pixels on its short side."""


class ImagePreparer:
    """The image to send with each figure's questions, for one provider and one run.

    ``source`` maps a figure id to its PNG file.
    """

    def __init__(
        self,
        source: Callable[[str], Path],
        limits: ImageLimits | None = None,
        *,
        image_format: ImageFormat = "png",
        quality: int = LOSSY_QUALITY,
        cache_bytes: int = CACHE_BYTES,
        min_side: int = MIN_SIDE,
    ) -> None:
        self.limits = limits or ImageLimits()
        if MEDIA_TYPES[image_format] not in self.limits.formats:
            accepted = sorted(t.split("/")[1] for t in self.limits.formats)
            raise FiggenError(
                f"this provider does not accept {image_format} images; "
                f"use --image-format {' or '.join(accepted)}"
            )
        self._source = source
        self.image_format: ImageFormat = image_format
        self.quality = quality
        self._cache_bytes = cache_bytes
        self.min_side = min_side
        self._sizes: dict[str, tuple[int, int]] = {}
        self._fitted: dict[str, float] = {}
        self._refused_pixels: int | None = None
        self._cache: OrderedDict[tuple[str, float], FigureImage] = OrderedDict()
        self._cached_bytes = 0
        self._pending: dict[tuple[str, float], asyncio.Future[FigureImage]] = {}
        self._turns: dict[str, asyncio.Lock] = {}
        self.encodings: Counter[tuple[str, int, int]] = Counter()
        """Images encoded so far, by figure and pixel size: each should appear once."""

    # ---- choosing the scale ------------------------------------------------------------

    def first_scale(self, width: int, height: int) -> float:
        """The largest scale worth sending: within the provider's long-side limit, and below
        the smallest image the provider has refused as too long in this run."""
        scale = self._limit_scale(width, height)
        refused = self._refused_pixels
        while (
            refused is not None
            and _pixels(width, height, scale) >= refused
            and min(width, height) * scale >= 2 * self.min_side
        ):
            scale /= 2
        return scale

    def _limit_scale(self, width: int, height: int) -> float:
        long_side = self.limits.max_long_side
        if long_side is not None and max(width, height) > long_side:
            return long_side / max(width, height)
        return 1.0

    def remember(self, figure_id: str, scale: float) -> None:
        """Record that an image of ``figure_id`` at ``scale`` was accepted."""
        self._fitted[figure_id] = min(scale, self._fitted.get(figure_id, scale))

    def known(self, figure_id: str) -> bool:
        """Whether a scale that fits is known for this figure."""
        return figure_id in self._fitted

    @asynccontextmanager
    async def turn(self, figure_id: str) -> AsyncIterator[None]:
        """Until a scale that fits is known for a figure, its questions go one at a time.

        The first finds the scale (being refused as too long, perhaps more than once); the
        others wait for it instead of each being refused in turn.
        """
        if self.known(figure_id):
            yield
            return
        lock = self._turns.setdefault(figure_id, asyncio.Lock())
        await lock.acquire()
        if self.known(figure_id):
            lock.release()
            yield
            return
        try:
            yield
        finally:
            lock.release()

    # ---- images ------------------------------------------------------------------------

    async def image(self, figure_id: str) -> FigureImage:
        """The image to send first: at the scale that fitted before, else the first scale."""
        if figure_id not in self._sizes:
            self._sizes[figure_id] = await asyncio.to_thread(self._size, figure_id)
        size = self._sizes[figure_id]
        fitted = self._fitted.get(figure_id)
        # a scale remembered (perhaps from an earlier run) never overrides a tighter limit
        scale = self.first_scale(*size) if fitted is None else min(fitted, self._limit_scale(*size))
        return await self._get(figure_id, scale)

    def peek(self, figure_id: str) -> FigureImage | None:
        """The cached image at the figure's fitted scale, if there is one (no work)."""
        scale = self._fitted.get(figure_id)
        return None if scale is None else self._cache.get((figure_id, scale))

    async def smaller(self, figure_id: str, refused: FigureImage) -> FigureImage | None:
        """After ``refused`` was refused as too long: half its size, or None if too small."""
        pixels = refused.width * refused.height
        self._refused_pixels = min(pixels, self._refused_pixels or pixels)
        if min(refused.width, refused.height) < 2 * self.min_side:
            return None
        return await self._get(figure_id, refused.scale / 2)

    async def _get(self, figure_id: str, scale: float) -> FigureImage:
        key = (figure_id, scale)
        if key in self._cache:
            self._cache.move_to_end(key)
            return self._cache[key]
        if key not in self._pending:  # concurrent questions share one preparation
            self._pending[key] = asyncio.ensure_future(self._prepare(key, figure_id, scale))
        return await asyncio.shield(self._pending[key])

    async def _prepare(self, key: tuple[str, float], figure_id: str, scale: float) -> FigureImage:
        """Encode off the event loop, then cache the image and end the pending entry in one
        step, so no question finds the key in neither (it would encode the image again)."""
        try:
            image = await asyncio.to_thread(self._encode, figure_id, scale)
            for cache_key in {key, (figure_id, image.scale)}:  # halved to fit max_bytes: both
                if cache_key not in self._cache:
                    self._store(cache_key, image)
            return image
        finally:
            self._pending.pop(key, None)

    def _size(self, figure_id: str) -> tuple[int, int]:
        from PIL import Image

        with Image.open(self._source(figure_id)) as img:  # reads the header only
            return img.size

    def _encode(self, figure_id: str, scale: float) -> FigureImage:
        """Encode at ``scale``, halving further while the result exceeds ``max_bytes``."""
        original = FigureImage.from_file(self._source(figure_id))
        while True:
            image = original.scaled(scale, image_format=self.image_format, quality=self.quality)
            self.encodings[(figure_id, image.width, image.height)] += 1
            too_big = self.limits.max_bytes is not None and len(image.data) > self.limits.max_bytes
            if not too_big or min(image.width, image.height) < 2 * self.min_side:
                return image
            scale /= 2

    def _store(self, key: tuple[str, float], image: FigureImage) -> None:
        size = _footprint(image)
        self._cache[key] = image
        self._cached_bytes += size
        while self._cached_bytes > self._cache_bytes and len(self._cache) > 1:
            _, dropped = self._cache.popitem(last=False)
            self._cached_bytes -= _footprint(dropped)


def _pixels(width: int, height: int, scale: float) -> int:
    return max(1, round(width * scale)) * max(1, round(height * scale))


def _footprint(image: FigureImage) -> int:
    return len(image.data) * 7 // 3  # the bytes, and their base64 once it is made
