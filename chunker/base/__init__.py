"""The floor every layer stands on: argument checks that name the field (validation), the
least values and choices of options (limits), white space as the spec reads it, the collector's
pause, and the optional extras' import. Imports nothing else of chunker.
"""
