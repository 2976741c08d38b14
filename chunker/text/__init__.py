"""What every chunker shares: the records a chunker answers and their one codec (records), a
piece's place in its source (sourcemap), Markdown structure, the overlap's lead and the token
budget's pass, and stable chunk ids (ids). Stands on base/ and tokens/.
"""
