"""The test toolkit every part of tests/ shares, one job per module: the engine's reference answers
(engine.py), the kept state in a page's storage (kept.py), the system Chromium (chromium.py), the
built site shared by one run (site.py) and the character generator's sheet (sheet.py).

tests/conftest.py puts tests/ on the import path, so a test writes ``from kit.engine import engine``;
no test imports another test module."""
