#!/usr/bin/env python3
"""bench/slow-link/proxy.py — a slow link on loopback (issue 32): every byte a client sends reaches
the server 25 ms later, every byte the server answers reaches the client 25 ms later (one round
trip: 50 ms), and a new connection's first bytes wait one round trip more, as a TCP handshake over
such a link would. No bandwidth limit: loopback's.

    proxy.py [--delay SECONDS] [--lifetime SECONDS] LISTEN_PORT=UPSTREAM_PORT...

Each LISTEN_PORT on 127.0.0.1 forwards to 127.0.0.1:UPSTREAM_PORT (several listeners stand for
several hosts, as a race of two mirrors needs). Bytes are forwarded in order, as they came; each
direction keeps at most 64 pieces of 64 KiB in flight (a slow reader slows the sender, as TCP
would), and the proxy exits after --lifetime seconds (default 600) whatever happens. Prints
`listening PORT` per listener once all listen, and one line per connection to stderr.
Standard library only.
"""
import argparse
import asyncio
import sys


async def forward(reader, writer, delay, hold_until, loop):
    """Copies reader to writer, each piece written `delay` after it was read (not before
    `hold_until`), in order; forwards the end of the stream the same way."""
    queue = asyncio.Queue(maxsize=64)

    async def pump():
        try:
            while True:
                data = await reader.read(65536)
                await queue.put((max(loop.time(), hold_until) + delay, data))
                if not data:
                    return
        except (ConnectionError, asyncio.CancelledError):
            await queue.put((loop.time(), b""))

    async def deliver():
        while True:
            deadline, data = await queue.get()
            wait = deadline - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            try:
                if not data:
                    if writer.can_write_eof():
                        writer.write_eof()
                    return
                writer.write(data)
                await writer.drain()
            except ConnectionError:
                return

    await asyncio.gather(pump(), deliver())


async def serve(listen, upstream, delay):
    loop = asyncio.get_running_loop()

    async def handle(client_reader, client_writer):
        accepted = loop.time()
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream)
        except OSError as error:
            print(f"proxy {listen}: cannot reach {upstream}: {error}", file=sys.stderr)
            client_writer.close()
            return
        print(f"proxy {listen}: connection", file=sys.stderr, flush=True)
        # The handshake's round trip: the request leaves the client one round trip after connect().
        await asyncio.gather(
            forward(client_reader, server_writer, delay, accepted + 2 * delay, loop),
            forward(server_reader, client_writer, delay, 0, loop),
            return_exceptions=True,
        )
        for writer in (client_writer, server_writer):
            writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", listen)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--delay", type=float, default=0.025)
    parser.add_argument("--lifetime", type=float, default=600)
    parser.add_argument("routes", nargs="+", help="LISTEN_PORT=UPSTREAM_PORT")
    arguments = parser.parse_args()
    servers = []
    for route in arguments.routes:
        listen, upstream = (int(part) for part in route.split("="))
        servers.append(await serve(listen, upstream, arguments.delay))
    for server in servers:
        print(f"listening {server.sockets[0].getsockname()[1]}", flush=True)
    await asyncio.sleep(arguments.lifetime)


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
