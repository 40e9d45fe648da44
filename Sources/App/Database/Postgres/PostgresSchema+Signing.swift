extension PostgresSchema {
    /// Migration 22: the signing identity in the database, shared by every console on it.
    static let signingIdentity = """
        -- One row (id 1): consoles creating it at once insert it once; a replacement updates it
        -- and raises `revision`, which each console compares with the identity it holds.
        CREATE TABLE signing_identity (
            id bigint PRIMARY KEY CHECK (id = 1),
            certificatePEM text NOT NULL,
            privateKeyPEM text NOT NULL,
            revision bigint NOT NULL,
            origin text NOT NULL CHECK (origin IN ('generated', 'adopted', 'uploaded')),
            setBy text NOT NULL,
            setAt timestamptz NOT NULL
        );
        """
}
