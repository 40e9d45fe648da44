import Storage

extension Schema {
    static let helpdeskFinding = Migration(19, "device search inside names and serials, a device's lines by the time they were logged", sqlite: """
        -- The device list's search finds text anywhere inside a name, owner, serial number or
        -- UDID: a trigram index over those columns (case-insensitive), kept in step with
        -- devices by triggers. Devices change rarely and one at a time, so a trigger per row
        -- costs little here (unlike the log lines, which are indexed a batch at a time). The
        -- update trigger watches only the searched columns, and fires only when one of them
        -- changed: the ORM's update writes every column (moving a device, a new token).
        CREATE VIRTUAL TABLE device_search USING fts5(
            name, owner, serialNumber, udid, content = 'devices', content_rowid = 'id', tokenize = 'trigram');
        INSERT INTO device_search(device_search) VALUES ('rebuild');
        CREATE TRIGGER devices_search_insert AFTER INSERT ON devices BEGIN
            INSERT INTO device_search(rowid, name, owner, serialNumber, udid) VALUES (new.id, new.name, new.owner, new.serialNumber, new.udid);
        END;
        CREATE TRIGGER devices_search_delete AFTER DELETE ON devices BEGIN
            INSERT INTO device_search(device_search, rowid, name, owner, serialNumber, udid)
                VALUES ('delete', old.id, old.name, old.owner, old.serialNumber, old.udid);
        END;
        CREATE TRIGGER devices_search_update AFTER UPDATE OF name, owner, serialNumber, udid ON devices
        WHEN old.name IS NOT new.name OR old.owner IS NOT new.owner OR old.serialNumber IS NOT new.serialNumber OR old.udid IS NOT new.udid BEGIN
            INSERT INTO device_search(device_search, rowid, name, owner, serialNumber, udid)
                VALUES ('delete', old.id, old.name, old.owner, old.serialNumber, old.udid);
            INSERT INTO device_search(rowid, name, owner, serialNumber, udid) VALUES (new.id, new.name, new.owner, new.serialNumber, new.udid);
        END;

        -- The device page's recent lines, newest by the time they were logged on the device
        -- (lines arrive late: a crash log on the next launch, a backlog when the network returns).
        CREATE INDEX device_logs_by_device_time ON device_logs(deviceID, loggedAt DESC, id DESC);
        """, postgres: PostgresSchema.helpdeskFinding)
}
