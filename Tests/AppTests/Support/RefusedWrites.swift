import Storage

/// Makes one table refuse one kind of write, as a failing disk would, so a test can fail the
/// second write of a request that makes two and see what the first left.
struct RefusedWrites {
    let operation: String
    let table: String

    /// `operation` is INSERT, UPDATE or DELETE.
    init(_ operation: String, on table: String) {
        self.operation = operation
        self.table = table
    }

    private var name: String { "refuse_\(operation.lowercased())_\(table)" }

    func begin(in database: Database) throws {
        try database.withWriterOutsideTransactionBlocking { connection in
            if connection.dialect == .postgres {
                try connection.execute(script: """
                    CREATE FUNCTION \(name)() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'the disk is failing'; END $$;
                    CREATE TRIGGER \(name) BEFORE \(operation) ON \(table) FOR EACH ROW EXECUTE FUNCTION \(name)();
                    """)
            } else {
                try connection.execute(script: "CREATE TRIGGER \(name) BEFORE \(operation) ON \(table) BEGIN SELECT RAISE(ABORT, 'the disk is failing'); END;")
            }
        }
    }

    func end(in database: Database) throws {
        try database.withWriterOutsideTransactionBlocking { connection in
            try connection.execute(script: connection.dialect == .postgres
                ? "DROP TRIGGER \(name) ON \(table); DROP FUNCTION \(name)();"
                : "DROP TRIGGER \(name);")
        }
    }
}
