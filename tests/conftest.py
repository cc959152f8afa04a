import os
import sys

sys.path.insert(0, os.path.dirname(__file__))

from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# a long hunt for counterexamples, by hand: HYPOTHESIS_PROFILE=hunt pytest tests/test_properties.py
settings.register_profile("hunt", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
