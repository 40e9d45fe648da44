import Storage

extension Schema {
    /// An enrollment link an admin revoked says so, rather than passing for one that ran out.
    static let enrollmentRevocation = Migration(28, "enrollment links record when they were revoked", sqlite: """
        ALTER TABLE mdm_enrollment_links ADD COLUMN revokedAt REAL;
        """, postgres: """
        ALTER TABLE mdm_enrollment_links ADD COLUMN revokedAt timestamptz;
        """)
}
