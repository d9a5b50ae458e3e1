"""Who is checking: a course token (Colab, self-study), or on a JupyterHub the Hub's own token for the student.

On a course server (``coursetools server``, docs/server.md) the service runs as a Hub service, so JupyterHub
gives it ``JUPYTERHUB_API_URL`` and ``JUPYTERHUB_SERVICE_NAME``. A student's kernel sends its server's token
(``JUPYTERHUB_API_TOKEN``); the service asks the Hub whose token it is (jupyterhub.services.auth.HubAuth, which
keeps the Hub's answer for a few minutes) and accepts it only when the Hub says it belongs to a user and carries
the scope to reach this service (``access:services!service=<name>``). The student is the Hub's user name, never
anything the request says; the lab is the one asked for. Anything else goes to the course's own tokens.
"""

from __future__ import annotations

import functools
import os

from coursetools.service import tokens

HUB_ENV = "JUPYTERHUB_API_URL"


def on_hub() -> bool:
    """True when this service runs as a JupyterHub service."""
    return bool(os.environ.get(HUB_ENV) and os.environ.get("JUPYTERHUB_SERVICE_NAME"))


@functools.lru_cache(maxsize=1)
def hub_auth():
    from jupyterhub.services.auth import HubAuth

    return HubAuth(cache_max_age=60)


def holder(credential: str | None, lab: str) -> tokens.Holder:
    """The student (and lab) a request's credential speaks for; `tokens.TokenError` when none."""
    if not on_hub() or not credential or credential.startswith(tokens.PREFIX):
        return tokens.holder(credential)
    auth = hub_auth()
    try:
        model = auth.user_for_token(credential, sync=True)
    except Exception as exc:  # the Hub unreachable or answering an error: say so, never guess
        raise tokens.TokenError(f"the Hub could not say whose token this is ({type(exc).__name__}); try again in "
                                "a minute") from None
    if not model:
        raise tokens.TokenError("the Hub does not know this token: restart your server (File > Hub Control Panel "
                                "> Stop My Server, then Start) and check again")
    if model.get("kind", "user") != "user" or not model.get("name"):
        raise tokens.TokenError("this token is not a student's: check from your own JupyterLab on the course server")
    if not auth.check_scopes(auth.access_scopes, model):
        raise tokens.TokenError("this token may not use the self-check service: check from your own JupyterLab on "
                                "the course server (its kernel's token may)")
    return tokens.Holder(model["name"], lab)
