"""What a provider is sent and what it returns: the prompt (images, text, earlier turns), the
options of the call, and the reply with its billed tokens."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Literal

from figgen.eval.grounding.evidence import EvidenceTarget
from figgen.eval.grounding.grounding import PromptMode, mode_instruction
from figgen.eval.grounding.set_grounding import SetTarget, set_instruction
from figgen.eval.providers.image import FigureImage
from figgen.schema.qa_item import QAItem

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class Turn:
    """An earlier exchange of a conversation: what was asked and what the model replied."""

    asked: str
    replied: str


@dataclass(frozen=True)
class Prompt:
    """One independent question: the figure image (or several) and the question text.

    ``item`` carries the ground truth for the offline ``oracle`` and ``chance`` providers;
    providers that call a model never read it. A multi-chart question sends ``more_images``
    after ``image``; providers send ``images`` in order, before the text. In a ``grounded`` or
    ``pointed`` ``mode`` the text states the image's size, and ``evidence`` (in pixels of
    ``image``) is the truth the oracle locates.
    """

    text: str
    image: FigureImage
    item: QAItem
    more_images: tuple[FigureImage, ...] = ()
    mode: PromptMode = "plain"
    evidence: EvidenceTarget | None = None
    set_evidence: SetTarget | None = None
    """The evidence in every image of a grounded or pointed question over a set."""
    history: tuple[Turn, ...] = ()
    """Earlier turns of a conversation (multi-chart sets asked in one); the images go with the
    first message, so a conversation sends them once."""

    @property
    def images(self) -> tuple[FigureImage, ...]:
        return (self.image, *self.more_images)

    def messages(self) -> list[tuple[Role, str]]:
        """The conversation as (role, text), oldest first: the history, then ``text``."""
        out: list[tuple[Role, str]] = []
        for turn in self.history:
            out += [("user", turn.asked), ("assistant", turn.replied)]
        return [*out, ("user", self.text)]

    def scaled(self, factor: float) -> Prompt:
        """The same prompt with every image resized by ``factor``."""
        return self.with_images(
            self.image.scaled(factor), tuple(image.scaled(factor) for image in self.more_images)
        )

    def with_image(self, image: FigureImage) -> Prompt:
        """The same question about a resized image (its size restated, its evidence rescaled)."""
        old = mode_instruction(self.mode, self.image.width, self.image.height)
        new = mode_instruction(self.mode, image.width, image.height)
        text = self.text.replace(old, new) if old else self.text
        evidence = self.evidence and self.evidence.in_image(image.width, image.height)
        return replace(self, text=text, image=image, evidence=evidence)

    def with_images(self, image: FigureImage, more: tuple[FigureImage, ...]) -> Prompt:
        """The same question about resized images (the first restated as ``with_image`` does;
        over a set, every image's size and evidence)."""
        if self.set_evidence is None:
            return replace(self.with_image(image), more_images=more)
        sizes = [(i.width, i.height) for i in (image, *more)]
        old = set_instruction(self.mode, self.set_evidence.sizes)
        text = self.text.replace(old, set_instruction(self.mode, sizes))
        evidence = self.set_evidence.in_images(sizes)
        return replace(self, text=text, image=image, more_images=more, set_evidence=evidence)


@dataclass(frozen=True)
class AskConfig:
    """Options passed through to the vendor call (``--option key=value``)."""

    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """The model's text and the tokens the vendor billed for it."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    usage_reported: bool = True
    """False when the reply carried no token counts; the runner then bills the estimate."""
    cached_input_tokens: int = 0
    """Of ``input_tokens``, those read from the prompt cache."""
    cache_write_tokens: int = 0
    """Of ``input_tokens``, those written to the prompt cache (Anthropic bills them apart)."""
