#!/usr/bin/env python3
"""A fault-injecting HTTP/1.1 proxy for the upload tests (standard library only).

    fault_proxy.py LISTEN_PORT UPSTREAM_PORT LOG_FILE [FAULT ...]

Forwards each request to 127.0.0.1:UPSTREAM_PORT on a connection of its own (so close-delimited
HTTP/1.0 servers work) and keeps the client's connection alive, so the client reuses it as it
would with a real server. Each request is logged to LOG_FILE as one line:

    <n> conn=<c> reused=<0|1> <METHOD> <Content-Range or Upload-Offset or -> <body length>

A FAULT is TARGET:KIND[:N], where TARGET is chunk=K (the K-th PUT/PATCH/POST with a body), query=K
(the K-th PUT with an empty body, or HEAD) or post=K (the K-th POST with an empty body, such as S3's
CreateMultipartUpload), counted from 1, and KIND is
  cut             forward N body bytes, then close both connections (FIN)
  reset           forward N body bytes, then reset the client's connection (RST)
  drop-response   forward the whole request, let the server answer, close without the answer
  corrupt         forward the request with body byte N flipped
  fake-done       answer 200 with `Range: bytes=0-0` without asking the server
  stall           forward N body bytes, then neither read nor answer for a minute
  hold            forward the request, then keep the server's answer N ms before passing it on
  delay           wait N ms before forwarding the request (the server sees it that much later)
  error-200       read the request, answer 200 with an S3 <Error> body (InvalidPart, its message
                  holding an ESC character) without asking the server, as S3 may answer a Complete
Faults are logged as `<n> fault <KIND>`.
"""
import socket
import struct
import sys
import threading

lock = threading.Lock()
counters = {"request": 0, "chunk": 0, "query": 0, "post": 0, "conn": 0}


def log(line):
    with lock:
        with open(LOG, "a") as f:
            f.write(line + "\n")


def header(head, name):
    for line in head.split(b"\r\n")[1:]:
        key, _, value = line.partition(b":")
        if key.strip().lower() == name.encode():
            return value.strip().decode("latin-1")
    return None


def read_head(sock, buf):
    while b"\r\n\r\n" not in buf:
        data = sock.recv(65536)
        if not data:
            return None, buf
        buf += data
    end = buf.index(b"\r\n\r\n") + 4
    return buf[:end], buf[end:]


def without_connection_headers(head):
    lines = head.split(b"\r\n")
    kept = [l for l in lines[1:] if l and l.split(b":")[0].strip().lower() not in (b"connection", b"keep-alive")]
    return lines[0], kept


def reset(sock):
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    sock.close()


def serve(client):
    with lock:
        counters["conn"] += 1
        conn = counters["conn"]
    buf, count = b"", 0
    try:
        while True:
            head, buf = read_head(client, buf)
            if head is None:
                return
            count += 1
            method = head.split(b" ", 1)[0].decode()
            length = int(header(head, "content-length") or 0)
            where = header(head, "content-range") or header(head, "upload-offset") or "-"
            with lock:
                counters["request"] += 1
                n = counters["request"]
                target = None
                if method in ("PUT", "PATCH", "POST") and length > 0:
                    counters["chunk"] += 1
                    target = "chunk=%d" % counters["chunk"]
                elif method == "HEAD" or (method == "PUT" and length == 0):
                    counters["query"] += 1
                    target = "query=%d" % counters["query"]
                elif method == "POST":
                    counters["post"] += 1
                    target = "post=%d" % counters["post"]
            log("%d conn=%d reused=%d %s %s %d" % (n, conn, 1 if count > 1 else 0, method, where, length))
            kind, amount = FAULTS.get(target, (None, 0))
            if kind:
                log("%d fault %s" % (n, kind))
            if kind == "fake-done":
                client.sendall(b"HTTP/1.1 200 OK\r\nRange: bytes=0-0\r\nContent-Length: 0\r\n\r\n")
                continue
            if kind == "error-200":
                while len(buf) < length:
                    data = client.recv(65536)
                    if not data:
                        return
                    buf += data
                buf = buf[length:]
                body = (b'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>InvalidPart</Code>'
                        b"<Message>One or more parts could not be found \x1b[31mred</Message></Error>")
                client.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/xml\r\nContent-Length: %d\r\n\r\n"
                               % len(body) + body)
                continue
            if kind == "delay":
                threading.Event().wait(amount / 1000)
            upstream = socket.create_connection(("127.0.0.1", UPSTREAM))
            first, lines = without_connection_headers(head)
            upstream.sendall(b"\r\n".join([first] + lines + [b"Connection: close", b"", b""]))
            remaining, sent = length, 0
            while remaining > 0:
                if not buf:
                    buf = client.recv(65536)
                    if not buf:
                        upstream.close()
                        return
                piece, buf = buf[:remaining], buf[remaining:]
                if kind == "stall" and sent + len(piece) >= amount:
                    upstream.sendall(piece[: amount - sent])
                    threading.Event().wait(60)
                    upstream.close()
                    client.close()
                    return
                if kind in ("cut", "reset") and sent + len(piece) >= amount:
                    upstream.sendall(piece[: amount - sent])
                    upstream.close()
                    if kind == "reset":
                        reset(client)
                    else:
                        client.shutdown(socket.SHUT_RDWR)
                        client.close()
                    return
                if kind == "corrupt" and sent <= amount < sent + len(piece):
                    index = amount - sent
                    piece = piece[:index] + bytes([piece[index] ^ 0xFF]) + piece[index + 1 :]
                upstream.sendall(piece)
                sent += len(piece)
                remaining -= len(piece)
            if kind in ("cut", "reset") and amount == 0 and length == 0:
                upstream.close()
                reset(client) if kind == "reset" else client.close()
                return
            answer = b""
            while True:
                data = upstream.recv(65536)
                if not data:
                    break
                answer += data
            upstream.close()
            if kind == "hold":
                threading.Event().wait(amount / 1000)
            if kind == "drop-response":
                client.shutdown(socket.SHUT_RDWR)
                client.close()
                return
            client.sendall(rewrite(answer, method))
            if (header(head, "connection") or "").lower() == "close":
                client.close()
                return
    except OSError:
        pass
    finally:
        try:
            client.close()
        except OSError:
            pass


def rewrite(answer, method):
    """The server's close-delimited answer, framed for a kept-alive HTTP/1.1 connection."""
    if b"\r\n\r\n" not in answer:
        return answer
    end = answer.index(b"\r\n\r\n") + 4
    head, body = answer[:end], answer[end:]
    first, lines = without_connection_headers(head)
    first = first.replace(b"HTTP/1.0", b"HTTP/1.1", 1)
    status = int(first.split(b" ")[1])
    framed = header(head, "content-length") is not None or header(head, "transfer-encoding") is not None
    if not framed and method != "HEAD" and status >= 200 and status not in (204, 304):
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join([first] + lines + [b"", b""]) + body


def main():
    global LOG, UPSTREAM, FAULTS
    port, UPSTREAM, LOG = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    FAULTS = {}
    for spec in sys.argv[4:]:
        parts = spec.split(":")
        FAULTS[parts[0]] = (parts[1], int(parts[2]) if len(parts) > 2 else 0)
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(64)
    while True:
        client, _ = server.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
