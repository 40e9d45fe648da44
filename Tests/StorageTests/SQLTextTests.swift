@testable import Storage
import Testing

/// SQL written for SQLite, read for PostgreSQL: placeholders numbered and scripts split only
/// where code is, never inside a literal, a quoted name, a dollar-quoted body or a comment.
@Suite struct SQLTextTests {
    @Test func placeholdersAreNumberedOnlyInCode() {
        let text = #"SELECT ? , 'it''s ?', "Odd?Name", $$ ? $$, $tag$ ?; $tag$ FROM t WHERE a = ? -- ?"# + "\n AND b = ? /* ? */"
        #expect(SQLTextScanner.postgresText(text)
            == #"SELECT $1 , 'it''s ?', "odd?name", $$ ? $$, $tag$ ?; $tag$ FROM t WHERE a = $2 -- ?"# + "\n AND b = $3 /* ? */")
    }

    @Test func aScriptSplitsAtSemicolonsOutsideLiteralsAndBodies() {
        let script = """
            CREATE TABLE a (note text DEFAULT ';');
            CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;
            -- a comment; with a semicolon
            INSERT INTO a VALUES ('x;y');
            """
        #expect(SQLTextScanner.statements(in: script) == [
            "CREATE TABLE a (note text DEFAULT ';')",
            "CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql",
            "-- a comment; with a semicolon\nINSERT INTO a VALUES ('x;y')",
        ])
    }

    @Test func aPositionalParameterIsNotADollarQuote() {
        #expect(SQLTextScanner.postgresText("SELECT $1, a$b FROM t WHERE c = ?") == "SELECT $1, a$b FROM t WHERE c = $1")
    }

    @Test func likeIsReadAsSQLiteReadsIt() {
        #expect(SQLTextScanner.postgresText("SELECT 'LIKE' FROM t WHERE a like ? AND b NOT LIKE ? AND likes = 1")
            == "SELECT 'LIKE' FROM t WHERE a ILIKE $1 AND b NOT ILIKE $2 AND likes = 1")
    }
}

/// A bulk insert on PostgreSQL goes a group of rows per statement.
@Suite struct MultiRowInsertTests {
    @Test func anInsertOfOneTupleIsRepeatedForEachRow() throws {
        let insert = try #require(MultiRowInsert("INSERT INTO t (a, b) VALUES (?, CAST(? AS tsvector))"))
        #expect(insert.text(rows: 3) == "INSERT INTO t (a, b) VALUES (?, CAST(? AS tsvector)), (?, CAST(? AS tsvector)), (?, CAST(? AS tsvector))")
    }

    @Test func otherStatementsAreRunRowByRow() {
        #expect(MultiRowInsert("UPDATE t SET a = ? WHERE id = ?") == nil)
        #expect(MultiRowInsert("INSERT INTO t (a) SELECT a FROM u WHERE b IN (?)") == nil)
        #expect(MultiRowInsert("INSERT INTO t (a) VALUES (?) ON CONFLICT (a) DO NOTHING") == nil)
        #expect(MultiRowInsert("INSERT INTO t (a) VALUES (?), (?)") == nil)
    }
}
