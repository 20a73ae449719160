"""boto3's upload_file (s3transfer's defaults: 8 MiB parts, 10 threads), the benchmark's peer.

    boto3_upload.py ENDPOINT KEYS_FILE FILE BUCKET KEY
"""
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
s3.upload_file(path, bucket, key)
