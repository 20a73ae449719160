#!/usr/bin/env bash
# Makes the certificates of the TLS tests in the folder given (with openssl, at test time):
#   ca.pem / ca.key            a private CA
#   server.pem / server.key    for localhost and 127.0.0.1, signed by the CA
#   expired.pem / expired.key  the same names, expired yesterday
#   wronghost.pem / .key       signed by the CA for wrong.example only
#   client.pem / client.key    a client certificate signed by the CA
set -euo pipefail
dir="$1"
cd "$dir"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:prime256v1 -out "$1" 2>/dev/null; }
key ca.key
openssl req -x509 -new -key ca.key -out ca.pem -days 2 -subj "/CN=flow test CA" 2>/dev/null
sign() { # name subject extensions days
    key "$1.key"
    openssl req -new -key "$1.key" -out "$1.csr" -subj "$2" 2>/dev/null
    printf '%s\n' "$3" > "$1.ext"
    openssl x509 -req -in "$1.csr" -CA ca.pem -CAkey ca.key -CAcreateserial -out "$1.pem" -days "$4" \
        -extfile "$1.ext" 2>/dev/null
    rm -f "$1.csr" "$1.ext"
}
sign server "/CN=localhost" "subjectAltName=DNS:localhost,IP:127.0.0.1" 1
sign expired "/CN=localhost" "subjectAltName=DNS:localhost,IP:127.0.0.1" -1
sign wronghost "/CN=wrong.example" "subjectAltName=DNS:wrong.example" 1
sign client "/CN=flow-client" "extendedKeyUsage=clientAuth" 1
