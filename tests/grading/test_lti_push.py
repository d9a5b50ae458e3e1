"""LTI 1.3 grade passback against a real platform implementation on 127.0.0.1: lti1p3platform's token endpoint
(client credentials with a JWT assertion checked against the tool's registered key), its access-token checks and
its Assignment and Grade Services handlers, served by Starlette on uvicorn, the line items and results kept in
memory as an LMS keeps them in its database. `coursetools push-grades` runs as the instructor runs it, over HTTP.

The class is conftest's `lms_class`: ada 7, cyd 1 (late), dan 7 of 7; bob's written answer is not graded yet.
"""

from __future__ import annotations

import asyncio
import json
import stat
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

import jwt
import pytest
from incourse import run_coursetools
import uvicorn
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.exceptions import LineItemNotFoundException, LtiException, LtiServiceException
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.registration import Registration
from lti1p3platform.request import Request as LtiRequest
from lti1p3platform.service_connector import AssignmentsGradesService
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from coursetools import tool_env
from coursetools.grading.lti import (SCOPE_LINEITEM, SCOPE_LINEITEM_READ, SCOPE_RESULT_READ, SCOPE_SCORE)
from coursetools.quality.processes import free_port
from coursetools.quality.toycourse import LAB

ISSUER = "https://lms.test.example"
CLIENT_ID = "10000000000042"
ALL_SCOPES = {SCOPE_LINEITEM, SCOPE_LINEITEM_READ, SCOPE_RESULT_READ, SCOPE_SCORE}


def _pem_pair() -> tuple[str, str]:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption()).decode()
    public = key.public_key().public_bytes(serialization.Encoding.PEM,
                                           serialization.PublicFormat.SubjectPublicKeyInfo).decode()
    return private, public


PLATFORM_KEYS = _pem_pair()


@dataclass
class Store:
    """What the LMS keeps, and how the test makes it misbehave."""

    lineitems: dict[str, dict] = field(default_factory=dict)
    results: dict[tuple[str, str], dict] = field(default_factory=dict)
    score_posts: list[str] = field(default_factory=list)  # userId of every score the platform accepted
    granted: set[str] = field(default_factory=lambda: set(ALL_SCOPES))
    token_seconds: int = 3600
    down_after: int | None = None  # accept this many scores, then answer 503 to every score
    flaky: dict[str, int] = field(default_factory=dict)  # userId -> scores to refuse (500) before accepting
    slow_results: float = 0.0


class Platform(LTI1P3PlatformConfAbstract):
    """lti1p3platform's platform with this test's registration; tokens carry only the scopes the LMS grants."""

    def init_platform_config(self, **kwargs) -> None:
        self.store: Store = kwargs["store"]
        self.tool_jwks: dict = kwargs["tool_jwks"]

    def get_registration_by_params(self, **kwargs) -> Registration:
        reg = Registration().set_iss(ISSUER).set_client_id(CLIENT_ID).set_deployment_id("1")
        reg.set_platform_private_key(PLATFORM_KEYS[0]).set_platform_public_key(PLATFORM_KEYS[1])
        return reg.set_tool_key_set(self.tool_jwks)

    def get_access_token(self, token_request_data):
        answer = super().get_access_token(token_request_data)
        scopes = " ".join(s for s in answer["scope"].split() if s in self.store.granted)
        reg = self.get_registration()
        token = reg.encode_and_sign({"sub": CLIENT_ID, "iss": ISSUER, "scopes": scopes},
                                    reg.get_platform_private_key(), expiration=self.store.token_seconds)
        return dict(answer, access_token=token, scope=scopes)


