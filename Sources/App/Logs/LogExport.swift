import Foundation
import Storage

/// Log lines as a download: NDJSON (one object per line, the API's field names) or plain
/// text (one line per message, continuation lines indented). Rows are written straight from
/// the values SQLite returns, without decoding records or formatting dates through
/// Foundation: an export of a million lines spends its time here (`Benchmarks/logs`).
package enum LogExport {
    package enum Format: String, CaseIterable, Sendable {
        case ndjson
        case text

        var contentType: String {
            switch self {
            case .ndjson: "application/x-ndjson; charset=utf-8"
            case .text: "text/plain; charset=utf-8"
            }
        }

        var fileExtension: String { self == .ndjson ? "ndjson" : "log" }
    }

    /// The columns `LogQueries.export` selects, in this order.
    package static let columns = "l.id, l.deviceID, l.deviceName, l.app, l.appVersion, l.kind, l.level, l.message, l.fields, l.loggedAt, l.receivedAt, l.signature"

    /// Appends `row` (selected as `columns`) to `bytes` in `format`, ending with a newline.
    package static func append(_ row: Row, as format: Format, to bytes: inout [UInt8]) {
        let values = row.values
        guard values.count == 12 else { return }
        switch format {
        case .ndjson:
            bytes.append(contentsOf: #"{"id":"#.utf8)
            appendRaw(values[0], to: &bytes)
            bytes.append(contentsOf: #","deviceID":"#.utf8)
            appendRaw(values[1], to: &bytes)
            for (name, index) in [("deviceName", 2), ("app", 3), ("appVersion", 4), ("type", 5), ("level", 6)] {
                bytes.append(contentsOf: ",\"\(name)\":".utf8)
                appendJSONString(values[index], to: &bytes)
            }
            bytes.append(contentsOf: #","timestamp":""#.utf8)
            appendISOTime(values[9], to: &bytes)
            bytes.append(contentsOf: #"","receivedAt":""#.utf8)
            appendISOTime(values[10], to: &bytes)
            bytes.append(contentsOf: #"","message":"#.utf8)
            appendJSONString(values[7], to: &bytes)
            // Stored fields are a JSON object the upload checked; written as they are.
            bytes.append(contentsOf: #","fields":"#.utf8)
            if case .text(let object) = values[8] { bytes.append(contentsOf: object.utf8) } else { bytes.append(contentsOf: "{}".utf8) }
            bytes.append(contentsOf: #","signature":"#.utf8)
            appendJSONString(values[11], to: &bytes)
            bytes.append(contentsOf: "}\n".utf8)
        case .text:
            appendISOTime(values[9], to: &bytes)
            bytes.append(32)
            if case .text(let level) = values[6] { bytes.append(contentsOf: level.uppercased().utf8) }
            bytes.append(32)
            if case .text(let device) = values[2] { bytes.append(contentsOf: device.utf8) }
            bytes.append(contentsOf: "  ".utf8)
            if case .text(let app) = values[3] { bytes.append(contentsOf: app.utf8) }
            if case .text(let version) = values[4], !version.isEmpty { bytes.append(32); bytes.append(contentsOf: version.utf8) }
            if case .text(let kind) = values[5], kind == "crash" { bytes.append(contentsOf: " [crash]".utf8) }
            bytes.append(contentsOf: ": ".utf8)
            if case .text(let message) = values[7] {
                for byte in message.utf8 {
                    bytes.append(byte)
                    if byte == 10 { bytes.append(contentsOf: "    ".utf8) }
                }
            }
            bytes.append(10)
        }
    }

    private static func appendRaw(_ value: SQLiteValue, to bytes: inout [UInt8]) {
        if case .integer(let number) = value { bytes.append(contentsOf: String(number).utf8) } else { bytes.append(contentsOf: "null".utf8) }
    }

    /// A line's fields as stored and exported: a flat JSON object with sorted keys. Written
    /// here, a byte at a time, because every uploaded line with fields passes through it on
    /// the log writer's path (JSONEncoder took a twentieth of the writer's time).
    package static func appendFields(_ fields: [String: String], to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "{"))
        for (offset, key) in fields.keys.sorted().enumerated() {
            if offset > 0 { bytes.append(UInt8(ascii: ",")) }
            appendJSONString(.text(key), to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            appendJSONString(.text(fields[key]!), to: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
    }

    /// A JSON string, or `null` for a NULL column.
    package static func appendJSONString(_ value: SQLiteValue, to bytes: inout [UInt8]) {
        guard case .text(let text) = value else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        bytes.append(34)
        for byte in text.utf8 {
            switch byte {
            case 34: bytes.append(contentsOf: [92, 34])
            case 92: bytes.append(contentsOf: [92, 92])
            case 10: bytes.append(contentsOf: [92, 110])
            case 13: bytes.append(contentsOf: [92, 114])
            case 9: bytes.append(contentsOf: [92, 116])
            case 0..<32: bytes.append(contentsOf: [92, 117, 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
            default: bytes.append(byte)
            }
        }
        bytes.append(34)
    }

    /// Seconds since 1970 as `2026-11-23T09:30:05Z`, or `…05.250Z` when there is a fraction
    /// of a second; a cell that is not a number writes nothing.
    package static func appendISOTime(_ value: SQLiteValue, to bytes: inout [UInt8]) {
        switch value {
        case .real(let seconds): ISOTimeText.append(secondsSince1970: seconds, precision: .milliseconds, to: &bytes)
        case .integer(let seconds): ISOTimeText.append(secondsSince1970: Double(seconds), precision: .milliseconds, to: &bytes)
        default: return
        }
    }
}
