"""Fixtures for the site tests: the site is built once per session (see sitebuild.py)."""

from sitebuild import built_site, site  # noqa: F401  (fixtures)
