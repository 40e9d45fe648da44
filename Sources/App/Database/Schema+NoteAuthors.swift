import Storage

extension Schema {
    static let noteAuthors = Migration(20, "notes name the API token they were written through", sqlite: """
        -- A note written by a script belongs to its token (and to the person who made the token,
        -- in authorID); notes from before this column have no token and stay the admins' to change.
        ALTER TABLE device_notes ADD COLUMN authorTokenID INTEGER REFERENCES api_tokens(id) ON DELETE SET NULL;
        """, postgres: PostgresSchema.noteAuthors)
}
