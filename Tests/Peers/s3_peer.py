"""moto's server on 127.0.0.1:PORT with its signature checking on, for flow's S3 and SigV4 tests.

    s3_peer.py PORT KEYS_FILE [--unchecked]

moto checks requests (their SigV4 signature and the IAM policy of their access key) once it has
served INITIAL_NO_AUTH_ACTION_COUNT actions without checking. This script makes exactly those
actions itself through moto's IAM and STS APIs (a user allowed everything, its access key, a role
and a session of it), then makes sure a request signed with a wrong secret is refused, and only
then writes KEYS_FILE (atomically, so a reader never sees half of it):

    {"region": "us-east-1",
     "access_key_id": "AKIA…", "secret_access_key": "…",
     "session": {"access_key_id": "ASIA…", "secret_access_key": "…", "session_token": "…"}}

moto 5.2.5 cannot check a request signed in its query string (a presigned URL): it reads only the
`Authorization` header (moto/iam/access_control.py line 233) and answers 500. With the checks on,
such requests go through `s3_presigned_check.PresignedCheck`, which checks their signature with
botocore's query signer and the keys made here, then hands them to moto signed in their headers.
With `--unchecked` moto checks nothing (the same keys are made).

It exits with status 1 and says why when the port is taken ("Address already in use") or when the
checks do not turn on. Everything else it prints goes to the test's log file.
"""

import json
import os
import sys
import threading

SETUP_ACTIONS = 6  # CreateUser, PutUserPolicy, CreateAccessKey, CreateRole, PutRolePolicy, AssumeRole
CHECKED = "--unchecked" not in sys.argv[3:]
if CHECKED:
    os.environ["INITIAL_NO_AUTH_ACTION_COUNT"] = str(SETUP_ACTIONS)
else:
    os.environ.pop("INITIAL_NO_AUTH_ACTION_COUNT", None)
# Fixed fake credentials for the setup calls, made before any check is on: never the user's own.
os.environ["AWS_ACCESS_KEY_ID"] = "AKIAFLOWSETUP0000000"
os.environ["AWS_SECRET_ACCESS_KEY"] = "flow-setup"
os.environ.pop("AWS_SESSION_TOKEN", None)
os.environ.pop("AWS_PROFILE", None)

import boto3  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.exceptions import ClientError  # noqa: E402
from moto.moto_server.threaded_moto_server import MotoRequestHandler  # noqa: E402
from moto.server import DomainDispatcherApplication, create_backend_app  # noqa: E402
from werkzeug.serving import make_server  # noqa: E402

from s3_presigned_check import PresignedCheck  # noqa: E402

REGION = "us-east-1"
ALLOW_ALL = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": "*", "Resource": "*"}]})


def client(endpoint, service, key_id=None, secret=None, token=None):
    return boto3.client(
        service, region_name=REGION, endpoint_url=endpoint, aws_access_key_id=key_id or os.environ["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=secret or os.environ["AWS_SECRET_ACCESS_KEY"], aws_session_token=token,
        config=Config(retries={"max_attempts": 1}))


# Access key ID -> (secret, session token or None) of the keys made by set_up, for PresignedCheck.
MADE_KEYS = {}


def set_up(endpoint, keys_file):
    iam = client(endpoint, "iam")
    user = iam.create_user(UserName="flow-tests")["User"]
    iam.put_user_policy(UserName="flow-tests", PolicyName="all", PolicyDocument=ALLOW_ALL)
    key = iam.create_access_key(UserName="flow-tests")["AccessKey"]
    trust = json.dumps({"Version": "2012-10-17", "Statement": [
        {"Effect": "Allow", "Principal": {"AWS": user["Arn"]}, "Action": "sts:AssumeRole"}]})
    iam.create_role(RoleName="flow-tests-role", AssumeRolePolicyDocument=trust)
    iam.put_role_policy(RoleName="flow-tests-role", PolicyName="all", PolicyDocument=ALLOW_ALL)
    sts = client(endpoint, "sts", key["AccessKeyId"], key["SecretAccessKey"])
    session = sts.assume_role(RoleArn=f"arn:aws:iam::123456789012:role/flow-tests-role",
                              RoleSessionName="flow-tests")["Credentials"]
    # From here on every request must be signed. A request with a wrong secret must be refused; if
    # moto counted the setup differently and still lets it through, the next one uses up its count.
    wrong = client(endpoint, "s3", key["AccessKeyId"], "not-the-secret")
    for _ in range(SETUP_ACTIONS + 1 if CHECKED else 0):
        try:
            wrong.list_buckets()
        except ClientError as error:
            if error.response["Error"]["Code"] == "SignatureDoesNotMatch":
                break
            raise
    else:
        if CHECKED:
            raise SystemExit("moto does not check signatures")
    client(endpoint, "s3", key["AccessKeyId"], key["SecretAccessKey"]).list_buckets()
    MADE_KEYS[key["AccessKeyId"]] = (key["SecretAccessKey"], None)
    MADE_KEYS[session["AccessKeyId"]] = (session["SecretAccessKey"], session["SessionToken"])
    keys = {
        "region": REGION, "access_key_id": key["AccessKeyId"], "secret_access_key": key["SecretAccessKey"],
        "session": {"access_key_id": session["AccessKeyId"], "secret_access_key": session["SecretAccessKey"],
                    "session_token": session["SessionToken"]},
    }
    with open(keys_file + ".part", "w") as file:
        json.dump(keys, file)
    os.rename(keys_file + ".part", keys_file)


def main():
    port, keys_file = int(sys.argv[1]), sys.argv[2]
    try:
        app = DomainDispatcherApplication(create_backend_app)
        server = make_server("127.0.0.1", port, PresignedCheck(app, MADE_KEYS) if CHECKED else app, True,
                             request_handler=MotoRequestHandler)
    except OSError as error:
        print(f"s3_peer: port {port}: {error.strerror}", file=sys.stderr, flush=True)
        sys.exit(1)

    def setup_then_report():
        try:
            set_up(f"http://127.0.0.1:{port}", keys_file)
            print(f"s3_peer: serving on 127.0.0.1:{port}, signature checks {'on' if CHECKED else 'off'}", flush=True)
        except BaseException as error:  # noqa: BLE001 - any failure ends the server
            print(f"s3_peer: setup failed: {error!r}", file=sys.stderr, flush=True)
            os._exit(1)

    threading.Thread(target=setup_then_report, daemon=True).start()
    server.serve_forever()


if __name__ == "__main__":
    main()
