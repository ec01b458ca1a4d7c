# The Dragontable image: the project's wheel and its locked dependencies on a slim Python,
# run as a user without privileges.  docker-compose.yml builds it for the app workers and the
# migration job.  requirements.lock and requirements-build.lock are made by `uv pip compile`
# (see docs/operations.md).

FROM python:3.11-slim AS build
# The rules and the fan-out are compiled to C (backend/native.py): gcc here, and the image's
# Python headers; the final stage gets the compiled modules in the wheel, and no compiler.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# Dependencies first (their layer is reused while only the code changes), checked by hash.
COPY requirements.lock requirements-build.lock ./
RUN pip wheel --no-cache-dir --no-deps --require-hashes -r requirements.lock -w /wheels
# The same pins and mypy (mypyc) with setuptools, to type-check and compile the sources.
RUN pip install --no-cache-dir --no-deps --require-hashes -r requirements-build.lock
COPY pyproject.toml README.md ./
COPY backend ./backend
RUN python -m backend.native build && pip wheel --no-cache-dir --no-deps . -w /wheels

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DRAGONTABLE_FRONTEND_DIR=/srv/dragontable/frontend \
    DRAGONTABLE_MIGRATIONS_DIR=/srv/dragontable/migrations \
    DRAGONTABLE_LOG_FORMAT=json
RUN useradd --create-home --uid 10001 dragontable
COPY --from=build /wheels /wheels
RUN pip install --no-cache-dir --no-deps /wheels/*.whl && rm -rf /wheels
COPY frontend /srv/dragontable/frontend
COPY migrations /srv/dragontable/migrations
WORKDIR /srv/dragontable
USER dragontable
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=5 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)"]
CMD ["python", "-m", "backend", "serve", "--host", "0.0.0.0", "--port", "8000", "--no-browser"]
