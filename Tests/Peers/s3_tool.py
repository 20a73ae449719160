"""boto3 and botocore for flow's S3 and SigV4 tests (run through `scripts/s3-peer tool`).

    s3_tool.py ENDPOINT KEYS_FILE create-bucket BUCKET
    s3_tool.py ENDPOINT KEYS_FILE put BUCKET KEY FILE
    s3_tool.py ENDPOINT KEYS_FILE check BUCKET KEY FILE     exit 0 when the object equals FILE byte
                                                           for byte, else 1 and what differs
    s3_tool.py ENDPOINT KEYS_FILE missing BUCKET KEY        exit 0 when there is no such object
    s3_tool.py ENDPOINT KEYS_FILE presign-parts BUCKET KEY COUNT
                                                           CreateMultipartUpload, then prints JSON
                                                           {"upload_id", "urls": [COUNT UploadPart URLs]}
    s3_tool.py ENDPOINT KEYS_FILE list-parts BUCKET KEY UPLOAD_ID
    s3_tool.py sign REQUEST_JSON                           botocore's SigV4 for a request and clock

KEYS_FILE is what s3_peer.py wrote. `sign` reads a JSON object: method, url, headers (a list of
[name, value]), body (text) or body_file, service, region, access_key_id, secret_access_key,
session_token (optional), timestamp (YYYYMMDDTHHMMSSZ), s3 (true for botocore's S3 rules: the path
as sent, and an X-Amz-Content-SHA256 header), payload_signing_enabled (false: UNSIGNED-PAYLOAD, as
boto3 signs S3 uploads when its configuration says so), and prints {canonical_request, string_to_sign,
authorization, headers}.
"""

import json
import sys

import boto3
from botocore.auth import S3SigV4Auth, SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.config import Config
from botocore.credentials import Credentials


def s3_client(endpoint, keys_file):
    with open(keys_file) as file:
        keys = json.load(file)
    return boto3.client(
        "s3", region_name=keys["region"], endpoint_url=endpoint, aws_access_key_id=keys["access_key_id"],
        aws_secret_access_key=keys["secret_access_key"],
        config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, retries={"max_attempts": 1}))


def sign(request_json):
    spec = json.loads(request_json)
    body = spec.get("body", "").encode()
    if "body_file" in spec:
        with open(spec["body_file"], "rb") as file:
            body = file.read()
    credentials = Credentials(spec["access_key_id"], spec["secret_access_key"], spec.get("session_token"))
    auth = (S3SigV4Auth if spec.get("s3") else SigV4Auth)(credentials, spec["service"], spec["region"])
    request = AWSRequest(method=spec["method"], url=spec["url"], data=body)
    for name, value in spec.get("headers", []):
        request.headers[name] = value
    # SigV4Auth.add_auth with the clock given instead of utcnow(): the same steps in the same order.
    request.context["timestamp"] = spec["timestamp"]
    if "payload_signing_enabled" in spec:
        # Where boto3 puts it: the client's configuration (S3) and the operation's context (others).
        request.context["client_config"] = Config(s3={"payload_signing_enabled": spec["payload_signing_enabled"]})
        request.context["payload_signing_enabled"] = spec["payload_signing_enabled"]
    auth._modify_request_before_signing(request)
    canonical_request = auth.canonical_request(request)
    string_to_sign = auth.string_to_sign(request, canonical_request)
    signature = auth.signature(string_to_sign, request)
    auth._inject_signature_to_request(request, signature)
    print(json.dumps({
        "canonical_request": canonical_request, "string_to_sign": string_to_sign,
        "authorization": request.headers["Authorization"], "headers": [[k, v] for k, v in request.headers.items()],
    }))


def main():
    if sys.argv[1] == "sign":
        sign(sys.argv[2])
        return
    endpoint, keys_file, command, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    s3 = s3_client(endpoint, keys_file)
    if command == "create-bucket":
        s3.create_bucket(Bucket=args[0])
    elif command == "put":
        with open(args[2], "rb") as file:
            s3.put_object(Bucket=args[0], Key=args[1], Body=file.read())
    elif command == "check":
        stored = s3.get_object(Bucket=args[0], Key=args[1])["Body"].read()
        with open(args[2], "rb") as file:
            expected = file.read()
        if stored != expected:
            first = next((i for i, (a, b) in enumerate(zip(stored, expected)) if a != b), min(len(stored), len(expected)))
            print(f"object {args[0]}/{args[1]} has {len(stored)} bytes, the file {len(expected)}; "
                  f"they differ from byte {first}")
            sys.exit(1)
        print(f"object {args[0]}/{args[1]}: the same {len(stored)} bytes")
    elif command == "missing":
        found = s3.list_objects_v2(Bucket=args[0], Prefix=args[1]).get("Contents", [])
        if any(item["Key"] == args[1] for item in found):
            print(f"object {args[0]}/{args[1]} exists")
            sys.exit(1)
    elif command == "presign-parts":
        upload = s3.create_multipart_upload(Bucket=args[0], Key=args[1])
        urls = [s3.generate_presigned_url("upload_part", Params={
            "Bucket": args[0], "Key": args[1], "UploadId": upload["UploadId"], "PartNumber": number})
            for number in range(1, int(args[2]) + 1)]
        print(json.dumps({"upload_id": upload["UploadId"], "urls": urls}))
    elif command == "list-parts":
        parts = s3.list_parts(Bucket=args[0], Key=args[1], UploadId=args[2]).get("Parts", [])
        print(json.dumps([{"number": p["PartNumber"], "etag": p["ETag"], "size": p["Size"]} for p in parts]))
    else:
        sys.exit(f"s3_tool: unknown command {command}")


if __name__ == "__main__":
    main()
