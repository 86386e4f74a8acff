"""The analysis board's web app: the page, its static files and the JSON API (FastAPI).

Every API route is a plain ``def``, so FastAPI runs it in its threadpool, never on the event
loop: a long search does not stop the server answering others (the package's searches are
thread-safe). Each route declares its fields (`fields`: a pydantic model a route). Errors are
JSON ``{"error": message, "type": name}``: 400 for a request of the wrong shape (not JSON, an
unknown field, a field of the wrong type, text that is not Unicode: the message names the
field), 422 for input the game refuses (a `ScopaError`), never a traceback. Every API
request runs under the server's limits (`guard.Guard`: body size, time, search places).

FastAPI and uvicorn come with the ``[web]`` extra; they are imported when the app is made, so
that this module imports (and its doctests run) without them.
"""
import socket
import sys
import threading
import webbrowser
from pathlib import Path
from typing import Any, Callable

from ..errors import ScopaError
from . import service

STATIC = Path(__file__).with_name("static")
DEFAULT_PORT = 8000
DEFAULT_HOST = "127.0.0.1"


def _missing() -> ImportError:
    return ImportError("the web board needs FastAPI and uvicorn: pip install 'scopa-solver[web]'")


def create_app() -> Any:
    """The FastAPI application (routes under /api, the page at /, static files under /static)."""
    try:
        from fastapi import Depends, FastAPI, Request
        from fastapi.responses import FileResponse, JSONResponse
        from fastapi.staticfiles import StaticFiles
        from starlette.exceptions import HTTPException
    except ImportError:
        raise _missing() from None
    from .fields import (ROUTES, Analyze, Annotate, Board, Compose, Deal, FieldError, Lines, LivePoll, LiveStart,
                         LiveStop, PlayBot, PlayHint, PlayMove, PlayNew, PlayNext, PuzzleFields, PuzzleRecord, Review,
                         Solve, Suggest, Tree, Unseen, read)
    from .guard import Guard, Places
    from .live import LiveAnalyses

    app = FastAPI(title="scopa-solver board", docs_url=None, redoc_url=None, openapi_url=None)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.state.time_boxes = set()        # the running requests' (the server's shutdown cancels them)
    app.state.places = Places(service.LIMITS["searches"], service.LIMITS["queue"])
    app.state.live = LiveAnalyses(service.LIMITS["live"], service.LIMITS["live_idle"])
    app.add_middleware(Guard, boxes=app.state.time_boxes, places=app.state.places)

    def error(status: int, exc: BaseException) -> Any:
        return JSONResponse({"error": str(exc)[:300], "type": type(exc).__name__}, status_code=status)

    @app.exception_handler(ScopaError)
    async def scopa_error(request: Request, exc: ScopaError) -> Any:
        return error(422, exc)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> Any:   # e.g. no such route or method
        return JSONResponse({"error": str(exc.detail)[:300], "type": "BadRequest" if exc.status_code == 400
                             else "HTTPError"}, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(FieldError)
    async def bad_field(request: Request, exc: FieldError) -> Any:
        return JSONResponse({"error": str(exc)[:300], "type": "BadRequest"}, status_code=400)

    @app.exception_handler(TypeError)
    async def type_error(request: Request, exc: TypeError) -> Any:
        return error(400, exc)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Any:  # a bug: still no traceback to the page
        return JSONResponse({"error": f"internal error ({type(exc).__name__}); see the server's log",
                             "type": "InternalError"}, status_code=500)

    # (this module has no `from __future__ import annotations`: FastAPI reads the type `Request`)
    async def body(request: Request) -> tuple:
        return await request.body(), request.headers.get("content-type")

    def post(model: type) -> Callable:
        """Route POST `fields.ROUTES[model]` to the decorated function of its fields (`model`, from
        `fields.read`, in the route's worker thread: a large body parses off the event loop)."""
        def route(answer: Callable) -> Callable:
            def endpoint(raw: tuple = Depends(body)) -> dict:
                return answer(read(model, *raw))
            app.post(ROUTES[model], name=answer.__name__)(endpoint)
            return answer
        return route

    @app.get("/", include_in_schema=False)
    def index() -> Any:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    @app.get("/api/info")
    def info() -> dict:
        return service.info()

    @post(Board)
    def board(f: Any) -> dict:
        return service.board_of(f.position, f.player, f.moves)

    @post(Deal)
    def deal(f: Any) -> dict:
        return service.deal(f.seed, f.dealer, f.rules)

    @post(Compose)
    def compose(f: Any) -> dict:
        return service.compose(f.model_dump())

    @post(Analyze)
    def analyze(f: Any) -> dict:
        return service.analysis(f.position, f.time_limit, f.max_nodes, f.objective, f.match_score, f.target)

    @post(Lines)
    def lines(f: Any) -> dict:
        return service.several_lines(f.position, f.count, f.time_limit, f.max_nodes, f.objective)

    @post(Solve)
    def solve(f: Any) -> dict:
        return service.principal_variation(f.position, f.time_limit, f.max_nodes, f.objective, f.match_score, f.target)

    @post(LiveStart)
    def live_start(f: Any) -> dict:
        return service.live_start(app.state.live, f.position, f.time_limit, f.max_nodes, f.objective,
                                  f.match_score, f.target)

    @post(LivePoll)
    def live_poll(f: Any) -> dict:
        return service.live_poll(app.state.live, f.id)

    @post(LiveStop)
    def live_stop(f: Any) -> dict:
        return service.live_stop(app.state.live, f.id)

    @post(Tree)
    def tree(f: Any) -> dict:
        return service.tree_svg(f.position, f.max_nodes)

    @post(Suggest)
    def suggest(f: Any) -> dict:
        return service.suggestion(f.position, f.player, f.worlds, f.seed, f.time_limit, f.why, f.match_score,
                                  f.target)

    @post(Unseen)
    def unseen(f: Any) -> dict:
        return service.unseen(f.position, f.player, f.model, f.worlds, f.seed, f.moves)

    @post(PlayNew)
    def play_new(f: Any) -> dict:
        return service.new_game(**f.model_dump(exclude_none=True))    # null: the default bot and seat

    @post(PlayMove)
    def play_move(f: Any) -> dict:
        return service.game_move(f.record, f.move, f.bots)

    @post(PlayBot)
    def play_bot(f: Any) -> dict:
        return service.bot_move(f.record)

    @post(Review)
    def review(f: Any) -> dict:
        return service.review_round(f.record, f.round, f.worlds, f.seed, f.match)

    @post(Annotate)
    def annotate(f: Any) -> dict:
        return service.annotate(f.record, f.round, f.move, f.comment)

    @post(PuzzleFields)
    def puzzle(f: Any) -> dict:
        return service.puzzle(f.game, f.tag, f.seed)

    @post(PuzzleRecord)
    def puzzle_record(f: Any) -> dict:
        return service.record_puzzles(f.record, f.round, f.player)

    @post(PlayNext)
    def play_next(f: Any) -> dict:
        return service.next_round(f.record, f.bots)

    @post(PlayHint)
    def play_hint(f: Any) -> dict:
        return service.game_hint(f.record, f.seed)

    return app


def free_port(host: str = DEFAULT_HOST) -> int:
    """A TCP port free on `host` right now."""
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def make_server(port: int = DEFAULT_PORT, host: str = DEFAULT_HOST, log_level: str = "warning") -> Any:
    """A uvicorn Server for the app (not started: call ``run()``, or set ``should_exit`` to stop
    one running in a thread). Stopping it cancels the requests running (their searches stop),
    so it stops within about a second; its connections are bounded (`guard.guarded_protocol`)."""
    try:
        import uvicorn
    except ImportError:
        raise _missing() from None
    from .guard import guarded_protocol, stopping_server
    app = create_app()
    # the connections are capped by `guarded_protocol`, which also closes idle ones: uvicorn's own
    # `limit_concurrency` would count idle sockets and answer 503 to everyone else
    config = uvicorn.Config(app, host=host, port=port, log_level=log_level, access_log=False,
                            http=guarded_protocol(), timeout_keep_alive=service.LIMITS["keep_alive"],
                            timeout_graceful_shutdown=1, use_colors=_on_terminal())
    return stopping_server(config, app.state.time_boxes, app.state.places, app.state.live)


def _on_terminal() -> bool:
    """Colours in the log on a terminal only; uvicorn's own test asked a closed stdout (None)
    whether it is one and failed ("Unable to configure formatter 'default'")."""
    try:
        return bool(sys.stdout is not None and sys.stdout.isatty())
    except ValueError:      # a closed file
        return False


def _check_address(host: str, port: int) -> None:
    """Fail early, in one line, when the address cannot be listened on (uvicorn would log a
    startup error and exit)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind((host, port))
    except OSError as exc:
        raise OSError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None


def serve(port: int = DEFAULT_PORT, host: str = DEFAULT_HOST, open_browser: bool = False) -> None:
    """Serve the board at http://host:port/ until interrupted (Ctrl-C); 127.0.0.1 by default,
    so only this machine sees it. `open_browser` opens the page in the default browser."""
    _check_address(host, port)
    server = make_server(port, host)
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{port}/"
    print(f"scopa-solver board at {url} (Ctrl-C stops it)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    server.run()


__all__ = ["create_app", "make_server", "serve", "free_port", "STATIC", "DEFAULT_PORT", "DEFAULT_HOST"]
