import Storage

extension Schema {
    static let organisation = Migration(14, "a new organisation name reaches devices' cached policy", sqlite: """
        -- A device's `.mobileconfig` names the organisation, and check-in answers are cached per
        -- policy generation: changing the name starts a new generation, as a policy change does.
        CREATE TRIGGER policy_bump_organisation_added AFTER INSERT ON settings WHEN new.key = 'organisationName'
            BEGIN UPDATE policy_generation SET value = value + 1; END;
        CREATE TRIGGER policy_bump_organisation_changed AFTER UPDATE OF value ON settings
            WHEN new.key = 'organisationName' AND new.value IS NOT old.value
            BEGIN UPDATE policy_generation SET value = value + 1; END;
        """, postgres: PostgresSchema.organisation)
}
