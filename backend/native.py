"""The engines and the fan-out compiled to C by mypyc, from the same Python source (issue 15).

What is compiled (``PACKAGES``, ``MODULES``): both games' rules, the live tables' fan-out
(``play/frames``, ``play/audience``, ``play/patch``: the views, patches and hashes of every step),
and the engine's ``rng`` (every die and every simulator's draw: called from compiled code).

    python -m backend.native build    # compile them (≈ 1.5 min; gcc, Python headers, mypy)
                                      # (nothing to do if built from these sources; --force: rebuild)
    python -m backend.native clean    # remove what build made: the pure Python is used again
    python -m backend.native status   # which engine an import gets, and why

The ``.py`` files stay the source of truth: mypyc compiles the same typed code (``mypy --strict``
clean) to one C extension per module, placed beside its source (``*.so``, git-ignored), plus the
shared library of the group (``backend/_native__mypyc*.so``).  The package ``__init__.py``
files are not compiled: those of ``backend.games.dorn``, ``backend.games.dorasure``,
``backend.play`` and ``backend.engine`` call ``select()`` before any of their modules is imported.

Python imports an extension module before a ``.py`` of the same name, so a build left behind
after a source was edited would run the old rules.  A build therefore writes a stamp, the
SHA-256 of every source it compiled; ``select()`` uses the compiled modules only while the
sources hash to the stamp, and otherwise (no build, a source changed since, or
``DRAGONTABLE_NATIVE=0``) puts an import hook first that loads every one of them from its
``.py``.  Either way every compiled module comes from the same side: one build, one stamp.

This module reads files and the environment to choose a loader; it imports nothing of the games
(no cycle: ``tests/engine/test_import_cycles.py``), and the games stay pure.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

BACKEND = Path(__file__).resolve().parent
REPO = BACKEND.parent
# Every module of these packages but their ``__init__`` files, and these modules.
PACKAGES = ("backend.games.dorn", "backend.games.dorasure")
MODULES = ("backend.play.frames", "backend.play.audience", "backend.play.patch", "backend.engine.rng")
# The group's shared library lands inside the package (``_native__mypyc``): an editable install
# finds it there, where a top-level module would need the checkout on ``sys.path``.
GROUP = "backend._native"
STAMP = BACKEND / "_native.stamp"
BUILD_DIR = REPO / "build" / "native"
ENV = "DRAGONTABLE_NATIVE"  # "0": never use the compiled modules

_SETUP = """\
import sys
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="dragontable_native",
    packages=[],
    ext_modules=mypycify(sys.argv[1:], opt_level="3", group_name={group!r}, target_dir={target!r}),
    script_args=["build_ext", "--inplace", "--build-temp", {temp!r}, "--build-lib", {lib!r}],
)
"""


def sources() -> list[Path]:
    """What is compiled: every module of ``PACKAGES`` but the ``__init__.py`` files, and ``MODULES``."""
    found = [REPO / f"{name.replace('.', '/')}.py" for name in MODULES]
    for package in PACKAGES:
        found += (p for p in (REPO / package.replace(".", "/")).rglob("*.py") if p.name != "__init__.py")
    return sorted(found)


def module_names() -> frozenset[str]:
    """The dotted names of what ``sources`` compiles."""
    return frozenset(".".join(p.relative_to(REPO).with_suffix("").parts) for p in sources())


def digest() -> str:
    h = hashlib.sha256()
    for path in sources():
        h.update(path.relative_to(REPO).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def built() -> list[Path]:
    """The extension modules a build left beside the sources, and the group's library."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    group = REPO / GROUP.replace(".", "/")
    candidates = [group.with_name(group.name + "__mypyc" + s) for s in suffixes]
    candidates += (p.with_suffix(s) for p in sources() for s in suffixes)
    return sorted(p for p in candidates if p.is_file())


def why_not() -> str | None:
    """None when the compiled modules are to be used, else the reason they are not."""
    if os.environ.get(ENV, "1") == "0":
        return f"{ENV}=0"
    if not STAMP.is_file():
        return "not built (python -m backend.native build)"
    if STAMP.read_text().split("\n")[0] != digest():
        return "the sources changed since the build (python -m backend.native build)"
    if not built():  # built by another Python: its extension modules are not found
        return "not built for this Python (python -m backend.native build)"
    return None


class _FromSource(importlib.abc.MetaPathFinder):
    """Loads the compiled packages' and modules' code from their ``.py`` files, never from an
    extension module."""

    def __init__(self) -> None:
        self.prefixes = tuple(f"{package}." for package in PACKAGES)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if path is None or not (fullname.startswith(self.prefixes) or fullname in MODULES):
            return None
        name = fullname.rpartition(".")[2]
        for entry in path:
            package = Path(entry) / name / "__init__.py"
            if package.is_file():
                return importlib.util.spec_from_file_location(
                    fullname, package, submodule_search_locations=[str(package.parent)]
                )
            module = Path(entry) / f"{name}.py"
            if module.is_file():
                return importlib.util.spec_from_file_location(fullname, module)
        return None


_HOOK = _FromSource()


_chosen: bool | None = None  # select()'s answer, the same for every package that asks


def select() -> bool:
    """Called by each package's ``__init__`` before its modules are imported: True when the
    compiled modules will be used (decided once per process, for all of them)."""
    global _chosen
    if _chosen is None:
        reason = why_not()
        _chosen = reason is None
        if reason is not None:
            if _HOOK not in sys.meta_path:
                sys.meta_path.insert(0, _HOOK)
            if built() and os.environ.get(ENV, "1") != "0":
                warnings.warn(f"compiled modules not used: {reason}", RuntimeWarning, stacklevel=2)
    return _chosen


def clean() -> None:
    import shutil  # here: every process that imports the game reads this module, few build

    for path in built():
        path.unlink()
    STAMP.unlink(missing_ok=True)
    shutil.rmtree(BUILD_DIR, ignore_errors=True)


def _toolchain() -> str:
    """The stamp's second line: a build is redone for another mypyc or Python (an extension
    built for another Python is not even found by its imports)."""
    from mypy.version import __version__

    return f"mypy {__version__}, Python {sys.version.split()[0]}"


def up_to_date() -> bool:
    if why_not() is not None or not built():
        return False
    lines = STAMP.read_text().split("\n")
    return len(lines) > 1 and lines[1] == _toolchain()


def build(*, force: bool = False) -> None:
    """Compile the package in place, unless the build there is of these sources with this
    toolchain (``force``: always).  The stamp is written last, from the sources as they were read
    before the compiler started: a source edited during the build leaves a stale stamp."""
    import subprocess

    if not force and up_to_date():
        return
    clean()
    stamp = digest() + "\n" + _toolchain()
    BUILD_DIR.mkdir(parents=True, exist_ok=True)
    setup = BUILD_DIR / "setup.py"
    setup.write_text(
        _SETUP.format(
            group=GROUP, target=str(BUILD_DIR), temp=str(BUILD_DIR / "temp"), lib=str(BUILD_DIR / "lib")
        )
    )
    paths = [str(p.relative_to(REPO)) for p in sources()]
    # From the checkout's root: mypyc names the modules by their paths from there.
    subprocess.run([sys.executable, str(setup), *paths], cwd=REPO, check=True)
    STAMP.write_text(stamp + "\n")


def main(argv: Sequence[str]) -> int:
    command = argv[0] if argv else "status"
    if command == "build":
        build(force="--force" in argv)
    elif command == "clean":
        clean()
    elif command != "status":
        print(__doc__)
        return 2
    reason = why_not()
    print("compiled" if reason is None else f"pure Python: {reason}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
