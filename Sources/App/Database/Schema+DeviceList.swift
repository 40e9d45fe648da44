import Storage

extension Schema {
    static let deviceList = Migration(9, "device list search, check-in order and lock state", sqlite: """
        -- The device list's one search box matches the start of a name, owner, serial number or
        -- UDID. Names and owners are typed in any case (NOCASE); serial numbers and UDIDs are
        -- stored upper-case and searched upper-cased, on their UNIQUE indexes.
        CREATE INDEX devices_by_owner ON devices(owner COLLATE NOCASE, id);
        -- "Not checked in for N days" and the check-in sort, never-checked-in first.
        CREATE INDEX devices_by_checkin ON devices(coalesce(lastCheckInAt, 0), id);

        -- A simulated device's lock mode beside its state, for the lock filter.
        ALTER TABLE simulator_states ADD COLUMN lockMode TEXT;
        UPDATE simulator_states SET lockMode = CASE
            WHEN json_extract(state, '$.lock.singleAppMode') IS NOT NULL THEN 'singleAppMode'
            WHEN json_extract(state, '$.lock.autonomous') IS NOT NULL THEN 'autonomous'
            WHEN json_extract(state, '$.lock.assessment') IS NOT NULL THEN 'assessment'
            WHEN json_extract(state, '$.lock.guidedAccess') IS NOT NULL THEN 'guidedAccess'
        END;
        CREATE INDEX simulator_states_by_lock ON simulator_states(lockMode) WHERE lockMode IS NOT NULL;
        """, postgres: PostgresSchema.deviceList)
}
