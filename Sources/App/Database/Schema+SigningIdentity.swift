import Storage

extension Schema {
    static let signingIdentity = Migration(22, "the signing identity in the database, shared by every console on it", sqlite: """
        -- The certificate and private key that sign exported profiles. Consoles before this one
        -- kept them as files in their data directory (`SigningService` adopts those); kept here,
        -- every instance on one database signs with the same certificate. One row (id 1), so
        -- consoles creating it at once insert it once; a replacement updates it and raises
        -- `revision`, which each console compares with the identity it holds in memory.
        CREATE TABLE signing_identity (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            certificatePEM TEXT NOT NULL,
            privateKeyPEM TEXT NOT NULL,
            revision INTEGER NOT NULL,
            origin TEXT NOT NULL CHECK (origin IN ('generated', 'adopted', 'uploaded')),
            setBy TEXT NOT NULL,
            setAt REAL NOT NULL
        );
        """, postgres: PostgresSchema.signingIdentity)
}
