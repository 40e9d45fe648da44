import Domain
import Foundation
import Storage

/// What `DatabaseCopy` copies from one SQLite store to its PostgreSQL counterpart: the tables
/// both have, parents before the rows that point at them, each column read by its SQLite name
/// and written in its PostgreSQL type.
struct CopyPlan: Sendable {
    /// Tables the migrations fill with a first row: the source's row replaces it.
    static let seeded: Set<String> = ["policy_generation", "log_index_progress", "mdm_policy_sync"]

    struct Table: Sendable {
        let name: String
        /// Source column names, in order, and each one's PostgreSQL type.
        let columns: [(name: String, type: String)]
        /// Columns pointing at this same table (a group's parent): written once every row exists.
        let selfReferences: [String]

        var hasSelfReferences: Bool { !selfReferences.isEmpty }
        var sourceSelection: String { columns.map { "\"\($0.name)\"" }.joined(separator: ", ") }
        /// The log lines' search words, which only PostgreSQL stores.
        var computesSearch: Bool { name == "device_logs" }

        func clearSeeded(in connection: Connection) throws {
            if CopyPlan.seeded.contains(name) { try connection.execute(SQL(verbatim: "DELETE FROM \(name)")) }
        }

        /// One multi-row INSERT for a chunk of source rows.
        func insert(_ rows: [Row], into connection: Connection) throws {
            guard !rows.isEmpty else { return }
            let names = columns.map(\.name) + (computesSearch ? ["search"] : [])
            let one = "(" + columns.map { _ in "?" }.joined(separator: ", ") + (computesSearch ? ", CAST(? AS tsvector))" : ")")
            var bindings: [SQLiteValue] = []
            bindings.reserveCapacity(rows.count * names.count)
            for row in rows {
                for column in columns {
                    let value = selfReferences.contains(column.name) ? .null : row[column.name] ?? .null
                    bindings.append(Self.converted(value, to: column.type))
                }
                if computesSearch {
                    bindings.append(.text(LogSearchVector.tsvector(of: (try? row.get("message", as: String.self)) ?? "")))
                }
            }
            let text = "INSERT INTO \(name) (\(names.joined(separator: ", "))) VALUES " + Array(repeating: one, count: rows.count).joined(separator: ", ")
            try connection.execute(SQL(verbatim: text, bindings: bindings))
        }

        /// Sets the self-referencing columns once every row is there.
        func restoreSelfReferences(from source: Database, into connection: Connection) throws {
            for column in selfReferences {
                let pairs = try source.readBlocking { try $0.rows(SQL(verbatim: "SELECT id, \"\(column)\" AS target FROM \(name) WHERE \"\(column)\" IS NOT NULL")) }
                for pair in pairs {
                    try connection.execute(SQL(verbatim: "UPDATE \(name) SET \(column) = ? WHERE id = ?",
                                               bindings: [pair["target"] ?? .null, pair["id"] ?? .null]))
                }
            }
        }

        /// SQLite keeps moments as REAL seconds; PostgreSQL's `timestamptz` wants a moment.
        static func converted(_ value: SQLiteValue, to type: String) -> SQLiteValue {
            guard type == "timestamp with time zone" else { return value }
            switch value {
            case .real(let seconds): return .date(Date(timeIntervalSince1970: seconds))
            case .integer(let seconds): return .date(Date(timeIntervalSince1970: Double(seconds)))
            default: return value
            }
        }
    }

    let tables: [Table]

