"""The cheap parts of a signed-in request: a session checked in the last few seconds is not
looked up again (it is kept under the access version: ``accounts.services._load_session``),
and an unchanged session cookie is not signed and sent again on every answer
(security.RenewedNowAndThen); neither lets an ended session live on."""

from __future__ import annotations

import time

import pytest
from flask import Flask
from sqlalchemy import delete, event

from scorekeeper import security
from scorekeeper.extensions import db
from scorekeeper.models import UserSession

from .conftest import PASSWORD, add_member, sign_in, signed_in


def _queries(app: Flask, client: object, path: str) -> tuple[int, list[str]]:
    with app.app_context():
        engine = db.engine
    statements: list[str] = []

    def count(*args: object) -> None:
        statements.append(str(args[2]))

    event.listen(engine, "before_cursor_execute", count)
    try:
        status = client.get(path).status_code  # type: ignore[attr-defined]
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return status, statements


def test_a_session_checked_a_moment_ago_is_not_looked_up_again(app: Flask) -> None:
    client = signed_in(app, "ann")
    first, asked = _queries(app, client, "/history")
    assert first == 200
    assert any("user_sessions" in statement for statement in asked)
    again, asked = _queries(app, client, "/history")
    assert again == 200
    assert not any("user_sessions" in statement for statement in asked)


def test_every_request_checks_its_session_when_the_bound_is_zero(app: Flask) -> None:
    app.config["SESSION_CHECK_SECONDS"] = 0
    client = signed_in(app, "ann")
    for _ in range(2):
        status, asked = _queries(app, client, "/history")
        assert status == 200
        assert any("user_sessions" in statement for statement in asked)


def test_signing_out_ends_a_held_session_at_once(app: Flask) -> None:
    add_member(app, "ann")
    phone, laptop = app.test_client(), app.test_client()
    sign_in(app, phone, "ann")
    cookie = phone.get_cookie("session")
    assert cookie is not None
    laptop.set_cookie("session", cookie.value)
    assert laptop.get("/history").status_code == 200  # now held as checked
    assert phone.post("/logout").status_code == 303
    assert laptop.get("/history").status_code == 302


def test_a_password_change_ends_held_sessions_at_once(app: Flask) -> None:
    add_member(app, "ann")
    phone, laptop = app.test_client(), app.test_client()
    sign_in(app, phone, "ann")
    sign_in(app, laptop, "ann")
    assert laptop.get("/history").status_code == 200  # now held as checked
    answer = phone.post(
        "/account",
        data={"current": PASSWORD, "password": "a new one here", "confirm": "a new one here"},
    )
    assert answer.status_code == 303
    assert laptop.get("/history").status_code == 302


def test_a_role_change_counts_at_once(app: Flask) -> None:
    from scorekeeper.models import User

    client = signed_in(app, "ann", "owner")
    assert client.get("/history/backup").status_code == 200
    with app.app_context():
        user = db.session.scalar(db.select(User).where(User.username == "ann"))
        assert user is not None
        user.role = "viewer"
        db.session.commit()
    assert client.get("/history/backup").status_code == 403


def test_a_session_ended_elsewhere_ends_here_at_once(app: Flask) -> None:
    """Another server deleting the row moves the access version in the same transaction: the
    session kept here as checked stops counting on the next request."""
    client = signed_in(app, "ann")
    assert client.get("/history").status_code == 200
    assert client.get("/history").status_code == 200  # now kept as checked
    with app.app_context(), db.engine.begin() as connection:
        # Straight on a connection, as another process would: this one hears nothing of it.
        connection.execute(delete(UserSession))
    assert client.get("/history").status_code == 302


def test_a_session_ended_by_hand_ends_here_within_the_bound(app: Flask) -> None:
    """SQL typed by hand outside the app moves no access version: the session keeps working
    for at most SESSION_CHECK_SECONDS, then is refused."""
    app.config["SESSION_CHECK_SECONDS"] = 0.5
    client = signed_in(app, "ann")
    checked = time.monotonic()  # the session is kept as checked after this, by the next request
    assert client.get("/history").status_code == 200
    with app.app_context(), db.engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM user_sessions")
    held = client.get("/history").status_code
    if time.monotonic() - checked < 0.5:  # still within the bound of what was kept
        assert held == 200
    time.sleep(0.6)
    assert client.get("/history").status_code == 302


def test_an_unchanged_session_cookie_is_not_sent_again(app: Flask) -> None:
    client = signed_in(app, "ann")
    client.get("/history")  # the first page makes the session's CSRF secret
    answer = client.get("/history")
    assert answer.status_code == 200
    assert "session=" not in answer.headers.get("Set-Cookie", "")
    assert "Cookie" in answer.headers.get("Vary", "")


def test_an_old_session_cookie_is_renewed(app: Flask, monkeypatch: pytest.MonkeyPatch) -> None:
    from datetime import timedelta

    client = signed_in(app, "ann")
    client.get("/history")
    monkeypatch.setattr(security, "COOKIE_RENEWED_AFTER", timedelta(0))
    answer = client.get("/history")
    assert answer.status_code == 200
    assert "session=" in answer.headers.get("Set-Cookie", "")


def test_a_changed_session_is_sent_at_once(app: Flask) -> None:
    add_member(app, "ann")  # else every page leads to setup
    client = app.test_client()
    first = client.get("/login")  # the sign-in form makes a CSRF secret: a new session
    assert "session=" in first.headers.get("Set-Cookie", "")
    second = client.get("/login")
    assert "session=" not in second.headers.get("Set-Cookie", "")


def test_a_forged_session_cookie_opens_nothing(app: Flask) -> None:
    signed_in(app, "ann")
    stranger = app.test_client()
    stranger.set_cookie("session", "eyJfdXNlcl9pZCI6ImZvcmdlZCJ9.ZZZZZZ.forged")
    assert stranger.get("/history").status_code == 302


def test_a_session_read_before_a_sign_out_and_kept_after_it_counts_for_nothing(
    app: Flask,
) -> None:
    """A request that read a session row just before a sign-out committed (the row still
    there) keeps it after the sign-out: it is kept under the access version it was read
    under, which the sign-out moved, so the next request does not find it."""
    from datetime import timedelta

    from scorekeeper.accounts.services import Account, _digest
    from scorekeeper.extensions import Kept
    from scorekeeper.models import access_version_now, utcnow

    add_member(app, "ann")
    phone, thief = app.test_client(), app.test_client()
    sign_in(app, phone, "ann")
    with phone.session_transaction() as held:
        token = held["_user_id"]
    cookie = phone.get_cookie("session")
    assert cookie is not None
    thief.set_cookie("session", cookie.value)
    with app.app_context():
        read_under = db.session.scalar(db.select(access_version_now()))
        db.session.remove()
    assert phone.post("/logout").status_code == 303
    account = Account(1, "ann", "owner", False, 1)
    late = (account, utcnow() + timedelta(days=1))
    Kept.of(app).put(("session", _digest(token), read_under), late)  # the late request's
    assert thief.get("/history").status_code == 302


def test_signing_out_asks_the_browser_to_forget_what_it_kept(app: Flask) -> None:
    """Round forms, typing and queued saves kept on the phone, and the worker's copies of
    pages, belong to the one signing out: the answer tells the browser to clear them."""
    add_member(app, "ann")
    phone = app.test_client()
    sign_in(app, phone, "ann")
    answer = phone.post("/logout")
    assert answer.status_code == 303
    cleared = {part.strip() for part in answer.headers["Clear-Site-Data"].split(",")}
    assert cleared == {'"cache"', '"storage"'}
