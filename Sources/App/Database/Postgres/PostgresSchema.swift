/// The console's schema on PostgreSQL: one script per numbered migration of `Schema`, each the
/// same tables as SQLite's script of that number, in PostgreSQL's own types.
///
/// - `INTEGER PRIMARY KEY` is a `bigint` identity `BY DEFAULT`, so a copy from SQLite keeps its
///   ids; every other integer is a `bigint` (Swift's `Int`), except flags from a Swift `Bool`:
///   `smallint` holding 0 or 1, since queries compare them with 0 and 1 as on SQLite.
/// - A `Date` is `timestamptz`, a Codable property stored as JSON is `jsonb`, bytes are `bytea`.
/// - Names are written unquoted, so `deviceID` is the column `deviceid`; the ORM folds the
///   names it quotes to match. A unique constraint or index is named
///   `<table>_<column>[_<column>]_key`, which is how a duplicate is reported as `table.column`.
/// - SQLite's `COLLATE NOCASE` indexes are indexes on `lower(column)`. Codes searched by range
///   (serial numbers, UDIDs, audit actions) are `COLLATE ucs_basic`: code point order, as
///   SQLite's BINARY, whatever the database's locale.
/// - The log store's tables never live here (`LogSchema` is their store), so the parts of
///   migrations 7–21 that built or changed them have no counterpart.
enum PostgresSchema {}
