@testable import App
import Storage
import Testing

/// The console's migrations build the same tables on PostgreSQL as on SQLite, each in its own
/// types (`Schema` names both scripts of every migration).
@Suite(.enabled(if: TestBackend.isPostgresWanted, "PAYLOAD_CONSOLE_TEST_POSTGRES is not set"))
struct PostgresSchemaTests {
    @Test func everyTableHasTheSameColumnsAndNotNullsAsOnSQLite() throws {
        let sqlite = try Database(path: ":memory:")
        try Migrator(Schema.migrations).migrate(sqlite)
        let postgres = try TestBackend.emptyPostgresDatabase()
        try Migrator(Schema.migrations).migrate(postgres)

        let expected = try sqlite.readBlocking(Self.sqliteColumns)
        let found = try postgres.readBlocking(Self.postgresColumns)
        #expect(expected["devices"]?["udid"] == true, "the comparison reads SQLite's tables")
        #expect(found.keys.sorted() == expected.keys.sorted())
        for (table, columns) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(found[table] == columns, "\(table): column name → NOT NULL")
        }
    }

    @Test func migratingAgainFindsNothingLeftToDo() throws {
        let postgres = try TestBackend.emptyPostgresDatabase()
        try Migrator(Schema.migrations).migrate(postgres)
        #expect(try Migrator(Schema.migrations).migrate(postgres).isEmpty)
        #expect(try Migrator(Schema.migrations).appliedVersions(in: postgres) == Schema.migrations.map(\.version).sorted())
    }

    /// Table → lower-cased column name → whether it is NOT NULL. An `INTEGER PRIMARY KEY` says
    /// it allows NULL, yet can never hold one (SQLite picks the id instead). FTS5's table for
    /// device search and its shadow tables are not compared: PostgreSQL searches devices through
    /// trigram indexes on the table itself.
    private static func sqliteColumns(_ connection: Connection) throws -> [String: [String: Bool]] {
        let rows = try connection.rows("""
            SELECT t.name AS tablename, lower(c.name) AS columnname, c."notnull" OR c.pk > 0 AS required
            FROM pragma_table_list AS t, pragma_table_info(t.name) AS c
            WHERE t.schema = 'main' AND t.type = 'table' AND t.name NOT LIKE 'sqlite%'
            """)
        return try grouped(rows)
    }

    private static func postgresColumns(_ connection: Connection) throws -> [String: [String: Bool]] {
        let rows = try connection.rows("""
            SELECT c.table_name::text AS tablename, c.column_name::text AS columnname, (c.is_nullable = 'NO')::int AS required
            FROM information_schema.columns AS c
            JOIN information_schema.tables AS t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
            WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
            """)
        return try grouped(rows)
    }

    private static func grouped(_ rows: [Row]) throws -> [String: [String: Bool]] {
        var tables: [String: [String: Bool]] = [:]
        for row in rows {
            let table = try row.get("tablename", as: String.self)
            let column = try row.get("columnname", as: String.self)
            tables[table, default: [:]][column] = try row.get("required", as: Int.self) != 0
        }
        return tables
    }
}
