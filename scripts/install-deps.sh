#!/usr/bin/env bash
# Installs what building and testing flow needs, only when it is missing (fast when present).
# Used by `make test`, `make demo` and `make bench`; safe to run again.
set -euo pipefail

need_apt=()
pkg-config --exists libcurl 2>/dev/null || need_apt+=(libcurl4-openssl-dev pkg-config)
# xpath() and htmlXPath() parse and query documents with libxml2 (CXMLShim).
pkg-config --exists libxml-2.0 2>/dev/null || need_apt+=(libxml2-dev pkg-config)
# sha256, sha1 and md5 come from libcrypto (FlowDigest).
[ -f /usr/include/openssl/sha.h ] || need_apt+=(libssl-dev)
command -v openssl >/dev/null 2>&1 || need_apt+=(openssl)
# The run journal (FlowJournal) links SQLite through GRDB, which needs the headers on Linux.
pkg-config --exists sqlite3 2>/dev/null || need_apt+=(libsqlite3-dev pkg-config)
# Tests build small C programs with cc (ChunkputParityTests' libcurl program, OpenSSLExitTests' spy).
command -v cc >/dev/null 2>&1 || need_apt+=(gcc libc6-dev)
# The `flow` executable allocates with mimalloc instead of glibc's malloc (Package.swift's CAllocator).
[ -f /usr/include/mimalloc.h ] || need_apt+=(libmimalloc-dev)
# The proxy tests start their own tinyproxy (Debian puts it in /usr/bin).
command -v tinyproxy >/dev/null 2>&1 || [ -x /usr/sbin/tinyproxy ] || need_apt+=(tinyproxy)
for extra in "$@"; do
    case "$extra" in
        nginx) command -v nginx >/dev/null 2>&1 || need_apt+=(nginx-light) ;;
        time) [ -x /usr/bin/time ] || need_apt+=(time) ;;
        # The HTML report's test loads it in headless Chromium (Debian's package) and reads its DOM.
        chromium) command -v chromium >/dev/null 2>&1 || need_apt+=(chromium fonts-dejavu-core) ;;
        *) dpkg -s "$extra" >/dev/null 2>&1 || need_apt+=("$extra") ;;
    esac
done

command -v python3 >/dev/null 2>&1 || need_apt+=(python3 python3-pip)
# Test peers (tuspyserver, gcp-storage-emulator) and benchmark peers (dask, aiohttp) live in virtual environments.
python3 -c "import ensurepip, venv" >/dev/null 2>&1 || need_apt+=(python3-venv)

if [ ${#need_apt[@]} -gt 0 ]; then
    echo "installing: ${need_apt[*]}"
    sudo_cmd=()
    [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
    export DEBIAN_FRONTEND=noninteractive
    "${sudo_cmd[@]}" apt-get update -qq
    "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
fi

# The schema test validates workflows with Python's jsonschema and PyYAML (the test peers).
if ! python3 -c "import jsonschema, yaml" >/dev/null 2>&1; then
    echo "installing: jsonschema PyYAML (pip)"
    python3 -m pip install -q jsonschema PyYAML 2>/dev/null \
        || python3 -m pip install -q --break-system-packages jsonschema PyYAML
fi
