"""Finding words in chunks: lexical tokens, snippets and match spans (lexical), the BM25 index
(lexical_index) and chunks placed in their document (locate). Stands on base/.
"""
