import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// Reads a device's log upload: NDJSON (one JSON object per line), plain or gzip-compressed,
/// into checked `LogLine`s. Every refusal is an `APIError` naming the line it is about.
package enum LogUpload {
    /// One line as a device sends it. Devices may send keys the console does not read; those are ignored.
    struct Line: Decodable, Equatable {
        let app: String
        let appVersion: String?
        let level: String
        let type: String
        let timestamp: String
        let message: String
        let fields: [String: FieldValue]?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case app, appVersion, level, type, timestamp, message, fields
        }
    }

    /// A structured field's value: text, a number or a boolean, kept as text.
    struct FieldValue: Decodable, Equatable {
        let text: String

        init(text: String) {
            self.text = text
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let text = try? container.decode(String.self) { self.text = text }
            else if let flag = try? container.decode(Bool.self) { text = flag ? "true" : "false" }
            else if let number = try? container.decode(Double.self) {
                text = NumberText.plain(number)
            } else {
                throw DecodingError.typeMismatch(String.self, .init(codingPath: decoder.codingPath,
                                                                    debugDescription: "must be text, a number or true/false"))
            }
        }
    }

    static let mediaTypes = ["application/x-ndjson", "application/jsonl", "application/x-jsonlines"]

    /// The body's lines; `contentType` and `contentEncoding` as the request sent them.
    package static func lines(from body: ByteBuffer, contentType: String?, contentEncoding: String?) throws -> [LogLine] {
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard let mediaType, mediaTypes.contains(mediaType) else {
            throw APIError(status: .unsupportedMediaType, code: .unsupportedMediaType,
                           message: "Send logs as NDJSON: Content-Type: application/x-ndjson, one JSON object per line.")
        }
        var bytes = Array(body.readableBytesView)
        switch contentEncoding?.lowercased() {
        case nil, "identity": break
        case "gzip":
            do { bytes = try Gzip.inflate(bytes, limit: RequestLimits.logUploadInflated) } catch .tooLarge {
                throw APIError(status: .contentTooLarge, code: .bodyTooLarge,
                               message: "The upload inflates to more than \(RequestLimits.logUploadInflated >> 20) MB; send smaller batches.")
            } catch .trailingBytes {
                throw APIError(status: .badRequest, code: .malformedGzip,
                               message: "The gzip body has bytes after its last member that are not gzip; nothing was stored. Send whole gzip members only.")
            } catch {
                throw APIError(status: .badRequest, code: .malformedGzip, message: "The body says it is gzip but could not be inflated; nothing was stored.")
            }
        default:
            throw APIError(status: .unsupportedMediaType, code: .unsupportedEncoding, message: "Send the body plain or with Content-Encoding: gzip.")
        }
        return try bytes.withUnsafeBufferPointer { body in
            // Numbered as an editor shows the body; a trailing newline, or a blank line between two, is no line.
            var lines: [(number: Int, bytes: UnsafeBufferPointer<UInt8>)] = []
            var start = 0
            for (number, end) in (body.indices.filter { body[$0] == UInt8(ascii: "\n") } + [body.count]).enumerated() {
                let line = UnsafeBufferPointer(rebasing: body[start..<end])
                if !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || $0 == UInt8(ascii: "\t") }) {
                    lines.append((number + 1, line))
                }
                start = end + 1
            }
            // Counted before any is decoded, so an oversized batch costs no decoding.
            if lines.count > LogBatch.maximumLines { throw refusal(.tooManyLines(lines.count)) }
            let decoder = JSONDecoder()
            // A body is a few milliseconds of a core; people's requests waiting for it go first.
            var giveWay = GiveWay(every: 32)
            return try lines.map { number, bytes in
                giveWay.step()
                return try line(LogLineReader.line(bytes) ?? decoded(bytes, number: number, decoder: decoder), number: number)
            }
        }
    }

    /// `JSONDecoder`'s reading of a line `LogLineReader` left to it, or the refusal naming what is wrong.
    private static func decoded(_ bytes: UnsafeBufferPointer<UInt8>, number: Int, decoder: JSONDecoder) throws -> Line {
        do { return try decoder.decode(Line.self, from: Data(buffer: bytes)) } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw invalid(line: number, field: "", "is not a JSON object.")
            }
            if case .typeMismatch(_, let context) = error, context.codingPath.isEmpty {
                throw invalid(line: number, field: "", "is not a JSON object.")
            }
            let refusal = APIRequest.refusal(error)
            throw invalid(line: number, field: refusal.field ?? "", refusal.message)
        }
    }

    /// A line as sent, checked: its level, type and time read.
    private static func line(_ sent: Line, number: Int) throws -> LogLine {
        guard let level = LogLevel(rawValue: sent.level) else {
            throw invalid(line: number, field: "level", "level must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        guard let kind = SimulatedLog.Kind(rawValue: sent.type) else {
            throw invalid(line: number, field: "type", "type must be application or crash.")
        }
        guard let loggedAt = ISOTimestamp.parse(sent.timestamp) else {
            throw invalid(line: number, field: "timestamp", "timestamp must be a real ISO 8601 time with its zone, such as 2026-11-23T09:30:00Z, \(ISOTimestamp.rangeDescription); \(sent.timestamp.clipped(to: 40).debugDescription) is not.")
        }
        return LogLine(app: sent.app, appVersion: sent.appVersion ?? "", level: level, kind: kind, loggedAt: loggedAt,
                       message: sent.message, fields: sent.fields?.mapValues(\.text) ?? [:])
    }

    static func invalid(line: Int, field: String, _ message: String) -> APIError {
        APIError(status: .unprocessableContent, code: .invalidLine, message: "Line \(line): \(message)",
                 field: field.isEmpty ? "lines.\(line)" : "lines.\(line).\(field)")
    }

    /// The API's answer to a refused batch.
    static func refusal(_ problem: LogBatch.Problem) -> APIError {
        switch problem {
        case .empty: APIError(status: .unprocessableContent, code: .noLines, message: problem.message)
        case .tooManyLines: APIError(status: .unprocessableContent, code: .tooManyLines, message: problem.message)
        case .invalidLine(let line, let field, _):
            APIError(status: .unprocessableContent, code: .invalidLine, message: problem.message, field: "lines.\(line).\(field)")
        case .loggingOff: APIError(status: .unprocessableContent, code: .loggingOff, message: problem.message)
        case .levelNotCollected(let line, _, _):
            APIError(status: .unprocessableContent, code: .levelNotCollected, message: problem.message, field: "lines.\(line).level")
        }
    }
}
