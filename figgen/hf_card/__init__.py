"""The HuggingFace dataset-card template and its renderer."""

from figgen.hf_card.check import card_problems, check_card
from figgen.hf_card.render import CardFacts, card_data, render_card, size_category

__all__ = ["CardFacts", "card_data", "card_problems", "check_card", "render_card", "size_category"]
