"""``/metrics``: the club's figures in Prometheus' text format, for the addresses (or the
bearer token) the operator allowed (:class:`~ludoteca.web.ops.metrics.MetricsAccess`)."""

from __future__ import annotations

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

router = APIRouter()


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    club = request.app.state.club
    access = request.app.state.metrics_access
    address = request.client.host if request.client is not None else None
    if not access.allows(address, request.headers.get("authorization")):
        return PlainTextResponse("Not allowed.\n", status_code=403)
    body = await anyio.to_thread.run_sync(generate_latest, club.metrics.registry)
    return Response(body, media_type=CONTENT_TYPE_LATEST, headers={"Cache-Control": "no-store"})
