"""The live run page: state folded from typed events, its fragments and its search graph."""
