#!/usr/bin/env python3
"""A TCP proxy that adds DELAY_MS to every byte in each direction (a slow link, not a narrow one).

    latency_proxy.py LISTEN_PORT UPSTREAM_PORT DELAY_MS

Each piece read from one side is written to the other DELAY_MS after it arrived, in order, so a
request and its answer each arrive DELAY_MS later than without the proxy, whatever their size.
Standard library only (asyncio).
"""
import asyncio
import sys


async def pipe(reader, writer, delay):
    queue = asyncio.Queue()

    async def send():
        loop = asyncio.get_running_loop()
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if data is None:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    sender = asyncio.create_task(send())
    loop = asyncio.get_running_loop()
    try:
        while True:
            data = await reader.read(1 << 20)
            await queue.put((loop.time() + delay, data or None))
            if not data:
                break
    except ConnectionError:
        await queue.put((loop.time(), None))
    await sender


async def main():
    port, upstream, delay = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]) / 1000

    async def handle(client_reader, client_writer):
        try:
            server_reader, server_writer = await asyncio.open_connection("127.0.0.1", upstream)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(
            pipe(client_reader, server_writer, delay), pipe(server_reader, client_writer, delay),
            return_exceptions=True)

    server = await asyncio.start_server(handle, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
