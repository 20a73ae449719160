#!/usr/bin/env python3
"""bench/slow-link/sequential.py — the seeds' scenario written as sequential code (issue 32): the
same requests as scenario.yaml, one call after another with `requests` (one Session, so each host's
connection is kept alive), the tus upload by hand (creation POST, then a PATCH per chunk), the
mirrors tried in turn (the first answers, so the second is never asked).

    sequential.py API MIRROR1 MIRROR2 FILE
"""
import os
import sys

import requests

api, mirror1, mirror2, path = sys.argv[1:5]
chunk = 100 * 1024
http = requests.Session()

token = http.post(f"{api}/login", json={"user": "demo", "password": "s3cret"}, timeout=30).json()["token"]
auth = {"Authorization": f"Bearer {token}"}
users = http.get(f"{api}/api/users", headers=auth, timeout=30).json()
reports = http.get(f"{api}/api/reports", headers=auth, timeout=30).json()
answer = http.post(f"{api}/import", json={"users": len(users), "reports": len(reports)}, timeout=30)
assert answer.status_code == 202, answer.status_code

size = os.path.getsize(path)
tus = {"Tus-Resumable": "1.0.0"}
created = http.post(f"{api}/uploads/tus", headers={**tus, "Upload-Length": str(size)}, timeout=30)
assert created.status_code == 201, created.status_code
location = requests.compat.urljoin(f"{api}/", created.headers["Location"])
with open(path, "rb") as file:
    offset = 0
    while offset < size:
        data = file.read(chunk)
        headers = {**tus, "Upload-Offset": str(offset), "Content-Type": "application/offset+octet-stream"}
        answer = http.patch(location, data=data, headers=headers, timeout=30)
        assert answer.status_code == 204, answer.status_code
        offset += len(data)

winner = None
for name, base in (("first", mirror1), ("second", mirror2)):
    try:
        if http.get(f"{base}/mirror/{name}", timeout=30).ok:
            winner = name
            break
    except requests.RequestException:
        continue
answer = http.post(f"{api}/notify", json={"file": location, "mirror": winner}, timeout=30)
assert answer.status_code == 202, answer.status_code
print(f"LOCATION={location}")
