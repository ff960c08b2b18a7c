"""The rounds CSV, kept: written once per household and version of its data, then sent whole.

Building the CSV reads every hand the household ever played (seconds for 10,000 games), so the
first download after a change streams it to the phone while writing it to
``instance/rounds/rounds-<household>-<key>.csv`` (0600, in a 0700 folder); later downloads of the
same data are that file, sent with ``send_file`` (its ETag the key, so a phone that holds it
gets 304). The key is a digest of the household, its creation time, its time zone (the CSV's
times are local), its language (the CSV is written for the family, in the household's
language, whoever downloads it: ``languages.speaking``), its columns' headings (an upgrade
that adds a column builds afresh) and its kept statistics' version (``history.stats``), which
moves with every write to a game (rounds, corrections, the bin, imports and restores, merges),
with every rename and with a change of time zone: so the first download after any of them is
built afresh. A file is kept only when the version read after
building it is still the one read before (else a write came in between and the next download
builds again); when a household's new file is in place its older ones are removed.

The file's name holds the household that asked (``scope``), so no household is ever sent
another's; access is the route's (``@requires``).
"""

from __future__ import annotations

import gzip
import hashlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from flask import Response, current_app, request, send_file, stream_with_context
from sqlalchemy import select

from .. import languages, local_time, scope
from ..derived import StatsVersion
from ..extensions import db
from ..models import Household
from . import backup

FOLDER = "rounds"
MIMETYPE = "text/csv"
# A half-written file older than this was left by a process that stopped: it goes.
STALE_PART_SECONDS = 3600


def folder() -> Path:
    return Path(current_app.instance_path) / FOLDER


def key(household_id: int) -> str:
    """What the household's CSV is made from, as a digest (one small query)."""
    households = Household.__table__
    # The household's own version: the scope keeps the read to it.
    with scope.household(household_id):
        row = db.session.execute(
            select(households.c.created_at, households.c.time_zone, households.c.language)
            .where(households.c.id == household_id)
            .add_columns(select(StatsVersion.version).scalar_subquery())
        ).one_or_none()
    created, chosen, language, version = row if row is not None else (None, None, None, 0)
    made = created.isoformat() if created is not None else ""
    # The CSV's times are in the household's zone: another zone is another file; and its
    # words in the household's language: another language is another file.
    zone = local_time.chosen_zone(household_id, chosen)
    words = languages.known(language) or languages.DEFAULT
    # And its columns as headed in that language: a version that adds a column (or words one
    # anew) changes no data, yet must not send the file an older version kept for it.
    with languages.speaking(words):
        heading = ",".join(str(column) for column in backup.CSV_COLUMNS)
    text = f"{household_id}|{made}|{version or 0}|{zone}|{words}|{heading}"
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def path_of(household_id: int, digest: str, gzipped: bool = False) -> Path:
    return folder() / f"rounds-{household_id}-{digest}.csv{'.gz' if gzipped else ''}"


def _accepts_gzip() -> bool:
    return request.accept_encodings.quality("gzip") > 0


def download(filename: str) -> Response:
    """The household's rounds CSV as an attachment: 304 when the phone holds it, the kept file
    when there is one for the data as it is, else built now (streamed and kept)."""
    household = scope.current()
    if not isinstance(household, int) or household == scope.NOBODY:
        return _stream(backup.csv_lines(), filename)  # not reached through the route
    digest = key(household)
    gzipped = _accepts_gzip()
    etag = f"rounds-{household}-{digest}{'-gz' if gzipped else ''}"
    # Flask-Compress, compressing the file on the way for a phone taking deflate, br or zstd
    # but not gzip, sends the ETag with ":<algorithm>" added: the same file.
    held = {tag.partition(":")[0] for tag in request.if_none_match.as_set()}
    if etag in held:
        return _headers(Response(status=304), etag)
    path = path_of(household, digest, gzipped)
    try:
        response = send_file(
            path,
            mimetype=MIMETYPE,
            as_attachment=True,
            download_name=filename,
            etag=etag,
            conditional=True,
            max_age=None,
        )
        if gzipped:
            response.content_encoding = "gzip"
    except FileNotFoundError:
        # Built now, and sent as it is built: not compressed, so no gzip ETag either.
        etag = f"rounds-{household}-{digest}"
        response = _stream(_build(household, digest), filename)
    return _headers(response, etag)


def _headers(response: Response, etag: str) -> Response:
    response.set_etag(etag)
    # An export of the household's every round: kept by no cache (security.py).
    response.headers["Cache-Control"] = "no-store"
    response.vary.update(("Cookie", "Accept-Encoding"))
    return response


def _stream(chunks: Iterator[str] | Iterator[bytes], filename: str) -> Response:
    response = Response(stream_with_context(chunks), mimetype=MIMETYPE)
    response.headers.set("Content-Disposition", "attachment", filename=filename)
    return response


def _build(household_id: int, digest: str) -> Iterator[bytes]:
    """The CSV, chunk by chunk as it is read, written on the way to two temporary files beside
    the kept ones, as it is and gzipped (sent to the phones that take gzip: a tenth of the
    size); they take their places when the whole CSV was read and nothing changed."""
    place = folder()
    place.mkdir(mode=0o700, parents=True, exist_ok=True)
    # mkstemp makes the files 0600.
    temporaries = [
        tempfile.mkstemp(prefix=f".rounds-{household_id}-", suffix=".part", dir=place)
        for _ in range(2)
    ]
    complete = False
    try:
        with (
            languages.speaking(languages.household_language(household_id)),
            os.fdopen(temporaries[0][0], "wb") as plain,
            os.fdopen(temporaries[1][0], "wb") as packed,
            gzip.GzipFile(fileobj=packed, mode="wb", compresslevel=6, mtime=0) as zipped,
        ):
            for text in backup.csv_lines():
                chunk = text.encode("utf-8")
                plain.write(chunk)
                zipped.write(chunk)
                yield chunk
        complete = True
    finally:
        # Stopped half-way (the phone went away), or a write came in while it was read: not kept.
        if complete and key(household_id) == digest:
            os.replace(temporaries[1][1], path_of(household_id, digest, gzipped=True))
            target = path_of(household_id, digest)
            os.replace(temporaries[0][1], target)
            _remove_others(household_id, digest)
        for _, temporary in temporaries:
            Path(temporary).unlink(missing_ok=True)


def _remove_others(household_id: int, digest: str) -> None:
    """The household's older files, and anyone's half-written file left long ago. (A file being
    sent as it goes stays readable to the request sending it.)"""
    now = time.time()
    place = folder()
    for other in place.glob(f"rounds-{household_id}-*.csv*"):
        if not other.name.startswith(f"rounds-{household_id}-{digest}."):
            other.unlink(missing_ok=True)
    for part in place.glob(".rounds-*.part"):
        try:
            if now - part.stat().st_mtime > STALE_PART_SECONDS:
                part.unlink(missing_ok=True)
        except OSError:
            continue
