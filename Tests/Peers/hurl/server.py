#!/usr/bin/env python3
# Hurl's integration server (integration/hurl/server.py), changed for flow's tests: it also records
# the address it serves on in app.config (HURL_HOST = "localhost:PORT", HURL_PORT), which the four
# route files that named localhost:8000 read instead (see README.md). Run it from this folder:
# app.py loads every tests_ok/*.py found from the current directory.
import argparse

from app import app, load_tests


def main():
    parser = argparse.ArgumentParser(
        description="Run Hurl integration server",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--host", default="127.0.0.1", help="the IP address to bind")
    parser.add_argument("--port", type=int, default=8000, help="server port")
    args = parser.parse_args()

    app.config["HURL_HOST"] = "localhost:%d" % args.port
    app.config["HURL_PORT"] = args.port
    load_tests()
    app.run(host=args.host, port=args.port)


if __name__ == "__main__":
    main()
