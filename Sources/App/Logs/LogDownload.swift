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

    static func response(_ selection: LogRemoval.Selection, as format: LogExport.Format, reader: LogReader, now: Date) async throws -> Response {
        let stamp = String(DisplayTime.iso(now).prefix(16)).replacingOccurrences(of: ":", with: "")
        let headers: HTTPFields = [
            .contentType: format.contentType, .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"logs-\(stamp).\(format.fileExtension)\"",
        ]
        switch selection {
        case .lines(let ids):
            var bytes: [UInt8] = []
            for row in try await reader.exportLines(ids) { LogExport.append(row, as: format, to: &bytes) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        case .matching(let matching):
            var whole = matching
            whole.before = nil
            let filter = whole
            guard let last = try await reader.newestLineID() else { return Response(status: .ok, headers: headers) }
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
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
