"""Model providers behind one async interface, registered by name.

Importing this package registers every provider; vendor SDKs are imported only when a
provider is built.
"""

from figgen.eval.providers import (  # noqa: F401  (importing a provider's module registers it)
    anthropic_provider,
    blind,
    gemini_provider,
    offline,
    openai_provider,
)
from figgen.eval.providers.base import (
    Provider,
    batch_provider_names,
    make_provider,
    parse_option,
    provider_class,
    provider_names,
    register_provider,
    split_model,
)
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply, Turn
from figgen.eval.providers.offline import MockError, MockProvider, oracle_reply

__all__ = [
    "AskConfig",
    "MockError",
    "MockProvider",
    "Prompt",
    "Provider",
    "Reply",
    "Turn",
    "batch_provider_names",
    "make_provider",
    "oracle_reply",
    "parse_option",
    "provider_class",
    "provider_names",
    "register_provider",
    "split_model",
]
