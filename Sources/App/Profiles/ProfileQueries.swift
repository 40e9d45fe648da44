import Storage

/// The profiles' SQL that the query builder cannot say: what a second backend would provide again.
enum ProfileQueries {
    /// One page of the profile list, keyset-paginated over (name, id) like the device list.
    /// Only what the list shows: SQLite unpacks the kinds' JSON (`json_each`) and counts the
    /// groups in the same statement, because decoding JSON per row in Swift was half of this
    /// page's time.
    static func listPage(after: RecordID<ProfileRecord>?, limit: Int) -> SQL {
        var sql: SQL = """
            SELECT id, name, identifier, version, updatedAt,
                   (SELECT group_concat(value, ',') FROM json_each(profiles.payloadKinds)) AS kinds,
                   (SELECT count(*) FROM profile_assignments WHERE profileID = profiles.id) AS groups
            FROM profiles
            """
        if let after {
            sql.append(" WHERE (name COLLATE NOCASE, id) > ((SELECT name FROM profiles WHERE id = \(after)), \(after))")
        }
        sql.append(" ORDER BY name COLLATE NOCASE, id LIMIT \(limit)")
        return sql
    }

    static let allByName: SQL = "SELECT * FROM profiles ORDER BY name COLLATE NOCASE, id"

    /// The images with these keys, their bytes left out (an empty blob): a form only needs
    /// to know the logos exist, not to load them.
    static func imagesWithoutBytes(keys: [String]) -> SQL {
        "SELECT id, key, mediaType, width, height, byteCount, x'' AS bytes, uploadedBy, createdAt FROM images WHERE key IN (\(list: keys))"
    }

    /// The groups a profile is assigned to directly, by name.
    static func assignedGroups(of profileID: RecordID<ProfileRecord>) -> SQL {
        "SELECT g.* FROM device_groups g JOIN profile_assignments a ON a.groupID = g.id WHERE a.profileID = \(profileID) ORDER BY g.name"
    }
}
