import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// A download of log lines, streamed: chosen lines, or every line matching a filter read a
/// chunk at a time (oldest first, each chunk its own short read), so a million lines cost the
/// server one chunk of memory and hold no snapshot for the whole download. Lines arriving
/// while it streams are left for the next download.
package enum LogDownload {
    package static let chunkSize = 2000
    /// A person ticks lines on pages of fifty; more than this is a filter's job.
    static let maximumChosen = 1000

    /// The download as the pages send it.
    static func response(_ selection: LogRemoval.Selection, as format: LogExport.Format, reader: LogReader, now: Date) async throws -> Response {
        try await answer(selection, as: format, reader: reader, now: now).response(status: .ok, headers: [:])
    }

    /// The download as an API answer: named for the time it was asked, never cached.
    static func answer(_ selection: LogRemoval.Selection, as format: LogExport.Format, reader: LogReader, now: Date) async throws -> FileAnswer<LogExport.Format> {
        let stamp = String(DisplayTime.iso(now).prefix(16)).replacingOccurrences(of: ":", with: "")
        func file(_ body: ResponseBody) -> FileAnswer<LogExport.Format> {
            FileAnswer(format, body: body, filename: "logs-\(stamp).\(format.fileExtension)", cacheControl: "no-store")
        }
        switch selection {
        case .lines(let ids):
            var bytes: [UInt8] = []
            for row in try await reader.exportLines(ids) { LogExport.append(row, as: format, to: &bytes) }
            return file(ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .matching(let matching):
            var whole = matching
            whole.before = nil
            let filter = whole
            guard let last = try await reader.newestLineID() else { return file(ResponseBody()) }
            return file(ResponseBody { writer in
                var after: RecordID<DeviceLogRecord>?
                var bytes: [UInt8] = []
                bytes.reserveCapacity(chunkSize * 256)
                while true {
                    let rows = try await reader.exportChunk(filter, after: after, through: last, limit: chunkSize)
                    bytes.removeAll(keepingCapacity: true)
                    for row in rows { LogExport.append(row, as: format, to: &bytes) }
                    if !bytes.isEmpty { try await writer.write(ByteBuffer(bytes: bytes)) }
                    guard rows.count == chunkSize, case .integer(let id)? = rows.last?.values.first else { break }
                    after = RecordID(id)
                }
                try await writer.finish(nil)
            })
        }
    }
}
