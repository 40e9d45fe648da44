import Storage

extension Schema {
    static let auditFilters = Migration(15, "the audit log filtered by person and by kind of object", sqlite: """
        -- The audit log pages newest first within a filter: by person, or by the action's
        -- kind (a range of action codes, "device." up to "device/").
        CREATE INDEX audit_events_by_actor ON audit_events(actorEmail, id DESC);
        CREATE INDEX audit_events_by_action ON audit_events(action, id DESC);
        """, postgres: PostgresSchema.auditFilters)
}
