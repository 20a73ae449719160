"""An app's upload backend, as the presigned-parts pattern has one (for workflows/s3/presigned-parts.yaml).

    s3_presign_backend.py PORT S3_ENDPOINT KEYS_FILE BUCKET

    POST /uploads            {"key", "size", "part_size"}
        CreateMultipartUpload, then {"upload_id", "parts": [{"number", "url", "offset", "length"}]}:
        one UploadPart URL presigned by boto3 (SigV4, query string) per part of the file.
    POST /uploads/ID/complete {"key", "etags": [ETag of part 1, of part 2, …]}
        CompleteMultipartUpload with those ETags; {"key", "etag"} of the object.

The client never holds an AWS key: it sends each part to its URL and the ETags back. Errors answer
400 with {"error": …} (an S3 error's code and message).
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError

PORT, ENDPOINT, KEYS_FILE, BUCKET = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
with open(KEYS_FILE) as file:
    KEYS = json.load(file)
S3 = boto3.client(
    "s3", region_name=KEYS["region"], endpoint_url=ENDPOINT, aws_access_key_id=KEYS["access_key_id"],
    aws_secret_access_key=KEYS["secret_access_key"],
    config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))


class Handler(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802 - http.server's name
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        path = self.path.strip("/").split("/")
        try:
            if path == ["uploads"]:
                answer = self.start(body)
            elif len(path) == 3 and path[0] == "uploads" and path[2] == "complete":
                answer = self.complete(path[1], body)
            else:
                return self.reply(404, {"error": f"no route {self.path}"})
        except ClientError as error:
            return self.reply(400, {"error": f"{error.response['Error']['Code']}: {error.response['Error']['Message']}"})
        self.reply(200, answer)

    def start(self, body):
        size, part_size = int(body["size"]), int(body["part_size"])
        upload = S3.create_multipart_upload(Bucket=BUCKET, Key=body["key"])
        parts = []
        for number, offset in enumerate(range(0, size, part_size), start=1):
            url = S3.generate_presigned_url("upload_part", ExpiresIn=3600, Params={
                "Bucket": BUCKET, "Key": body["key"], "UploadId": upload["UploadId"], "PartNumber": number})
            parts.append({"number": number, "url": url, "offset": offset, "length": min(part_size, size - offset)})
        return {"upload_id": upload["UploadId"], "parts": parts}

    def complete(self, upload_id, body):
        parts = [{"PartNumber": number, "ETag": etag} for number, etag in enumerate(body["etags"], start=1)]
        done = S3.complete_multipart_upload(
            Bucket=BUCKET, Key=body["key"], UploadId=upload_id, MultipartUpload={"Parts": parts})
        return {"key": body["key"], "etag": done["ETag"]}

    def reply(self, status, answer):
        data = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


if __name__ == "__main__":
    try:
        server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    except OSError as error:
        sys.exit(f"s3_presign_backend: port {PORT}: {error.strerror}")
    server.serve_forever()
