import Storage

extension Schema {
    /// Apps reach real devices: the catalog says how a device gets each app (App Store, an
    /// in-house manifest, or taking over the copy already there) and what becomes of it when
    /// management ends; a change to that is a policy change for every device needing the app.
    /// A device's app installs are kept beside its profiles, with the time the device's own
    /// list first showed the app (an acknowledged install is only under way until then).
    /// An admin can let a device leave management (`releaseRequestedAt`: the policy stops
    /// following it). And the "out of step" count reads only the rows that are out of step.
    static let appDelivery = Migration(30, "apps reach real devices: delivery in the catalog, installs beside profiles", sqlite: """
        ALTER TABLE apps ADD COLUMN deliveryMethod TEXT CHECK (deliveryMethod IN ('appStore', 'inHouse', 'takeOver'));
        ALTER TABLE apps ADD COLUMN storeID INTEGER;
        ALTER TABLE apps ADD COLUMN manifestURL TEXT;
        ALTER TABLE apps ADD COLUMN removeWithManagement INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE apps ADD COLUMN preventBackup INTEGER NOT NULL DEFAULT 0;
        CREATE TRIGGER policy_bump_app_delivery AFTER UPDATE OF deliveryMethod, storeID, manifestURL, removeWithManagement, preventBackup ON apps
            WHEN old.deliveryMethod IS NOT new.deliveryMethod OR old.storeID IS NOT new.storeID OR old.manifestURL IS NOT new.manifestURL
                OR old.removeWithManagement IS NOT new.removeWithManagement OR old.preventBackup IS NOT new.preventBackup
            BEGIN UPDATE policy_generation SET value = value + 1; END;
        CREATE TRIGGER policy_bump_app_added AFTER INSERT ON apps WHEN new.deliveryMethod IS NOT NULL
            BEGIN UPDATE policy_generation SET value = value + 1; END;
        CREATE TRIGGER policy_bump_app_removed AFTER DELETE ON apps WHEN old.deliveryMethod IS NOT NULL
            BEGIN UPDATE policy_generation SET value = value + 1; END;
        ALTER TABLE mdm_device_profiles ADD COLUMN listedAt REAL;
        ALTER TABLE mdm_devices ADD COLUMN releaseRequestedAt REAL;
        CREATE INDEX mdm_device_profiles_installs_under_way ON mdm_device_profiles(installedAt)
            WHERE identifier LIKE 'com.payloadconsole.app-install.%' AND installedDigest IS NOT NULL AND listedAt IS NULL;
        CREATE INDEX mdm_device_profiles_out_of_step ON mdm_device_profiles(deviceID)
            WHERE sendingDigest IS NOT NULL OR failedDigest IS NOT NULL OR heldBack IS NOT NULL
                OR (identifier LIKE 'com.payloadconsole.app-install.%' AND installedDigest IS NOT NULL AND listedAt IS NULL);
        """, postgres: PostgresSchema.appDelivery)
}

extension PostgresSchema {
    /// Migration 30 on PostgreSQL.
    static let appDelivery = """
        ALTER TABLE apps ADD COLUMN deliveryMethod text CHECK (deliveryMethod IN ('appStore', 'inHouse', 'takeOver'));
        ALTER TABLE apps ADD COLUMN storeID bigint;
        ALTER TABLE apps ADD COLUMN manifestURL text;
        ALTER TABLE apps ADD COLUMN removeWithManagement smallint NOT NULL DEFAULT 0 CHECK (removeWithManagement IN (0, 1));
        ALTER TABLE apps ADD COLUMN preventBackup smallint NOT NULL DEFAULT 0 CHECK (preventBackup IN (0, 1));
        CREATE TRIGGER policy_bump_app_delivery AFTER UPDATE OF deliveryMethod, storeID, manifestURL, removeWithManagement, preventBackup ON apps
            FOR EACH ROW WHEN (old.deliveryMethod IS DISTINCT FROM new.deliveryMethod OR old.storeID IS DISTINCT FROM new.storeID
                               OR old.manifestURL IS DISTINCT FROM new.manifestURL OR old.removeWithManagement IS DISTINCT FROM new.removeWithManagement
                               OR old.preventBackup IS DISTINCT FROM new.preventBackup)
            EXECUTE FUNCTION policy_generation_bump();
        CREATE TRIGGER policy_bump_app_added AFTER INSERT ON apps
            FOR EACH ROW WHEN (new.deliveryMethod IS NOT NULL)
            EXECUTE FUNCTION policy_generation_bump();
        CREATE TRIGGER policy_bump_app_removed AFTER DELETE ON apps
            FOR EACH ROW WHEN (old.deliveryMethod IS NOT NULL)
            EXECUTE FUNCTION policy_generation_bump();
        ALTER TABLE mdm_device_profiles ADD COLUMN listedAt timestamptz;
        ALTER TABLE mdm_devices ADD COLUMN releaseRequestedAt timestamptz;
        CREATE INDEX mdm_device_profiles_installs_under_way ON mdm_device_profiles (installedAt)
            WHERE identifier LIKE 'com.payloadconsole.app-install.%' AND installedDigest IS NOT NULL AND listedAt IS NULL;
        CREATE INDEX mdm_device_profiles_out_of_step ON mdm_device_profiles (deviceID)
            WHERE sendingDigest IS NOT NULL OR failedDigest IS NOT NULL OR heldBack IS NOT NULL
                OR (identifier LIKE 'com.payloadconsole.app-install.%' AND installedDigest IS NOT NULL AND listedAt IS NULL);
        """
}
