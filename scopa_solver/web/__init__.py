"""The analysis board: a local web app (``python -m scopa_solver.web``) that draws positions as
cards, analyses them exactly, suggests moves from a player's view, plays a round against a bot
and reviews game records, all through the package's own API (see docs/web.md).

It needs the ``[web]`` extra (FastAPI, uvicorn) and serves on 127.0.0.1 by default.
"""
from .app import create_app, serve

__all__ = ["create_app", "serve"]
