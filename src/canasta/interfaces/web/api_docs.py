"""The API's documentation page, ``/docs`` (Swagger UI), served without the internet: its
script and style come from the ``fastapi-offline`` wheel (installed with the ``web`` extra),
mounted at ``/docs-assets``, instead of a CDN. (ReDoc is left out: its page still fetches its
logo from the web.)
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

ASSETS_URL = "/docs-assets"


def assets_dir() -> Path:
    """Where the installed Swagger UI and ReDoc files are."""
    return Path(str(files("fastapi_offline") / "static"))


def mount_api_docs(app: FastAPI) -> None:
    """Serve ``/docs`` and its assets from the installed package. The app must be made with
    ``docs_url=None, redoc_url=None`` (FastAPI's own pages load a CDN)."""
    title = app.title
    openapi_url = app.openapi_url or "/openapi.json"
    redirect_url = app.swagger_ui_oauth2_redirect_url or "/docs/oauth2-redirect"
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url, title=f"{title} API", oauth2_redirect_url=redirect_url,
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon.png")

    @app.get(redirect_url, include_in_schema=False)
    async def swagger_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()
