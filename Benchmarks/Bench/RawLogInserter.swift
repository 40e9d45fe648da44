import App
import CSQLite
import Domain
import Foundation
import NIOCore
import Storage

/// SQLite without the storage layer: the anchor the ORM's insert and the export's read are
/// measured against. Its own connection, with the pragmas `Database` sets.
final class RawLogInserter {
    private let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw BenchmarkSupport.BenchError("cannot open \(path)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, 5000)
        try exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
    }

    deinit { sqlite3_close_v2(handle) }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
        }
        return statement
    }

    private func step(_ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw BenchmarkSupport.BenchError("SQLite: \(String(cString: sqlite3_errmsg(handle)))") }
    }

    private static func bind(_ text: String, _ index: Int32, _ statement: OpaquePointer) {
        var copy = text
        copy.withUTF8 { bytes in
            _ = sqlite3_bind_text(statement, index, bytes.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) },
                                  Int32(bytes.count), csqlite_transient())
        }
    }

    /// Inserts `lines` lines from `batches` in turn, each batch one `BEGIN IMMEDIATE … COMMIT`
    /// with the same rows and usage upserts `LogStore.append` writes (the index is brought up
    /// to date behind them, as `LogIndexer` does); returns lines a second.
    func insert(_ batches: [[LogLine]], lines lineCount: Int, uploaders: [LogStore.Uploader]) throws -> Double {
        let insert = try prepare("""
            INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let usage = try prepare("""
            INSERT INTO log_usage (app, byteCount, lineCount) VALUES (?, ?, ?)
            ON CONFLICT (app) DO UPDATE SET byteCount = byteCount + excluded.byteCount, lineCount = lineCount + excluded.lineCount
            """)
        defer { sqlite3_finalize(insert); sqlite3_finalize(usage) }
        var stored = 0
        var index = 0
        var fields: [UInt8] = []
        let start = ContinuousClock.now
        while stored < lineCount {
            let lines = batches[index % batches.count]
            let uploader = uploaders[index % uploaders.count]
            let receivedAt = Date().timeIntervalSince1970
            try exec("BEGIN IMMEDIATE")
            var added: [String: (bytes: Int, lines: Int)] = [:]
            for line in lines {
                sqlite3_bind_int64(insert, 1, uploader.id.rawValue)
                Self.bind(uploader.name, 2, insert)
                Self.bind(line.app, 3, insert)
                Self.bind(line.appVersion, 4, insert)
                Self.bind(line.kind.rawValue, 5, insert)
                Self.bind(line.level.rawValue, 6, insert)
                Self.bind(line.message, 7, insert)
                if line.fields.isEmpty { sqlite3_bind_null(insert, 8) } else {
                    fields.removeAll(keepingCapacity: true)
                    LogExport.appendFields(line.fields, to: &fields)
                    Self.bind(String(decoding: fields, as: UTF8.self), 8, insert)
                }
                if let signature = line.signature { Self.bind(signature, 9, insert) } else { sqlite3_bind_null(insert, 9) }
                sqlite3_bind_double(insert, 10, line.loggedAt.timeIntervalSince1970)
                sqlite3_bind_double(insert, 11, receivedAt)
                let bytes = line.byteCount
                sqlite3_bind_int64(insert, 12, Int64(bytes))
                try step(insert)
                added[line.app, default: (0, 0)].bytes += bytes
                added[line.app, default: (0, 0)].lines += 1
            }
            for (app, sum) in added {
                Self.bind(app, 1, usage)
                sqlite3_bind_int64(usage, 2, Int64(sum.bytes))
                sqlite3_bind_int64(usage, 3, Int64(sum.lines))
                try step(usage)
            }
            try exec("COMMIT")
            stored += lines.count
            index += 1
        }
        return Double(stored) / BenchmarkSupport.seconds(ContinuousClock.now - start)
    }

    /// Reads the export's columns of the oldest `limit` lines in one statement, touching every
    /// value; returns how many rows it read.
    func readAll(limit: Int) throws -> Int {
        let select = try prepare("SELECT \(LogExport.columns) FROM device_logs AS l ORDER BY l.id LIMIT \(limit)")
        defer { sqlite3_finalize(select) }
        var rows = 0
        while sqlite3_step(select) == SQLITE_ROW {
            for column in 0..<sqlite3_column_count(select) {
                switch sqlite3_column_type(select, column) {
                case SQLITE_INTEGER: _ = sqlite3_column_int64(select, column)
                case SQLITE_FLOAT: _ = sqlite3_column_double(select, column)
                case SQLITE_TEXT: _ = sqlite3_column_text(select, column); _ = sqlite3_column_bytes(select, column)
                default: break
                }
            }
            rows += 1
        }
        return rows
    }
}