class Ags(AssignmentsGradesService):
    """The platform's line items and scores, in memory; each endpoint accepts only its own scope."""

    def __init__(self, request, platform, base: str, scopes: list[str]) -> None:
        super().__init__(request, platform, f"{base}/lineitems")
        self.store, self.base, self.scopes = platform.store, base, scopes

    @property
    def allowed_scopes(self) -> list[str]:
        return self.scopes

    def find_lineitems(self, page=1, limit=None, line_item_id=None, resource_link_id=None, resource_id=None,
                       tag=None):
        items = [li for li in self.store.lineitems.values()
                 if (resource_id is None or li.get("resourceId") == resource_id) and (tag is None or li.get("tag") == tag)]
        return {"content": items, "has_next": False}

    def find_lineitem(self, line_item_id):
        if line_item_id not in self.store.lineitems:
            raise LineItemNotFoundException(line_item_id)
        return self.store.lineitems[line_item_id]

    def create_lineitem(self, creation_data):
        item = dict(creation_data, id=f"{self.base}/lineitems/{len(self.store.lineitems) + 1}")
        self.store.lineitems[item["id"]] = item
        return item

    def update_lineitem(self, update_data):
        self.find_lineitem(update_data["id"]).update(update_data)
        return self.store.lineitems[update_data["id"]]

    def delete_lineitem(self, line_item_id):
        self.store.lineitems.pop(self.find_lineitem(line_item_id)["id"])

    def update_score(self, line_item_id, score):
        from lti1p3platform.score import UpdateScoreStatus

        self.find_lineitem(line_item_id)
        user = str(score["userId"])
        if self.store.down_after is not None and len(self.store.score_posts) >= self.store.down_after:
            raise LtiServiceException("service unavailable", 503)
        if self.store.flaky.get(user):
            self.store.flaky[user] -= 1
            raise LtiServiceException("internal error", 500)
        self.store.score_posts.append(user)
        self.store.results[(line_item_id, user)] = {
            "id": f"{line_item_id}/results/{user}", "scoreOf": line_item_id, "userId": user,
            "resultScore": score["scoreGiven"], "resultMaximum": score["scoreMaximum"]}
        return UpdateScoreStatus.SUCCESS

    def get_results(self, line_item_id, page=1, limit=None, user_id=None):
        self.find_lineitem(line_item_id)
        time.sleep(self.store.slow_results)
        return {"content": [r for (li, _), r in self.store.results.items() if li == line_item_id], "has_next": False}


class StarletteRequest(LtiRequest):
    def build_metadata(self, request):
        return request  # already the dict lti1p3platform reads (built by `_lti_request`)


async def _lti_request(request: Request) -> StarletteRequest:
    body = await request.body()
    content_type = request.headers.get("content-type", "")
    form = dict(parse_qsl(body.decode())) if content_type.startswith("application/x-www-form-urlencoded") else {}
    return StarletteRequest({"method": request.method, "form_data": form, "get_data": dict(request.query_params),
                             "headers": request.headers, "content_type": content_type, "path": request.url.path,
                             "json": json.loads(body) if body and "json" in content_type else None})


def _wire(resp) -> Response:
    """lti1p3platform's Response on the wire, as its Django adapter writes it (a container is a JSON array)."""
    if 200 <= resp.code < 300:
        data = resp.result["content"] if isinstance(resp.result, dict) and "content" in resp.result else resp.result
        return JSONResponse(data, status_code=resp.code, media_type=resp.media_type)
    return JSONResponse({"error": resp.message}, status_code=resp.code)


