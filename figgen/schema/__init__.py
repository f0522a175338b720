"""Every value that crosses a stage or leaves the process, as one typed home.

The spec sampling hands to rendering, the record a figure is stored as (and the typed panels
it is read into), its parquet row, question items, answer types, answers-file rows, the build
fingerprint and the split rule: dataclasses with no drawing code, written and read through the
same types.
"""
