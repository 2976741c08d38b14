"""What the test modules share besides pytest fixtures (those live in tests/conftest.py).

Imported as `support.<module>`: pytest puts tests/ on sys.path, as it does for conftest.

- `paths`: the repository's folders the tests read;
- `strategies`: Hypothesis strategies for texts, documents, turns and options;
- `invariants`: what every chunker keeps (the visible characters, in order);
- `fixture_cases`: loading the JSON fixture families and answering them in Python;
- `bm25_reference`: BM25 straight from the rules, with no index (what `LexicalIndex` answers);
- `lexical_index_steps`: a case of lexical_index.json replayed on `LexicalIndex` and on the rules;
- `offsets`: Python indices turned into JavaScript's;
- `reply`: a bridge reply read as chunker.js reads it;
- `recorder`: what a browser page requested and reported;
- `facade`: loading the JavaScript facade into a page;
- `serving`: the site and the test pages served on a free port (needs tools/, Python 3.11+);
- `playground`: opening the playground and waiting for it;
- `typescript`: tsc on the typed example of a page author's code;
- `fresh_venv`: the wheel installed in a fresh venv, with the environment a user has.
"""