def make_app(store: Store, tool_jwks: dict, base_holder: list[str]) -> Starlette:
    platform = Platform(store=store, tool_jwks=tool_jwks)
    platform.get_registration()

    async def token(request: Request):
        data = await _lti_request(request)
        try:
            return JSONResponse(platform.get_access_token(data.form_data))
        except (LtiException, jwt.PyJWTError, KeyError, AssertionError) as exc:
            return JSONResponse({"error": "invalid_client", "error_description": str(exc)}, status_code=401)
        except Exception as exc:  # noqa: BLE001 - MissingRequiredClaim, UnsupportedGrantType...
            return JSONResponse({"error": "invalid_request", "error_description": repr(exc)}, status_code=400)

    def ags(scopes: list[str], handler: str, with_id: bool):
        async def endpoint(request: Request):
            service = Ags(await _lti_request(request), platform, base_holder[0], scopes)
            args = (f"{base_holder[0]}/lineitems/{request.path_params['n']}",) if with_id else ()
            try:
                resp = service.handle_resp(getattr(service, handler), **({"line_item_id": args[0]} if args else {}))
            except (LtiException, jwt.PyJWTError) as exc:  # expired, wrong issuer, bad signature
                return JSONResponse({"error": str(exc)}, status_code=401)
            return _wire(resp)
        return endpoint

    read = [SCOPE_LINEITEM, SCOPE_LINEITEM_READ]

    async def lineitems(request: Request):
        if request.method == "POST":
            return await ags([SCOPE_LINEITEM], "handle_create_lineitem", False)(request)
        return await ags(read, "handle_get_lineitems", False)(request)

    return Starlette(routes=[
        Route("/token", token, methods=["POST"]),
        Route("/lineitems", lineitems, methods=["GET", "POST"]),
        Route("/lineitems/{n}", ags(read, "handle_get_lineitem", True), methods=["GET"]),
        Route("/lineitems/{n}/scores", ags([SCOPE_SCORE], "handle_update_score", True), methods=["POST"]),
        Route("/lineitems/{n}/results", ags([SCOPE_RESULT_READ], "handle_get_results", True), methods=["GET"]),
    ])


