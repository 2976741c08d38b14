"""Many documents at once: `chunk_many` (many) over a pool of worker processes (pool). The
adapters for LangChain, LlamaIndex and Spark are the public modules `chunker.langchain`,
`chunker.llama_index` and `chunker.spark` above this.
"""
