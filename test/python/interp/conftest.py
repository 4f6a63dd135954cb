"""Interpreter semantics tests: hypothesis profiles.

The same profiles as test/python/property/conftest.py: "ci" (derandomized: a fixed seed,
used when $CI is set), "dev" (the default) and "long" for local soak runs:

    HYPOTHESIS_PROFILE=long .venv/bin/python -m pytest -p no:xdist test/python/interp

A profile already registered by another conftest (same session) is kept as is.
"""

import os

from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument

PROFILES = {"ci": dict(derandomize=True, max_examples=60), "dev": dict(max_examples=60), "long": dict(max_examples=3000)}

for _name, _options in PROFILES.items():
    try:
        settings.get_profile(_name)
    except InvalidArgument:
        settings.register_profile(_name, deadline=None, suppress_health_check=[HealthCheck.too_slow], **_options)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
