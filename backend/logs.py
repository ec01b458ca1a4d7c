"""How the server logs: text for people, or one JSON object a line for machines
(``DRAGONTABLE_LOG_FORMAT=json``).

Log lines name tables, seqs and refusal codes, never a token, a seed or a hidden card: the
server's own messages carry none (they are written with ids and codes only), and a test scans
the logs of whole games for them (tests/play/test_operations.py).
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

# Every attribute of a plain record: anything else on a record came in through ``extra``
# (table, seq, code, result, worker) and becomes a field of its own.
_STANDARD = set(vars(logging.makeLogRecord({})))


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "at": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in out and not key.startswith("_"):
                out[key] = value if isinstance(value, str | int | float | bool) or value is None else str(value)
        if record.exc_info:
            out["error"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def configure(log_format: str, level: str = "info") -> dict[str, Any]:
    """Set up the root logger (and uvicorn's, through the returned dictConfig for uvicorn)."""
    formatter: dict[str, Any] = (
        {"()": JsonFormatter}
        if log_format == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    config: dict[str, Any] = {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"default": formatter},
        "handlers": {"default": {"class": "logging.StreamHandler", "formatter": "default"}},
        "root": {"handlers": ["default"], "level": level.upper()},
        "loggers": {
            "uvicorn": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.error": {"handlers": ["default"], "level": level.upper(), "propagate": False},
            "uvicorn.access": {"handlers": ["default"], "level": level.upper(), "propagate": False},
        },
    }
    logging.Formatter.converter = time.gmtime
    return config
