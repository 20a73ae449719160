/// The keys of an `upload` step with `protocol: s3` (S3's multipart upload).
package struct S3UploadSettings: Sendable, Hashable {
    /// How each part's integrity is checked by the server and against its answer.
    package enum Checksum: String, Sendable, Hashable, CaseIterable {
        /// `x-amz-checksum-sha256` on every part (and the upload created with that algorithm).
        case sha256
        /// `Content-MD5` on every part, its `ETag` compared with the part's MD5.
        case md5
    }

    /// The smallest part S3 accepts (but the last): 5 MiB.
    package static let minimumPartSize = 5 * 1024 * 1024
    /// The largest part: 5 GiB.
    package static let maximumPartSize = 5 * 1024 * 1024 * 1024
    /// The most parts of one upload.
    package static let maximumParts = 10_000
    /// The part size when `chunk-size` is not given and the file fits in 10,000 of them: 8 MiB,
    /// awscli's (s3transfer's) default.
    package static let defaultPartSize = 8 * 1024 * 1024

    /// The signing region (`region`); nil: from the URL's host (`s3.REGION.amazonaws.com`), else
    /// `AWS_REGION`, else `us-east-1`.
    package var region: ScalarText?
    /// Parts sent at once (`chunks-in-flight`).
    package var partsInFlight = 4
    /// `x-amz-storage-class` of the object (`storage-class`).
    package var storageClass: ScalarText?
    /// The object's `Content-Type` (`content-type`); nil: guessed from the file's extension.
    package var contentType: ScalarText?
    /// The per-part checksum (`checksum`).
    package var checksum = Checksum.sha256
    /// Whether `chunk-size` was given; otherwise the part size is chosen from the file's size.
    package var partSizeGiven = false

    /// Settings with the defaults.
    package init() {}

    /// The part size for a file of `fileSize` bytes: `given` when set, else 8 MiB, or more (a
    /// whole number of MiB) when 8 MiB parts would be more than 10,000.
    package static func partSize(forFileSize fileSize: Int64, given: Int?) -> Int64 {
        if let given { return Int64(given) }
        let mebibyte: Int64 = 1 << 20
        let least = (fileSize + Int64(maximumParts) - 1) / Int64(maximumParts)
        let rounded = (least + mebibyte - 1) / mebibyte * mebibyte
        return max(Int64(defaultPartSize), rounded)
    }

    /// How many parts a file of `fileSize` bytes takes in parts of `partSize` (an empty file: one).
    package static func partCount(fileSize: Int64, partSize: Int64) -> Int {
        max(1, Int((fileSize + partSize - 1) / partSize))
    }

    /// Why `partSize` cannot upload a file of `fileSize` bytes, or nil.
    package static func problem(fileSize: Int64, partSize: Int64) -> String? {
        if partSize < Int64(minimumPartSize) || partSize > Int64(maximumPartSize) {
            return "an S3 part must be 5MiB to 5GiB (all but the last), not \(partSize) bytes"
        }
        let count = partCount(fileSize: fileSize, partSize: partSize)
        if count > maximumParts {
            return "\(fileSize) bytes in parts of \(partSize) bytes would be \(count) parts; S3 allows at most "
                + "10,000 (use a larger chunk-size, or leave it out to have flow choose one)"
        }
        return nil
    }
}
