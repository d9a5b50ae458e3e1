"""The self-check service over HTTP: ``python -m coursetools serve`` (Starlette on uvicorn).

``POST /check/{lab}`` with ``Authorization: Bearer <token>`` and the notebook (.ipynb) as the body does the work.
The cheap refusals come first, each before anything costlier: the declared size, the lab, the token's form, then
the token itself (`identify`, the one place a request's identity is decided), the lab of the token, the student's
limit of refused uploads, the deadline, the size read, the JSON's shape, the notebook's lab, the rate limit and a
check in flight, and last nbformat's full validation. Each refused upload counts against the student's limit of
refusals (`records.refused`). An accepted check is recorded, queued (`queue.submit_check`) for a worker, which
grades it in the sandbox, and the request waits for its one answer through the process's one `answers.Listener`
(no database connection of its own); a client that hangs up stops waiting at once. ``GET /check/{check_id}``
with the same token reads an answer that came after its request gave up (504). Anything refused gets a 4xx whose
JSON ``error`` says why in plain words. ``GET /`` says what the service is. There is no other route: the
instructor's commands (tokens, reports) run locally, never over this port. The service never runs or imports
what a student sent: it reads the notebook as JSON only.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route

from coursetools.labs import labs_in
from coursetools.service import answers, hub, records, selfcheck, tokens

SERVICE_TEXT = ("Self-check service of the adversarial-search course. In a lab notebook, run "
                "course_lib.check_online() with your token in COURSE_CHECK_TOKEN.\n")


@dataclass
class Settings:
    """What the running service needs: the course folder, the deadline policy, how long a request waits."""

    course: Path
    policy: records.Policy = field(default_factory=records.Policy)
    timeout: float = 240.0


def error(status: int, message: str, extra: dict | None = None, **headers: str) -> JSONResponse:
    """A refusal in plain words."""
    return JSONResponse({"error": message, **(extra or {})}, status_code=status, headers=headers or None)


async def read_capped(request: Request, cap: int) -> bytes | None:
    """The request's body, or None as soon as it passes `cap` bytes (nothing more is read)."""
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            return None
    return bytes(body)


#: A body declared over the cap, up to this many times it, is read and dropped before the 413 (a client still
#: sending when the service closes the connection sees a broken pipe, not the refusal); a larger one is not read.
DRAIN_TIMES = 4


def too_large(cap: int) -> JSONResponse:
    return error(413, f"the notebook is too large: the cap is {cap // 1024} KB (clear the outputs of big cells, "
                      "then save and check again)")


def bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    return auth[7:].strip() if auth[:7].lower() == "bearer " else None


async def identify(request: Request, lab: str = "") -> tokens.Holder:
    """Who sends the request: on a course server the Hub's user whose token it is (`hub.holder`, with the lab the
    path names), elsewhere the student and lab of a course token; `tokens.TokenError` when nobody."""
    token = bearer(request)
    if not hub.on_hub():
        tokens.check_form(token)  # no database for a token that cannot be one
    return await run_in_threadpool(hub.holder, token, lab)


def unauthorised(exc: tokens.TokenError) -> JSONResponse:
    return error(401, str(exc), **{"WWW-Authenticate": "Bearer"})


def lab_named(settings: Settings, name: str) -> str:
    """The lab a path names: its folder name, or its number (a notebook whose file name Colab lost)."""
    labs = labs_in(settings.course)
    if name.isdigit():
        return next((known for known in labs if known.split("_", 1)[0] == name), name)
    return name


