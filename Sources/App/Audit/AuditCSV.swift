import Foundation
import HTTPTypes
import Hummingbird
import Storage

/// The audit log as CSV (RFC 4180), every entry matching the page's filter, newest first as
/// the page lists them, streamed a chunk at a time. A cell a spreadsheet would read as a formula (`=`, `+`, `-`,
/// `@`, tab or carriage return first) is prefixed with `'`: subjects and values are typed by
/// people, and opening the export must not run what they typed.
enum AuditCSV {
    static let chunkSize = 1000
    static let header = "time_utc,person,action,action_code,subject,before,after\r\n"

    static func response(_ filter: AuditFilter, log: AuditLog, now: Date) async throws -> Response {
        let stamp = String(DisplayTime.iso(now).prefix(16)).replacingOccurrences(of: ":", with: "")
        let headers: HTTPFields = [
            .contentType: "text/csv; charset=utf-8", .cacheControl: "no-store",
            .contentDisposition: "attachment; filename=\"audit-\(stamp).csv\"",
        ]
        if let problem = filter.rangeProblem {
            return Response(status: .unprocessableContent, headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: problem + "\n")))
        }
        guard let last = try await log.newestID() else { return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: header))) }
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: header))
            var before: RecordID<AuditEvent>?
            while true {
                let entries = try await log.chunk(filter, before: before, through: last, limit: chunkSize)
                if !entries.isEmpty { try await writer.write(ByteBuffer(string: entries.map(row).joined())) }
                guard entries.count == chunkSize, let id = entries.last?.id else { break }
                before = id
            }
            try await writer.finish(nil)
        })
    }

    static func row(_ event: AuditEvent) -> String {
        [DisplayTime.iso(event.occurredAt), event.actorEmail, event.wording, event.action, event.subject,
         event.before ?? "", event.after ?? ""].map(cell).joined(separator: ",") + "\r\n"
    }

    static func cell(_ value: String) -> String {
        var text = value
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first) { text = "'" + text }
        guard text.unicodeScalars.contains(where: { [",", "\"", "\n", "\r"].contains($0) }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
