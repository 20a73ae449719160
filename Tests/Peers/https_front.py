#!/usr/bin/env python3
"""A TLS-terminating reverse proxy on loopback (see scripts/https-front).

    https_front.py PORT BACKEND CERT KEY

Forwards each request to BACKEND with its method, path, headers and body, and streams the answer
back (status, headers, body in 64 KiB pieces), so large uploads and downloads stay small in memory.
"""
import http.client
import ssl
import sys
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HOP = {"connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "expect"}


class Front(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def forward(self):
        target = urllib.parse.urlsplit(BACKEND)
        upstream = http.client.HTTPConnection(target.hostname, target.port, timeout=60)
        length = int(self.headers.get("Content-Length") or 0)
        upstream.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
        for name, value in self.headers.items():
            if name.lower() not in HOP:
                upstream.putheader(name, value)
        upstream.endheaders()
        left = length
        while left > 0:
            piece = self.rfile.read(min(65536, left))
            if not piece:
                break
            upstream.send(piece)
            left -= len(piece)
        answer = upstream.getresponse()
        self.send_response_only(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in HOP:
                self.send_header(name, value)
        chunked = answer.getheader("Content-Length") is None and self.command != "HEAD"
        if chunked:
            self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        declared = answer.getheader("Content-Length")
        sent = 0
        try:
            while True:
                piece = answer.read(65536)
                if not piece:
                    break
                sent += len(piece)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            if chunked:
                self.wfile.write(b"0\r\n\r\n")
        except Exception:
            declared = None
            self.close_connection = True
        if declared is not None and self.command != "HEAD" and sent != int(declared):
            # The backend dropped the connection mid-body (read() then just ends): drop the
            # client's too, as a proxy must, so it sees a short body and can resume instead of
            # waiting for bytes that never come.
            self.close_connection = True
        upstream.close()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_HEAD = do_OPTIONS = forward

    def log_message(self, *args):
        pass


if __name__ == "__main__":
    port, BACKEND, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    server = ThreadingHTTPServer(("127.0.0.1", port), Front)
    server.daemon_threads = True
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    server.serve_forever()
