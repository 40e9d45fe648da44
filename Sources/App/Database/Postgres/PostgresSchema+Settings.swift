extension PostgresSchema {
    /// Migration 8: console settings. Its log parts (device_logs' new columns and indexes, the
    /// full-text index, log_usage, log_events) belong to the log store.
    static let logStore = """
        -- Console settings an admin changes on the settings page, one value per key.
        CREATE TABLE settings (
            key text PRIMARY KEY,
            value text NOT NULL
        );
        """

    /// Migration 13: the tour's progress per person. Its index of crash lines belongs to the
    /// log store.
    static let dashboard = """
        -- Where each person is in the demo tour: the steps they marked done (a JSON array of
        -- step ids) and when they first saw it, so a demo start shows it once on sign-in.
        CREATE TABLE tour_progress (
            userID bigint PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            doneSteps jsonb NOT NULL DEFAULT '[]'::jsonb,
            seenAt timestamptz NOT NULL
        );
        """

    /// Migration 14: a new organisation name reaches devices' cached policy.
    static let organisation = """
        -- A device's `.mobileconfig` names the organisation, and check-in answers are cached per
        -- policy generation: changing the name starts a new generation, as a policy change does.
        -- An upsert that updates fires the update trigger, not the insert one, as on SQLite.
        CREATE TRIGGER policy_bump_organisation_added AFTER INSERT ON settings
            FOR EACH ROW WHEN (new.key = 'organisationName')
            EXECUTE FUNCTION policy_generation_bump();
        CREATE TRIGGER policy_bump_organisation_changed AFTER UPDATE OF value ON settings
            FOR EACH ROW WHEN (new.key = 'organisationName' AND new.value IS DISTINCT FROM old.value)
            EXECUTE FUNCTION policy_generation_bump();
        """
}
