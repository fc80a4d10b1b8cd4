import random

import numpy as np
import pytest


@pytest.fixture(autouse=True)
def _give_the_global_rngs_back():
    """Determinism tests reseed ``random`` and ``numpy.random`` on purpose; later tests get theirs back."""
    saved = random.getstate(), np.random.get_state()
    yield
    random.setstate(saved[0])
    np.random.set_state(saved[1])
