"""Checks that BUCKET/KEY holds FILE byte for byte (streamed, sha256), then deletes the object.

    check.py ENDPOINT KEYS_FILE FILE BUCKET KEY
"""
import hashlib
import json
import sys

import boto3
from botocore.config import Config

endpoint, keys_file, path, bucket, key = sys.argv[1:6]
with open(keys_file) as file:
    keys = json.load(file)
s3 = boto3.client(
    "s3", region_name=keys["region"], endpoint_url=endpoint, aws_access_key_id=keys["access_key_id"],
    aws_secret_access_key=keys["secret_access_key"], config=Config(s3={"addressing_style": "path"}))
stored, expected = hashlib.sha256(), hashlib.sha256()
for piece in s3.get_object(Bucket=bucket, Key=key)["Body"].iter_chunks(1 << 20):
    stored.update(piece)
with open(path, "rb") as file:
    for piece in iter(lambda: file.read(1 << 20), b""):
        expected.update(piece)
s3.delete_object(Bucket=bucket, Key=key)
for upload in s3.list_multipart_uploads(Bucket=bucket).get("Uploads", []):
    s3.abort_multipart_upload(Bucket=bucket, Key=upload["Key"], UploadId=upload["UploadId"])
if stored.digest() != expected.digest():
    sys.exit(f"{bucket}/{key} is not the file")