    static func make(from source: Database, to target: Database) async throws -> CopyPlan {
        let sourceTables = try await source.read { connection in
            try connection.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").map { try $0.get("name", as: String.self) }
        }
        let (targetColumns, references) = try await target.read { connection in
            (try connection.rows("""
                SELECT table_name AS tableName, column_name AS columnName, data_type AS dataType, is_generated AS generated
                FROM information_schema.columns WHERE table_schema = current_schema()
                """),
             try connection.rows("""
                SELECT c.conrelid::regclass::text AS child, c.confrelid::regclass::text AS parent, a.attname AS columnName
                FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
                WHERE c.contype = 'f' AND c.connamespace = current_schema()::regnamespace
                """))
        }
        var typesByTable: [String: [String: String]] = [:]
        for row in targetColumns where try row.get("generated", as: String.self) != "ALWAYS" {
            typesByTable[try row.get("tableName", as: String.self), default: [:]][try row.get("columnName", as: String.self)] = try row.get("dataType", as: String.self)
        }
        var parents: [String: Set<String>] = [:]
        var selfReferences: [String: [String]] = [:]
        for row in references {
            let child = try row.get("child", as: String.self), parent = try row.get("parent", as: String.self)
            if child == parent {
                selfReferences[child, default: []].append(try row.get("columnName", as: String.self))
            } else {
                parents[child, default: []].insert(parent)
            }
        }
        var tables: [Table] = []
        for name in sourceTables where name != "schema_migrations" {
            guard let types = typesByTable[name.lowercased()] else { continue }  // SQLite's own: search indexes
            let sourceColumns = try await source.read { connection in
                try connection.rows(SQL(verbatim: "PRAGMA table_info(\(name))")).map { try $0.get("name", as: String.self) }
            }
            let columns = sourceColumns.compactMap { column in types[column.lowercased()].map { (name: column, type: $0) } }
            let selfColumns = (selfReferences[name.lowercased()] ?? []).compactMap { lower in columns.first { $0.name.lowercased() == lower }?.name }
            tables.append(Table(name: name, columns: columns, selfReferences: selfColumns))
        }
        return CopyPlan(tables: Self.parentsFirst(tables, parents: parents))
    }

    /// Tables ordered so each comes after those its foreign keys point at.
    static func parentsFirst(_ tables: [Table], parents: [String: Set<String>]) -> [Table] {
        let copied = Set(tables.map { $0.name.lowercased() })
        var ordered: [Table] = []
        var placed = Set<String>()
        var waiting = tables.sorted { $0.name < $1.name }
        while !waiting.isEmpty {
            // A parent outside the copy (none, today) cannot hold anything up.
            let ready = waiting.filter { table in (parents[table.name.lowercased()] ?? []).allSatisfy { placed.contains($0) || !copied.contains($0) } }
            let next = ready.isEmpty ? [waiting[0]] : ready
            for table in next {
                ordered.append(table)
                placed.insert(table.name.lowercased())
            }
            waiting.removeAll { table in next.contains { $0.name == table.name } }
        }
        return ordered
    }

    /// Tables of the target that already hold rows of their own.
    func tablesWithRows(in target: Database) async throws -> [String] {
        try await target.read { connection in
            try tables.filter { table in
                guard !Self.seeded.contains(table.name) else { return false }
                return try connection.scalar(SQL(verbatim: "SELECT count(*) FROM (SELECT 1 FROM \(table.name) LIMIT 1) AS any_row"), as: Int.self) ?? 0 > 0
            }.map(\.name)
        }
    }

    /// Gathers the planner's statistics for every copied table. Until autovacuum comes round
    /// (a minute or more, table by table) PostgreSQL plans a freshly filled table as if it
    /// were small; measured on the device page at 100,000 devices: 7% fewer pages a second.
    func analyze(in target: Database) async throws {
        try await target.write { connection in
            for table in tables {
                try connection.execute(SQL(verbatim: "ANALYZE \(table.name)"))
            }
        }
    }


    /// Moves each id sequence past every id the source ever gave — the largest SQLite kept in
    /// `sqlite_sequence`, which counts deleted rows too, or the largest copied — so an id once
    /// given never names a second record after the move.
    func advanceSequences(from source: Database, in connection: Connection) throws {
        let given = try source.readBlocking { connection in
            guard try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'sqlite_sequence'", as: Int.self) == 1 else { return [String: Int64]() }
            return try Dictionary(connection.rows("SELECT name, seq FROM sqlite_sequence").map {
                (try $0.get("name", as: String.self).lowercased(), try $0.get("seq", as: Int64.self))
            }, uniquingKeysWith: max)
        }
        // setval is not undone by a rollback: a copy that fails after this leaves the
        // sequences further on, which only skips ids.
        for table in tables where table.columns.contains(where: { $0.name == "id" }) {
            try connection.execute(SQL(verbatim: """
                SELECT setval(sequence::regclass, greatest((SELECT coalesce(max(id), 0) FROM \(table.name)), ?) + 1, false)
                FROM (SELECT pg_get_serial_sequence('\(table.name)', 'id') AS sequence) AS owned WHERE sequence IS NOT NULL
                """, bindings: [.integer(given[table.name.lowercased()] ?? 0)]))
        }
    }
}