async def check(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    cap = selfcheck.max_bytes()
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > cap:
        if int(declared) <= DRAIN_TIMES * cap:  # read and dropped unparsed, so the client hears why
            async for _ in request.stream():
                pass
        return too_large(cap)  # nothing parsed, nothing spent
    lab = lab_named(settings, request.path_params["lab"])
    if lab not in labs_in(settings.course):
        return error(404, f"there is no lab {lab!r} in this course")
    try:
        holder = await identify(request, lab)
    except tokens.TokenError as exc:
        return unauthorised(exc)
    if holder.lab != lab:
        return error(403, f"wrong lab: your token is for lab {holder.lab}, and this is lab {lab} (use the token "
                          f"of {lab}, or check the notebook of {holder.lab})")
    try:
        await run_in_threadpool(records.may_start, holder.student, lab)
        practice = await run_in_threadpool(records.practice_after_deadline, settings.course, lab, settings.policy)
    except records.Busy as exc:
        return error(429, str(exc), {"check_id": exc.check_id}, **{"Retry-After": str(exc.retry_after)})
    except records.RateLimited as exc:
        return error(429, str(exc), **{"Retry-After": str(exc.retry_after)})
    except records.Closed as exc:
        return error(403, str(exc))
    body = await read_capped(request, cap)
    if body is None:
        await run_in_threadpool(records.refused, holder.student, lab, 413)
        return too_large(cap)
    try:
        await run_in_threadpool(_examine, body, lab, settings.course)
    except selfcheck.Refused as exc:
        status = 413 if "too large" in str(exc) else 422 if str(exc).startswith("wrong lab") else 400
        await run_in_threadpool(records.refused, holder.student, lab, status)
        return error(status, str(exc))
    check_id = uuid.uuid4().hex
    try:
        await run_in_threadpool(records.start, check_id, holder.student, lab, practice)
    except records.Busy as exc:
        return error(429, str(exc), {"check_id": exc.check_id}, **{"Retry-After": str(exc.retry_after)})
    except records.RateLimited as exc:
        return error(429, str(exc), **{"Retry-After": str(exc.retry_after)})
    from coursetools.service import queue

    await run_in_threadpool(queue.submit_check, check_id, lab, holder.student, body)
    answer = await wait_or_hang_up(request, check_id, settings.timeout)
    if answer is HUNG_UP:
        return Response(status_code=499)  # nobody reads it; the check goes on and its answer is kept
    if answer is None:
        return error(504, f"no answer within {settings.timeout:.0f} s: the checkers are busy; your check goes on, "
                          f"and its answer is kept (check {check_id}): ask again in a few minutes",
                     {"check_id": check_id})
    await run_in_threadpool(records.finish, check_id, answer)  # its worker did too; the first one counts
    return JSONResponse({**answer, "practice": practice})


def _examine(body: bytes, lab: str, course: Path) -> None:
    """The notebook's cheap checks (shape, lab), then nbformat's full validation; `selfcheck.Refused` if it fails."""
    data = selfcheck.parse_notebook(body)
    selfcheck.check_lab(data, lab, course)
    selfcheck.validate(data)


HUNG_UP = object()


async def wait_or_hang_up(request: Request, check_id: str, timeout: float) -> dict | None | object:
    """The check's answer, None after `timeout` seconds, or `HUNG_UP` as soon as the client leaves."""
    listener: answers.Listener = request.app.state.listener
    waiting = asyncio.ensure_future(listener.wait(check_id, timeout))
    gone = asyncio.ensure_future(_disconnected(request))
    try:
        done, _ = await asyncio.wait({waiting, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (waiting, gone):
            task.cancel()
    return waiting.result() if waiting in done else HUNG_UP


async def _disconnected(request: Request) -> None:
    """Returns when the client hangs up (the body is read: the next message is the disconnect)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def answer_of(request: Request) -> JSONResponse:
    """``GET /check/{check_id}``: a check's answer to the student who sent it (one that came after a 504)."""
    try:
        holder = await identify(request)
    except tokens.TokenError as exc:
        return unauthorised(exc)
    check_id = request.path_params["check_id"]
    record = await run_in_threadpool(records.record_of, check_id, holder.student)
    if record is None:
        return error(404, f"you have no check {check_id!r} (the id is in the answer that said to ask again)")
    answer = await run_in_threadpool(answers.get_answer, check_id)
    if answer is None:
        return JSONResponse({"check_id": check_id, "status": "waiting",
                             "message": "not answered yet: the checkers are busy; ask again in a minute"},
                            status_code=202, headers={"Retry-After": "30"})
    return JSONResponse({**answer, "practice": record["practice"]})


async def about(request: Request) -> PlainTextResponse:
    return PlainTextResponse(SERVICE_TEXT)


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    return error(404, "no such page: post your notebook to /check/LAB")


async def not_allowed(request: Request, exc: Exception) -> JSONResponse:
    return error(405, "post your notebook to /check/LAB (method POST), or get an answer from /check/CHECK_ID")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    app.state.listener = answers.Listener()
    app.state.listener.start()
    try:
        yield
    finally:
        app.state.listener.stop()


def make_app(settings: Settings) -> Starlette:
    """The ASGI app of the service."""
    app = Starlette(routes=[Route("/", about, methods=["GET"]), Route("/check/{lab}", check, methods=["POST"]),
                            Route("/check/{check_id}", answer_of, methods=["GET"])],
                    exception_handlers={404: not_found, 405: not_allowed}, lifespan=lifespan)
    app.state.settings = settings
    return app


def main(args: argparse.Namespace) -> int:
    """``coursetools serve``: the service on ``--host``/``--port`` until stopped."""
    import uvicorn

    from coursetools import course_root

    policy = records.Policy(args.after_deadline, frozenset(args.practice), frozenset(args.closed))
    app = make_app(Settings(course_root(), policy, args.timeout))
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX", "").rstrip("/")
    if prefix:  # a Hub service: the Hub's proxy passes /services/<name>/... on as it is
        inner = app  # its handlers read their listener from the app they are mounted from
        app = Starlette(routes=[Mount(prefix, app=inner)], lifespan=lambda _outer: lifespan(inner))
    print(f"self-check service on http://{args.host}:{args.port} (after a deadline: {args.after_deadline}; "
          f"limit {records.limits()[0]} checks per {records.limits()[1]} s per student and lab)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", proxy_headers=True,
                timeout_graceful_shutdown=5)
    return 0
