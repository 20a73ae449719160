internal import Hummingbird
internal import NIOCore

/// Streams one chunk's body into an upload: the part both protocols share.
enum ChunkReceiver {
    enum Outcome: Equatable {
        /// Every byte of the chunk stored.
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
                if let entry = context.entry { events.received(buffer, for: entry) }
                if let dropAfter, writer.received + buffer.readableBytes >= dropAfter {
                    // Keep exactly the first half, then hang up mid-body as a failing network would.
                    let head =
                        buffer.getSlice(at: buffer.readerIndex, length: dropAfter - writer.received) ?? ByteBuffer()
                    try await writer.append(head)
                    try await writer.flush()
                    upload.endChunk(writer, keep: true)
                    context.channel.close(promise: nil)
                    return .dropped
                }
                guard writer.received + buffer.readableBytes <= room else {
                    upload.endChunk(writer, keep: false)
                    return .tooLong
                }
                try await writer.append(buffer)
                checksum?.update(buffer)
            }
        } catch let error as UploadFileError {
            upload.endChunk(writer, keep: false)
            return .failed(error.description)
        } catch {
            // The body stream failed: the client hung up. Unverifiable bytes must not be kept.
            let keep = checksum == nil
            if keep, let failure = await flush(&writer, of: upload) { return failure }
            upload.endChunk(writer, keep: keep)
            return .interrupted
        }
        if let checksum, !checksum.matches {
            upload.endChunk(writer, keep: false)
            return .checksumMismatch
        }
        if let failure = await flush(&writer, of: upload) { return failure }
        upload.endChunk(writer, keep: true)
        return .stored
    }

    /// Flushes the last batch; on failure ends the chunk without keeping it and says why.
    private static func flush(_ writer: inout ChunkWriter, of upload: Upload) async -> Outcome? {
        do {
            try await writer.flush()
            return nil
        } catch {
            upload.endChunk(writer, keep: false)
            return .failed("\(error)")
        }
    }
}
