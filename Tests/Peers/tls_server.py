#!/usr/bin/env python3
"""An HTTPS server on loopback for flow's TLS tests.

Prints `PORT <n>` once it listens on 127.0.0.1 (--port, default a free one), answers every GET with JSON
`{"path": ..., "client": <client certificate's CN or null>}`, and exits after --lifetime seconds
so a test that dies cannot leave it behind.

    tls_server.py --cert server.pem --key server.key [--client-ca ca.pem] [--port N] [--lifetime 60]
                  [--max-tls 1.2] [--reset-without-client-cert] [--redirect-to URL]

--max-tls 1.2 speaks TLS 1.2 at most (a missing client certificate is then `alert handshake
failure`); --reset-without-client-cert asks for a client certificate without requiring one and
resets the connection right after the handshake when none came (what some proxies do);
--redirect-to URL answers every GET with a 302 to URL.
"""
import argparse
import json
import os
import socket
import ssl
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


RESET_WITHOUT_CLIENT_CERT = False
REDIRECT_TO = None


class Handler(BaseHTTPRequestHandler):
    def handle(self):
        if RESET_WITHOUT_CLIENT_CERT:
            self.connection.do_handshake()
            if not self.connection.getpeercert():
                # SO_LINGER 0: close() sends a reset, not a FIN.
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.connection.close()
                self.close_connection = True
                return
        super().handle()

    def finish(self):
        try:
            super().finish()
        except OSError:
            pass

    def do_GET(self):
        if REDIRECT_TO:
            self.send_response(302)
            self.send_header("Location", REDIRECT_TO)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        peer = self.connection.getpeercert() if hasattr(self.connection, "getpeercert") else None
        client = None
        if peer:
            for rdn in peer.get("subject", ()):
                for key, value in rdn:
                    if key == "commonName":
                        client = value
        body = json.dumps({"path": self.path, "client": client}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--client-ca")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lifetime", type=float, default=60)
    parser.add_argument("--max-tls", choices=["1.2"])
    parser.add_argument("--reset-without-client-cert", action="store_true")
    parser.add_argument("--redirect-to")
    args = parser.parse_args()
    global RESET_WITHOUT_CLIENT_CERT, REDIRECT_TO
    RESET_WITHOUT_CLIENT_CERT = args.reset_without_client_cert
    REDIRECT_TO = args.redirect_to

    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(args.cert, args.key)
    if args.client_ca:
        context.verify_mode = ssl.CERT_OPTIONAL if args.reset_without_client_cert else ssl.CERT_REQUIRED
        context.load_verify_locations(args.client_ca)
    if args.max_tls == "1.2":
        context.maximum_version = ssl.TLSVersion.TLSv1_2

    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    server.daemon_threads = True
    # The handshake happens in each connection's thread, on its first read, so a client that
    # never finishes one cannot stall accepting the next.
    server.socket = context.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()
    print(f"PORT {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
