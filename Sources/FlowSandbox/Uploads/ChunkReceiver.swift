internal import Hummingbird
internal import NIOCore

/// Streams one chunk's body into an upload: the part both protocols share.
enum ChunkReceiver {
    enum Outcome: Equatable {
        /// Every byte stored; the upload's new offset.
        case stored
        /// The chunk would go past the upload's length; nothing kept.
        case tooLong
        /// The tus checksum did not match; nothing kept.
        case checksumMismatch
        /// The client went away mid-chunk; what arrived is kept unless a checksum could not be verified.
        case interrupted
        /// `?drop-at` closed the connection halfway on purpose; the half that arrived is kept.
        case dropped
        /// The file could not be written.
        case failed(String)
    }

    /// Thrown after a deliberate drop so no response is attempted on the closed connection.
    struct DroppedOnPurpose: Error {}

    static func receive(
        _ body: RequestBody,
        into upload: Upload,
        writer: ChunkWriter,
        declaredLength: Int?,
        checksum: ChunkChecksum?,
        context: SandboxContext,
        events: EventLog
    ) async -> Outcome {
        var writer = writer
        var checksum = checksum
        let room = upload.length - writer.start
        let dropAfter = writer.dropsHalfway ? min(declaredLength ?? room, room) / 2 : nil
        do {
            for try await buffer in body {
                if let entry = context.entry { events.received(buffer.readableBytes, for: entry) }
                if let dropAfter, writer.written + buffer.readableBytes >= dropAfter {
                    // Keep exactly the first half, then hang up mid-body as a failing network would.
                    let head =
                        buffer.getSlice(at: buffer.readerIndex, length: dropAfter - writer.written) ?? ByteBuffer()
                    try writer.append(head)
                    upload.endChunk(writer, keep: true)
                    context.channel.close(promise: nil)
                    return .dropped
                }
                guard writer.written + buffer.readableBytes <= room else {
                    upload.endChunk(writer, keep: false)
                    return .tooLong
                }
                try writer.append(buffer)
                checksum?.update(buffer)
            }
        } catch let error as UploadFileError {
            upload.endChunk(writer, keep: false)
            return .failed(error.description)
        } catch {
            // The body stream failed: the client hung up. Unverifiable bytes must not be kept.
            upload.endChunk(writer, keep: checksum == nil)
            return .interrupted
        }
        if let checksum, !checksum.matches {
            upload.endChunk(writer, keep: false)
            return .checksumMismatch
        }
        upload.endChunk(writer, keep: true)
        return .stored
    }
}
