/// Text both backends store alike. PostgreSQL's text cannot hold the NUL character (it
/// refuses the statement, or the whole COPY); SQLite stores it. Every bound value is checked
/// here, before either is asked, so the same input is refused the same way on both — as a
/// rule (`StorageError.textWithNUL`), not as a fault halfway through a write.
enum StorableText {
    static func check(_ values: [SQLiteValue]) throws {
        for case .text(let text) in values where holdsNUL(text) { throw StorageError.textWithNUL }
    }

    static func check(_ sql: SQL) throws {
        try check(sql.bindings)
    }

    private static func holdsNUL(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in bytes.contains(0) }
    }
}
