"""Private leaves every layer may use: lazy package names, plain data, the registry type,
disc overlap, colour distance, redaction, markdown tables and the version. They import nothing
of figgen but :mod:`figgen.errors`."""
