"""An independent tus 1.0.0 server for flow's tests: tuspyserver (PyPI) on uvicorn.

Usage: tus_server.py PORT FILES_DIR — serves tus at http://127.0.0.1:PORT/files, storing each
upload in FILES_DIR under its id. Started by scripts/tus-peer, which makes the virtual environment.
"""
import sys

import uvicorn
from fastapi import FastAPI
from tuspyserver import create_tus_router

port, files_dir = int(sys.argv[1]), sys.argv[2]
app = FastAPI()
app.include_router(create_tus_router(prefix="files", files_dir=files_dir))
uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning")
