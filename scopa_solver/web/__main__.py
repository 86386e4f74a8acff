"""``python -m scopa_solver.web [--port P] [--host H] [--open]``: serve the analysis board."""
from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from .app import DEFAULT_HOST, DEFAULT_PORT, serve


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scopa_solver.web",
                                     description="Serve the scopa-solver analysis board in the browser.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"TCP port (default {DEFAULT_PORT})")
    parser.add_argument("--host", default=DEFAULT_HOST,
                        help=f"address to listen on (default {DEFAULT_HOST}: this machine only)")
    parser.add_argument("--open", action="store_true", help="open the page in the default browser")
    args = parser.parse_args(argv)
    if not 0 < args.port < 65536:
        parser.error(f"--port must be 1 to 65535, not {args.port}")
    try:
        serve(port=args.port, host=args.host, open_browser=args.open)
    except (ImportError, OSError) as exc:
        print(f"scopa-solver: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
