import Storage

extension Schema {
    static let appRoles = Migration(18, "the managed browser and mail app among the catalog's apps", sqlite: """
        -- DLP keeps links in the managed browser and mailto links in the managed mail app; the
        -- catalog says which apps those are ('browser', 'mail'), NULL for every other app.
        ALTER TABLE apps ADD COLUMN role TEXT;
        """, postgres: PostgresSchema.appRoles)
}
