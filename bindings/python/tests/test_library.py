"""Loading libu8x: version, lookup order, the message when it is missing."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import u8x

PACKAGE_DIR = str(Path(__file__).resolve().parents[1])


def test_library_version_matches_package():
    assert re.fullmatch(r"\d+\.\d+\.\d+", u8x.library_version)
    assert u8x.library_version == u8x.__version__


def test_package_version_matches_header():
    header = Path(__file__).resolve().parents[3] / "include" / "u8x.h"
    if not header.is_file():
        pytest.skip("no include/u8x.h")
    m = re.search(r'#define U8X_VERSION_STRING "([^"]+)"', header.read_text())
    assert m and m.group(1) == u8x.__version__


def test_tier():
    assert u8x.tier() in ("scalar", "sse42", "avx2", "avx512", "neon")


def _import_in_child(env, code="import u8x; print(u8x.library_path)"):
    env = {**env, "PYTHONPATH": PACKAGE_DIR}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, cwd="/")


def _clean_env():
    return {k: v for k, v in os.environ.items() if k not in ("U8X_LIBRARY", "LD_LIBRARY_PATH")}


def test_u8x_library_is_used_first(tmp_path):
    copy = tmp_path / "renamed-u8x.so"
    shutil.copy(u8x.library_path if os.path.isabs(u8x.library_path) else _real_path(), copy)
    r = _import_in_child({**_clean_env(), "U8X_LIBRARY": str(copy)})
    assert r.returncode == 0 and r.stdout.strip() == str(copy), r.stderr


def test_soname_through_ld_library_path(tmp_path):
    # An installed library: $PREFIX/lib/libu8x.so.1.1.0 and the libu8x.so.1 link.
    if not sys.platform.startswith("linux"):
        pytest.skip("ELF/SONAME lookup is Linux-only here")
    lib = tmp_path / "lib"
    lib.mkdir()
    shutil.copy(_real_path(), lib / "libu8x.so.1.1.0")
    os.symlink("libu8x.so.1.1.0", lib / "libu8x.so.1")
    r = _import_in_child({**_clean_env(), "LD_LIBRARY_PATH": str(lib)})
    assert r.returncode == 0 and r.stdout.strip() == "libu8x.so.1", r.stderr


def test_bad_u8x_library_is_an_import_error():
    r = _import_in_child({**_clean_env(), "U8X_LIBRARY": "/nonexistent/libu8x.so"})
    assert r.returncode != 0
    assert "ImportError" in r.stderr or "LibraryNotFoundError" in r.stderr
    assert "U8X_LIBRARY" in r.stderr


def test_message_when_nothing_is_found(tmp_path):
    # A copy of the package outside any checkout, with no library anywhere.
    pkg = tmp_path / "site"
    shutil.copytree(Path(PACKAGE_DIR) / "u8x", pkg / "u8x")
    env = {**_clean_env(), "PYTHONPATH": str(pkg)}
    r = subprocess.run([sys.executable, "-c", "import u8x"], env=env, capture_output=True, text=True, cwd="/")
    if r.returncode == 0:
        pytest.skip("libu8x is installed system-wide")
    assert "cannot find the libu8x shared library" in r.stderr
    assert "U8X_LIBRARY=" in r.stderr and "LD_LIBRARY_PATH" in r.stderr


def _real_path():
    """The file the loaded library came from (even when found by SONAME)."""
    with open("/proc/self/maps") as maps:
        for line in maps:
            if "libu8x" in line or line.rstrip().endswith(".so") and "u8x" in line:
                path = line.split(None, 5)[-1].strip()
                if os.path.exists(path):
                    return path
    pytest.skip("cannot tell which file libu8x was loaded from")