class Server:
    """uvicorn serving the platform on a free port of 127.0.0.1, in a thread of the test."""

    def __init__(self, store: Store, tool_jwks: dict) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.store = store
        config = uvicorn.Config(make_app(store, tool_jwks, [self.base]), host="127.0.0.1", port=self.port,
                                log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the platform did not start"
            time.sleep(0.05)
        return self

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def course(lms_class) -> Path:
    proc = subprocess.run([sys.executable, "-m", "coursetools", "lti-key", "lti-key.pem"], cwd=lms_class,
                          env=tool_env(), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert stat.S_IMODE((lms_class / "lti-key.pem").stat().st_mode) == 0o600
    jwk = json.loads(proc.stdout[proc.stdout.index("{"):])
    (lms_class / "tool-jwks.json").write_text(json.dumps({"keys": [jwk]}))
    (lms_class / "lti-users.csv").write_text("student_id,lti_user_id\nada,u-ada\nbob,u-bob\ncyd,u-cyd\ndan,u-dan\n")
    return lms_class


def _settings(course: Path, server: Server) -> None:
    (course / "lti.ini").write_text(f"""[lti]
issuer = {ISSUER}
client_id = {CLIENT_ID}
token_url = {server.base}/token
lineitems_url = {server.base}/lineitems
private_key = lti-key.pem
users = lti-users.csv
retries = 3
retry_wait = 0.1
""")


def _push(course: Path) -> subprocess.CompletedProcess:
    """``coursetools push-grades LAB`` (in this process: the platform answers from a thread)."""
    (course / "exports" / f"{LAB}-push-grades.log").unlink(missing_ok=True)
    return run_coursetools(course, "push-grades", LAB)


def _log(course: Path) -> str:
    path = course / "exports" / f"{LAB}-push-grades.log"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    return path.read_text()


def _tool_jwks(course: Path) -> dict:
    return json.loads((course / "tool-jwks.json").read_text())


def _given(store: Store) -> dict[str, float]:
    return {user: r["resultScore"] for (_, user), r in store.results.items()}


def test_lti_push_creates_one_line_item_and_a_second_push_changes_nothing(course):
    with Server(Store(), _tool_jwks(course)) as server:
        _settings(course, server)
        first = _push(course)
        assert first.returncode == 0, first.stdout + first.stderr
        assert len(server.store.lineitems) == 1
        (item,) = server.store.lineitems.values()
        assert (item["resourceId"], item["label"], item["scoreMaximum"]) == (LAB, LAB, 7)
        assert _given(server.store) == {"u-ada": 7, "u-cyd": 1, "u-dan": 7}  # cyd's late penalty applied
        assert "(created)" in first.stdout and "3 sent, 0 unchanged, 1 pending, 0 failed" in first.stdout
        assert "pending (a written answer not graded yet; not sent, never 0): bob" in first.stdout
        posts = list(server.store.score_posts)
        second = _push(course)
        assert second.returncode == 0, second.stdout + second.stderr
        assert len(server.store.lineitems) == 1 and server.store.score_posts == posts
        assert "(created)" not in second.stdout and "0 sent, 3 unchanged" in second.stdout, second.stdout
        assert "ada: unchanged (7 of 7 already in the LMS)" in _log(course)


def test_lti_push_uses_the_line_item_the_lms_already_has(course):
    store = Store()
    with Server(store, _tool_jwks(course)) as server:
        _settings(course, server)
        made = f"{server.base}/lineitems/1"
        store.lineitems[made] = {"id": made, "label": "Lab: toy", "scoreMaximum": 7, "resourceId": LAB}
        proc = _push(course)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        assert list(store.lineitems) == [made] and f"line item {made}:" in proc.stdout
        assert {li for li, _ in store.results} == {made}


def test_lti_push_retries_each_student_alone_and_a_platform_failing_half_way_stops_nothing_else(course):
    store = Store(down_after=1, flaky={"u-dan": 1})
    with Server(store, _tool_jwks(course)) as server:
        _settings(course, server)
        proc = _push(course)
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert store.score_posts == ["u-ada"]
        assert "1 sent, 0 unchanged, 1 pending, 2 failed" in proc.stdout, proc.stdout
        assert "FAILED cyd: 503" in proc.stdout and "FAILED dan: 503" in proc.stdout
        log = _log(course)
        for attempt in (1, 2, 3):
            assert f"cyd: attempt {attempt} of 3 failed (503" in log, log
        assert log.index("cyd: attempt 3 of 3") < log.index("dan: attempt 1 of 3")  # dan tried after cyd gave up
        store.down_after = None  # the platform is back; dan's first score still meets an error (500)
        again = _push(course)
        assert again.returncode == 0, again.stdout + again.stderr
        assert "2 sent, 1 unchanged" in again.stdout, again.stdout
        assert "dan: attempt 1 of 3 failed (500" in _log(course) and "dan: sent 7 of 7 (attempt 2" in _log(course)
        assert _given(store) == {"u-ada": 7, "u-cyd": 1, "u-dan": 7} and len(store.lineitems) == 1


def test_lti_push_without_the_scopes_it_needs_stops_and_says_which(course):
    store = Store(granted={SCOPE_LINEITEM_READ, SCOPE_RESULT_READ})
    with Server(store, _tool_jwks(course)) as server:
        _settings(course, server)
        proc = _push(course)
        assert proc.returncode == 2 and "did not grant the scope to create one" in proc.stderr, proc.stderr
        assert SCOPE_LINEITEM in proc.stderr and not store.lineitems
        store.lineitems[f"{server.base}/lineitems/1"] = {"id": f"{server.base}/lineitems/1", "resourceId": LAB,
                                                         "label": LAB, "scoreMaximum": 7}
        proc = _push(course)
        assert proc.returncode == 2 and f"did not grant the score scope ({SCOPE_SCORE})" in proc.stderr, proc.stderr
        assert not store.score_posts and len(store.lineitems) == 1


def test_lti_push_with_a_key_the_lms_does_not_have_is_refused_and_an_expired_token_is_renewed(course):
    other_private, _ = _pem_pair()
    old = json.loads(json.dumps(_tool_jwks(course)))
    from coursetools.grading.lti import public_jwk

    old["keys"] = [public_jwk(other_private)]  # the LMS still has the tool's old (expired) key
    with Server(Store(), old) as server:
        _settings(course, server)
        proc = _push(course)
        assert proc.returncode == 2 and "the platform refused an access token (401" in proc.stderr, proc.stderr
        assert "kid" in proc.stderr and not server.store.lineitems
    store = Store(token_seconds=2, slow_results=2.5)  # lives 1 to 2 s (whole seconds): expires during the results
    with Server(store, _tool_jwks(course)) as server:
        _settings(course, server)
        proc = _push(course)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        log = _log(course)
        assert "401" in log and "asking for a new token" in log, log
        assert _given(store) == {"u-ada": 7, "u-cyd": 1, "u-dan": 7}
