import Foundation
import Storage

/// The profiles' SQL that the query builder cannot say: what a second backend would provide again.
enum ProfileQueries {
    /// One page of the profile list, keyset-paginated over (name, id) like the device list.
    /// Only what the list shows: SQLite unpacks the kinds' JSON (`json_each`) and counts the
    /// groups in the same statement, because decoding JSON per row in Swift was half of this
    /// page's time. Each row also carries how many profiles there are (`total`), which a page
    /// with rows then needs no statement of its own for.
    static func listPage(after: RecordID<ProfileRecord>?, limit: Int, dialect: Dialect) -> SQL {
        let kinds = dialect == .sqlite
            ? "(SELECT group_concat(value, ',') FROM json_each(profiles.payloadKinds))"
            : "(SELECT string_agg(kind, ',') FROM jsonb_array_elements_text(profiles.payloadKinds) AS kind)"
        var sql = SQL(stringLiteral: """
            SELECT id, name, identifier, version, updatedAt, \(kinds) AS kinds,
                   (SELECT count(*) FROM profile_assignments WHERE profileID = profiles.id) AS groups,
                   (SELECT count(*) FROM profiles) AS total
            FROM profiles
            """)
        let name = dialect.caseless("name")
        if let after {
            sql.append(SQL(stringLiteral: " WHERE (\(name), id) > ((SELECT \(name) FROM profiles WHERE id = "))
            sql.append("\(after)), \(after))")
        }
        sql.append(SQL(stringLiteral: " ORDER BY \(name), id"))
        sql.append(" LIMIT \(limit)")
        return sql
    }

    static func allByName(_ dialect: Dialect) -> SQL {
        SQL(stringLiteral: "SELECT * FROM profiles ORDER BY \(dialect.caseless("name")), id")
    }

    /// The images with these keys, their bytes left out (an empty blob): a form only needs
    /// to know the logos exist, not to load them.
    static func imagesWithoutBytes(keys: [String], dialect: Dialect) -> SQL {
        SQL(stringLiteral: "SELECT id, key, mediaType, width, height, byteCount, \(dialect.emptyBytes) AS bytes, uploadedBy, createdAt FROM images")
            + " WHERE key IN (\(list: keys))"
    }

    /// Deletes images uploaded before `cutoff` that no profile version refers to: a logo of a
    /// deleted profile, or an upload whose form was left without saving. A version names its
    /// images by key (a UUID) in its content, so finding the key in the text is a reference.
    static func deleteUnreferencedImages(uploadedBefore cutoff: Date, dialect: Dialect) -> SQL {
        "DELETE FROM images WHERE createdAt < \(cutoff)"
            + SQL(stringLiteral: " AND NOT EXISTS (SELECT 1 FROM profile_versions v WHERE \(dialect.contains("v.content", "images.key")))")
            + SQL(stringLiteral: " RETURNING byteCount")
    }

    /// The groups a profile is assigned to directly, by name.
    static func assignedGroups(of profileID: RecordID<ProfileRecord>, dialect: Dialect) -> SQL {
        "SELECT g.* FROM device_groups g JOIN profile_assignments a ON a.groupID = g.id WHERE a.profileID = \(profileID)"
            + SQL(stringLiteral: " ORDER BY \(dialect.caseless("g.name"))")
    }
}
