"""Corpus side of the harness: parsing, chunking, embeddings, Chroma dense + bm25s sparse indexes, RRF, rerank."""
