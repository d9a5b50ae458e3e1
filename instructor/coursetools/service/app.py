"""The self-check service over HTTP: ``python -m coursetools serve`` (Starlette on uvicorn).

One route does the work: ``POST /check/{lab}`` with ``Authorization: Bearer <token>`` and the notebook (.ipynb)
as the body. The service checks the token (its student and lab), the deadline policy, the size and form of the
notebook and the student's rate limit, records the check, queues it (`queue.submit_check`) for a worker, which
grades it in the sandbox, waits for its one answer (`answers.wait_answer`) and returns it as JSON. Anything it
refuses gets a 4xx whose JSON ``error`` says why in plain words. ``GET /`` says what the service is. There is no
other route: the instructor's commands (tokens, reports) run locally, never over this port. The service never
runs or imports what a student sent: it reads the notebook as JSON only.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route

from coursetools.labs import labs_in
from coursetools.service import hub, records, selfcheck, tokens

SERVICE_TEXT = ("Self-check service of the adversarial-search course. In a lab notebook, run "
                "course_lib.check_online() with your token in COURSE_CHECK_TOKEN.\n")


@dataclass
class Settings:
    """What the running service needs: the course folder, the deadline policy, how long a request waits."""

    course: Path
    policy: records.Policy = field(default_factory=records.Policy)
    timeout: float = 240.0


def error(status: int, message: str, **headers: str) -> JSONResponse:
    """A refusal in plain words."""
    return JSONResponse({"error": message}, status_code=status, headers=headers or None)


async def read_capped(request: Request, cap: int) -> bytes | None:
    """The request's body, or None as soon as it passes `cap` bytes (nothing more is read)."""
    declared = request.headers.get("content-length")
    if declared and declared.isdigit() and int(declared) > cap:
        return None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > cap:
            return None
    return bytes(body)


def too_large(cap: int) -> JSONResponse:
    return error(413, f"the notebook is too large: the cap is {cap // 1024} KB (clear the outputs of big cells, "
                      "then save and check again)")


async def check(request: Request) -> JSONResponse:
    settings: Settings = request.app.state.settings
    lab = request.path_params["lab"]
    labs = labs_in(settings.course)
    if lab.isdigit():  # a notebook whose file name is lost (Colab) names its lab by its number
        lab = next((known for known in labs if known.split("_", 1)[0] == lab), lab)
    auth = request.headers.get("authorization", "")
    token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
    try:
        holder = await run_in_threadpool(hub.holder, token, lab)
    except tokens.TokenError as exc:
        return error(401, str(exc), **{"WWW-Authenticate": "Bearer"})
    if lab not in labs:
        return error(404, f"there is no lab {lab!r} in this course")
    if holder.lab != lab:
        return error(403, f"wrong lab: your token is for lab {holder.lab}, and this is lab {lab} (use the token "
                          f"of {lab}, or check the notebook of {holder.lab})")
    try:
        practice = await run_in_threadpool(records.practice_after_deadline, settings.course, lab, settings.policy)
    except records.Closed as exc:
        return error(403, str(exc))
    cap = selfcheck.max_bytes()
    body = await read_capped(request, cap)
    if body is None:
        return too_large(cap)
    try:
        await run_in_threadpool(selfcheck.read_notebook, body, lab, settings.course)
    except selfcheck.Refused as exc:
        status = 413 if "too large" in str(exc) else 422 if str(exc).startswith("wrong lab") else 400
        return error(status, str(exc))
    check_id = uuid.uuid4().hex
    try:
        await run_in_threadpool(records.start, check_id, holder.student, lab, practice)
    except records.RateLimited as exc:
        return error(429, str(exc), **{"Retry-After": str(exc.retry_after)})
    from coursetools.service import answers, queue

    await run_in_threadpool(queue.submit_check, check_id, lab, holder.student, body)
    answer = await run_in_threadpool(answers.wait_answer, check_id, settings.timeout)
    if answer is None:
        return error(504, f"no answer within {settings.timeout:.0f} s: the checkers are busy; try again in a few "
                          "minutes")
    await run_in_threadpool(records.finish, check_id, answer)
    return JSONResponse({**answer, "practice": practice})


async def about(request: Request) -> PlainTextResponse:
    return PlainTextResponse(SERVICE_TEXT)


async def not_found(request: Request, exc: Exception) -> JSONResponse:
    return error(404, "no such page: post your notebook to /check/LAB")


async def not_allowed(request: Request, exc: Exception) -> JSONResponse:
    return error(405, "post your notebook to /check/LAB (method POST)")


@contextlib.asynccontextmanager
async def lifespan(app: Starlette) -> AsyncIterator[None]:
    import anyio.to_thread

    anyio.to_thread.current_default_thread_limiter().total_tokens = 400  # each waiting check holds a thread
    yield


def make_app(settings: Settings) -> Starlette:
    """The ASGI app of the service."""
    app = Starlette(routes=[Route("/", about, methods=["GET"]), Route("/check/{lab}", check, methods=["POST"])],
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
        app = Starlette(routes=[Mount(prefix, app=app)], lifespan=lifespan)
    print(f"self-check service on http://{args.host}:{args.port} (after a deadline: {args.after_deadline}; "
          f"limit {records.limits()[0]} checks per {records.limits()[1]} s per student and lab)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="info", proxy_headers=True,
                timeout_graceful_shutdown=5)
    return 0
