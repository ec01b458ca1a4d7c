"""The Dockerfile, docker-compose.yml and requirements.lock agree with each other and with the
code (issue 16, point 1).  Docker is not available here, so they are parsed, and the commands
they run are run: the image's CMD and health check, the migration job, the wheel build.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import httpx
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from backend import native
from tests.native_build import not_built
from tests.server_fixtures import ROOT, free_port

IMAGE_ROOT = "/srv/dragontable"


def dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    out = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def final_stage() -> list[tuple[str, str]]:
    steps = dockerfile()
    last = max(i for i, (word, _) in enumerate(steps) if word == "FROM")
    return steps[last:]


def one(stage: list[tuple[str, str]], word: str) -> str:
    [found] = [rest for w, rest in stage if w == word]
    return found


def image_env(stage: list[tuple[str, str]]) -> dict[str, str]:
    env = {}
    for word, rest in stage:
        if word == "ENV":
            for pair in shlex.split(rest):
                key, _, value = pair.partition("=")
                env[key] = value
    return env


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def local(command: list[str], port: int) -> list[str]:
    """An image command as it runs here: this Python, another port."""
    assert command[0] == "python"
    return [sys.executable, *[str(port) if part == "8000" else part for part in command[1:]]]


def local_env(stage: list[tuple[str, str]], **extra: str) -> dict[str, str]:
    env = {k: v.replace(IMAGE_ROOT, str(ROOT)) for k, v in image_env(stage).items()}
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DRAGONTABLE_", "DATABASE_URL", "REDIS_URL"))}
    return {**clean, **env, "PYTHONPATH": str(ROOT), **extra}


def test_the_final_stage_is_slim_unprivileged_and_without_compilers() -> None:
    stage = final_stage()
    assert re.fullmatch(r"python:3\.\d+-slim", one(stage, "FROM"))
    user = one(stage, "USER")
    assert user not in ("root", "0")
    assert any(w == "RUN" and "useradd" in rest and user in rest for w, rest in stage)
    runs = " ".join(rest for w, rest in stage if w == "RUN")
    assert not re.search(r"apt-get|gcc|build-essential|\bmake\b", runs)
    # The dependencies come from the lock, by hash, in the build stage.
    assert any(w == "RUN" and "--require-hashes -r requirements.lock" in rest for w, rest in dockerfile())


def test_ports_commands_and_health_checks_agree() -> None:
    stage = final_stage()
    port = one(stage, "EXPOSE")
    cmd = json.loads(one(stage, "CMD"))
    assert cmd[:4] == ["python", "-m", "backend", "serve"] and cmd[cmd.index("--port") + 1] == port
    health = json.loads(one(stage, "HEALTHCHECK").split("CMD", 1)[1])
    assert f"127.0.0.1:{port}/healthz" in health[-1]
    services = compose()["services"]
    app, migrate = services["app"], services["migrate"]
    assert app["build"] == migrate["build"] == "." and app["image"] == migrate["image"]
    assert app["command"] == cmd
    assert migrate["command"] == ["python", "-m", "backend", "migrate"]
    assert app["healthcheck"]["test"] == ["CMD", *health]
    assert f"server app:{port};" in compose()["configs"]["nginx"]["content"]
    env = app["environment"]
    assert "@postgres:5432/" in env["DATABASE_URL"] and env["REDIS_URL"].startswith("redis://redis:6379")
    # Long enough for the drain the worker is told to do on SIGTERM.
    grace = int(app["stop_grace_period"].rstrip("s"))
    assert grace > float(env["DRAGONTABLE_SHUTDOWN_SECONDS"])


def pins(lock_name: str) -> dict[str, str]:
    """A lock's pins, name -> version, every one with its hashes."""
    lock = (ROOT / lock_name).read_text()
    entries = re.split(r"\n(?=[A-Za-z0-9])", lock.split("\n", 2)[2])
    assert all("--hash=sha256:" in e for e in entries if "==" in e)
    return {canonicalize_name(m.group(1)): m.group(2) for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", lock, re.M)}


def meets_the_project(lock_name: str, extras: list[str]) -> dict[str, str]:
    """Every requirement of the project and these extras is pinned, at a version it admits."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    optional = project["optional-dependencies"]
    pinned = pins(lock_name)
    for line in [*project["dependencies"], *(r for extra in extras for r in optional[extra])]:
        requirement = Requirement(line)
        name = canonicalize_name(requirement.name)
        assert name in pinned, f"{name} is not pinned in {lock_name}"
        # uvicorn was once pinned at 0.54 while pyproject.toml asked for 0.55 (play/wsserver.py)
        assert requirement.specifier.contains(pinned[name], prereleases=True), (
            f"{lock_name} pins {name}=={pinned[name]}, pyproject.toml asks for {requirement.specifier}"
        )
    return pinned


def test_the_lock_pins_every_dependency_with_hashes() -> None:
    meets_the_project("requirements.lock", ["postgres", "redis"])


def test_the_build_lock_adds_the_compiler_to_the_same_pins() -> None:
    runtime = pins("requirements.lock")
    build = meets_the_project("requirements-build.lock", ["postgres", "redis", "native"])
    assert {name: build[name] for name in runtime} == runtime
    assert {"mypy", "setuptools"} <= build.keys()
    # The build stage compiles before it makes the wheel, from these pins, by hash.
    stage = dockerfile()[: max(i for i, (word, _) in enumerate(dockerfile()) if word == "FROM")]
    runs = [rest for word, rest in stage if word == "RUN"]
    installs = next(i for i, r in enumerate(runs) if "--require-hashes -r requirements-build.lock" in r)
    [builds] = [i for i, r in enumerate(runs) if "python -m backend.native build" in r]
    assert installs < builds and "pip wheel" in runs[builds].split("python -m backend.native build")[1]
    assert any("apt-get install" in r and "gcc" in r for r in runs[:installs])


def test_the_image_commands_run(tmp_path: Path) -> None:
    stage = final_stage()
    db = f"sqlite:///{tmp_path / 'image.db'}"
    migrate = local(compose()["services"]["migrate"]["command"], 0)
    # The image's revisions folder, as the Dockerfile copies it.
    (tmp_path / "migrations").mkdir()
    shutil.copytree(ROOT / "migrations", tmp_path / "migrations", dirs_exist_ok=True)
    env = local_env(stage, DATABASE_URL=db, DRAGONTABLE_MIGRATIONS_DIR=str(tmp_path / "migrations"))
    done = subprocess.run(migrate, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr

    port = free_port()
    cmd = local(json.loads(one(stage, "CMD")), port)
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        health = json.loads(one(stage, "HEALTHCHECK").split("CMD", 1)[1])
        probe = [sys.executable, health[1], health[2].replace(":8000/", f":{port}/")]
        for _ in range(100):
            if subprocess.run(probe, capture_output=True, timeout=10).returncode == 0:
                break
            assert proc.poll() is None, proc.stdout.read().decode() if proc.stdout else ""
            subprocess.run([sys.executable, "-c", "import time; time.sleep(0.2)"], check=True)
        else:
            raise AssertionError("the image's health check never passed")
        page = httpx.get(f"http://127.0.0.1:{port}/")
        assert page.status_code == 200 and "<html" in page.text.lower()  # the frontend was found
        assert proc.stdout is not None
        lines = [proc.stdout.readline().decode() for _ in range(3)]  # the migration's lines, then ours
        listening = next(line for line in lines if "listening on" in line)
        assert json.loads(listening)["message"].startswith("listening on")  # JSON logs, as the image sets
    finally:
        proc.terminate()
        proc.wait(20)


def test_the_wheel_carries_the_games_data(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                           str(ROOT), "-w", str(tmp_path)], capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    [wheel] = tmp_path.glob("dragontable-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "backend/__main__.py" in names
    for game in ("dorasure", "dorn"):
        assert any(n.startswith(f"backend/games/{game}/data/") and n.endswith(".json") for n in names)
    # Made after `python -m backend.native build`, as the image's is, it carries the compiled
    # modules and their stamp, and an install of it runs them.
    reason = native.why_not()
    if reason is not None:
        not_built(reason)
    compiled = {p.relative_to(ROOT).as_posix() for p in native.built()}
    assert "backend/_native.stamp" in names and compiled <= set(names)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # --ignore-installed: the checkout's own editable install is visible through the system's
    # packages, and pip would take the wheel as installed already.
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--ignore-installed", str(wheel)],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    probe = ("import backend.native as n, backend.games.dorn.steps as s, backend.play.patch as p; "
             "print(n.why_not(), n.REPO, s.__file__.endswith('.so'), p.__file__.endswith('.so'))")  # fmt: skip
    done = subprocess.run([str(python), "-c", probe], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "DRAGONTABLE_NATIVE")})  # fmt: skip
    assert done.returncode == 0, done.stderr
    why, repo, *loaded = done.stdout.split()
    assert why == "None" and loaded == ["True", "True"] and Path(repo).is_relative_to(venv)


def test_the_bots_run_as_their_own_service_with_the_workers_key() -> None:
    """Issue 12: one bot runner service beside the workers, which start none of their own."""
    services = compose()["services"]
    app, bots = services["app"], services["bots"]
    assert bots["image"] == app["image"] and bots["build"] == app["build"]
    assert bots["command"][:4] == ["python", "-m", "backend", "bots"]
    assert bots["command"][bots["command"].index("--server") + 1] == f"http://app:{one(final_stage(), 'EXPOSE')}"
    assert bots["environment"]["DRAGONTABLE_BOT_KEY"] == app["environment"]["DRAGONTABLE_BOT_KEY"]
    assert app["environment"]["DRAGONTABLE_BOT_RUNNERS"] == "0"
