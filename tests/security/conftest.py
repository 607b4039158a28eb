import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from cache_attacks import other_user, planted_library, world_writable_dir


@pytest.fixture()
def attacker():
    """(uid, gid) of a second local user (skips where there is none to be had)."""
    return other_user()


@pytest.fixture()
def shared():
    """A world-writable folder under /tmp, removed afterwards."""
    folder = world_writable_dir()
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture()
def planted(tmp_path):
    """(bytes of a library that writes a marker when loaded, the marker's path)."""
    marker = tmp_path / "PLANTED-CODE-RAN"
    folder = tmp_path / "attacker-build"
    folder.mkdir()
    return planted_library(folder, marker), marker
