"""Regressions found by tests/test_hostile.py: each input that once ended in a 500."""

from __future__ import annotations

import io

from flask.testing import FlaskClient


def _upload(client: FlaskClient, url: str, raw: bytes) -> str:
    response = client.post(url, data={"file": (io.BytesIO(raw), "file.json")})
    assert response.status_code == 422, response.status_code
    return response.get_data(as_text=True)


def test_uploads_nested_too_deep_or_with_huge_numbers_are_refused(client: FlaskClient) -> None:
    for raw in (b"[" * 100_000, b'{"version": ' + b"1" * 5000 + b"}"):
        assert "far too large" in _upload(client, "/games/import", raw)
        assert "far too large" in _upload(client, "/history/backup", raw)
