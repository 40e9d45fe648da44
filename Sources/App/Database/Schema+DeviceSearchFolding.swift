import Domain
import Storage

extension Schema {
    /// The device search folds case by one rule on both backends (`SearchFolding`): each
    /// device keeps its name and owner folded beside them, written by the console, and the
    /// search reads only those. Left to the backends, "σίσυφος" found "ΣΊΣΥΦΟΣ" on SQLite and
    /// not on PostgreSQL, and "İSTANBUL" the other way round.
    static let deviceSearchFolding = Migration(25, "device search folds case by one rule on both backends") { connection in
        try connection.execute(script: """
            ALTER TABLE devices ADD COLUMN foldedName TEXT NOT NULL DEFAULT '';
            ALTER TABLE devices ADD COLUMN foldedOwner TEXT NOT NULL DEFAULT '';
            """)
        let devices = try connection.rows("SELECT id, name, owner FROM devices")
        try connection.execute("UPDATE devices SET foldedName = ?, foldedOwner = ? WHERE id = ?", forEachOf: devices.map { row in
            [.text(SearchFolding.folded(try row.get("name", as: String.self))),
             .text(SearchFolding.folded(try row.get("owner", as: String.self))), row["id"] ?? .null]
        })
        try connection.execute(script: connection.dialect == .sqlite ? sqliteSearch : PostgresSchema.deviceSearchFolding)
    }

    /// The trigram table and its triggers again, over the folded columns; the start of a
    /// name or owner is a range on an index of its folded column.
    private static let sqliteSearch = """
        DROP TRIGGER devices_search_insert;
        DROP TRIGGER devices_search_delete;
        DROP TRIGGER devices_search_update;
        DROP TABLE device_search;
        DROP INDEX devices_by_owner;
        CREATE INDEX devices_by_folded_name ON devices(foldedName, id);
        CREATE INDEX devices_by_folded_owner ON devices(foldedOwner, id);
        CREATE VIRTUAL TABLE device_search USING fts5(
            foldedName, foldedOwner, serialNumber, udid, content = 'devices', content_rowid = 'id', tokenize = 'trigram');
        INSERT INTO device_search(device_search) VALUES ('rebuild');
        CREATE TRIGGER devices_search_insert AFTER INSERT ON devices BEGIN
            INSERT INTO device_search(rowid, foldedName, foldedOwner, serialNumber, udid)
                VALUES (new.id, new.foldedName, new.foldedOwner, new.serialNumber, new.udid);
        END;
        CREATE TRIGGER devices_search_delete AFTER DELETE ON devices BEGIN
            INSERT INTO device_search(device_search, rowid, foldedName, foldedOwner, serialNumber, udid)
                VALUES ('delete', old.id, old.foldedName, old.foldedOwner, old.serialNumber, old.udid);
        END;
        CREATE TRIGGER devices_search_update AFTER UPDATE OF foldedName, foldedOwner, serialNumber, udid ON devices
        WHEN old.foldedName IS NOT new.foldedName OR old.foldedOwner IS NOT new.foldedOwner
            OR old.serialNumber IS NOT new.serialNumber OR old.udid IS NOT new.udid BEGIN
            INSERT INTO device_search(device_search, rowid, foldedName, foldedOwner, serialNumber, udid)
                VALUES ('delete', old.id, old.foldedName, old.foldedOwner, old.serialNumber, old.udid);
            INSERT INTO device_search(rowid, foldedName, foldedOwner, serialNumber, udid)
                VALUES (new.id, new.foldedName, new.foldedOwner, new.serialNumber, new.udid);
        END;
        """
}

extension PostgresSchema {
    /// Migration 25 on PostgreSQL: the name and owner trigram indexes move from `lower()` of
    /// the columns to their folded copies.
    static let deviceSearchFolding = """
        DROP INDEX devices_name_trigrams;
        DROP INDEX devices_owner_trigrams;
        \(trigramIndexes([("devices_foldedName_trigrams", "foldedName"), ("devices_foldedOwner_trigrams", "foldedOwner")]))
        """
}
