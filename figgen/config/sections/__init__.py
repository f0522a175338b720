"""The config's building blocks, below the plot kinds: validated ranges and weights
(:mod:`.fields`), the shared sections every figure reads (:mod:`.shared`) and the question
balance section (:mod:`.balance`). A kind declares its own section from these."""
