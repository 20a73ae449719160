#!/usr/bin/env python3
"""The aiohttp peer of bench/http: COUNT GETs of URL?i=N with CONCURRENCY in flight.

Usage: http-aiohttp.py URL COUNT CONCURRENCY

One ClientSession whose connector keeps at most CONCURRENCY connections (kept alive and reused),
CONCURRENCY workers taking the next index until COUNT requests are done; every body is read and
every response must be a 200, or the run fails (exit 1): a fast wrong answer is not a result.
bench/http times this as a whole process, like curl and flow's client.
"""
import asyncio
import sys

import aiohttp


async def main(url, count, concurrency):
    next_index = 0
    failures = []

    async def worker(session):
        nonlocal next_index
        while next_index < count and not failures:
            next_index += 1
            index = next_index
            async with session.get(f"{url}?i={index}") as response:
                await response.read()
                if response.status != 200:
                    failures.append(f"status {response.status} for request {index}")

    connector = aiohttp.TCPConnector(limit=concurrency)
    async with aiohttp.ClientSession(connector=connector) as session:
        await asyncio.gather(*(worker(session) for _ in range(min(concurrency, count))))
    if failures:
        sys.exit(f"aiohttp: {failures[0]}")


asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))
