"""Checks presigned (query-signed) S3 requests for moto's server, which cannot while its checks are on.

moto 5.2.5 checks a request's SigV4 signature only in its `Authorization` header: the check starts
in moto/core/authorization.py line 53 (`iam_request = iam_request_cls(...)`, for every request
once INITIAL_NO_AUTH_ACTION_COUNT actions were served) and moto/iam/access_control.py line 233
(`IAMRequestBase.__init__`: `self._headers["Authorization"]`) raises KeyError for a presigned URL,
which carries its signature in the query string (X-Amz-Signature): moto answers 500. This is moto's
limitation (no version on PyPI checks query signatures; its main branch reads the same header).

So with the checks on, `PresignedCheck` (a WSGI middleware in front of moto) checks such a request
as S3 does, with botocore's own query signer (S3SigV4QueryAuth) and the secret of the access key
the peer made: the credential's key and token, the expiry (X-Amz-Date + X-Amz-Expires), and the
signature over the method, path, query and signed headers. A request that fails gets S3's 403
error; one that passes reaches moto without its query-string signature, signed instead in its
`Authorization` header with the same key (botocore's S3SigV4Auth), so moto still checks that
signature and the key's IAM policy as for any other request.
"""

import datetime
import hmac
import io
from urllib.parse import parse_qsl, urlencode
from xml.sax.saxutils import escape

from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

QUERY_AUTH = {
    "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-SignedHeaders",
    "X-Amz-Security-Token", "X-Amz-Signature",
}


class PresignedCheck:
    """`app` behind a check of query-signed requests; `keys` maps an access key ID to its
    (secret, session token or None), filled by the peer once it made them."""

    def __init__(self, app, keys):
        self.app = app
        self.keys = keys

    def __call__(self, environ, start_response):
        pairs = parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)
        query = dict(pairs)
        if "X-Amz-Signature" not in query:
            return self.app(environ, start_response)
        problem = self.problem(environ, query)
        if problem:
            code, message = problem
            body = (f'<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>{code}</Code>'
                    f"<Message>{escape(message)}</Message></Error>").encode()
            start_response("403 Forbidden", [("Content-Type", "application/xml"), ("Content-Length", str(len(body)))])
            return [body]
        self.sign_in_header(environ, [(name, value) for name, value in pairs if name not in QUERY_AUTH], query)
        return self.app(environ, start_response)

    def problem(self, environ, query):
        """(S3 error code, message) when the query signature does not hold, else None."""
        try:
            key_id, _, region, service, _ = query["X-Amz-Credential"].split("/")
            signed_at = datetime.datetime.strptime(query["X-Amz-Date"], "%Y%m%dT%H%M%SZ")
            expires = int(query["X-Amz-Expires"])
        except (KeyError, ValueError):
            return "AuthorizationQueryParametersError", "Error parsing the X-Amz-Credential parameter"
        if key_id not in self.keys:
            return "InvalidAccessKeyId", "The AWS Access Key Id you provided does not exist in our records."
        secret, token = self.keys[key_id]
        if token is not None and query.get("X-Amz-Security-Token") != token:
            return "InvalidToken", "The provided token is malformed or otherwise invalid."
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        if now > signed_at + datetime.timedelta(seconds=expires):
            return "AccessDenied", "Request has expired"
        unsigned = urlencode([(name, value) for name, value in parse_qsl(environ.get("QUERY_STRING", ""),
                                                                           keep_blank_values=True)
                              if name != "X-Amz-Signature"])
        signed_names = query.get("X-Amz-SignedHeaders", "host").split(";")
        headers = {name: self.header(environ, name) for name in signed_names if name != "host"}
        request = AWSRequest(method=environ["REQUEST_METHOD"], url=self.url(environ, unsigned), headers=headers)
        request.context["timestamp"] = query["X-Amz-Date"]
        auth = S3SigV4QueryAuth(Credentials(key_id, secret, token), service, region, expires=expires)
        expected = auth.signature(auth.string_to_sign(request, auth.canonical_request(request)), request)
        if not hmac.compare_digest(expected, query["X-Amz-Signature"]):
            return "SignatureDoesNotMatch", ("The request signature we calculated does not match the signature "
                                             "you provided. Check your key and signing method.")
        return None

    def sign_in_header(self, environ, rest, query):
        """`environ` made the same request without its query signature, signed in its headers."""
        key_id, _, region, _, _ = query["X-Amz-Credential"].split("/")
        secret, token = self.keys[key_id]
        length = int(environ.get("CONTENT_LENGTH") or 0)
        body = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(body)
        environ["QUERY_STRING"] = urlencode(rest)
        path = self.path(environ)
        for name in ("RAW_URI", "REQUEST_URI"):
            if name in environ:
                environ[name] = path + ("?" + environ["QUERY_STRING"] if rest else "")
        request = AWSRequest(method=environ["REQUEST_METHOD"], url=self.url(environ, environ["QUERY_STRING"]),
                             data=body)
        S3SigV4Auth(Credentials(key_id, secret, token), "s3", region).add_auth(request)
        for name, value in request.headers.items():
            if name.lower() != "host":
                environ["HTTP_" + name.upper().replace("-", "_")] = value

    @staticmethod
    def header(environ, name):
        if name == "content-type":
            return environ.get("CONTENT_TYPE", "")
        if name == "content-length":
            return environ.get("CONTENT_LENGTH", "")
        return environ.get("HTTP_" + name.upper().replace("-", "_"), "")

    @staticmethod
    def path(environ):
        raw = environ.get("RAW_URI") or environ.get("REQUEST_URI")
        return raw.split("?", 1)[0] if raw else environ.get("PATH_INFO", "/")

    def url(self, environ, query):
        return f"http://{environ['HTTP_HOST']}{self.path(environ)}" + (f"?{query}" if query else "")
