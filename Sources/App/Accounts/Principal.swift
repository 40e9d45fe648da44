import Storage

/// Who acts on a request: a person signed in, or an API token acting for the person who made
/// it (nobody, for tokens made on the command line). What someone owns — a note, say — is
/// decided by these ids; a token's `User` is made up for the request, so comparing its optional
/// id alone would make every token the author of every token's work.
struct Principal: Sendable {
    /// The role and name the request acts with; its id is the person behind it, if any.
    let user: User
    let tokenID: RecordID<APITokenRecord>?

    var personID: RecordID<User>? { user.id.ifSaved }

    /// Whether this principal wrote what records `personID` and `tokenID` as its author: the same
    /// person (also through a token of theirs), or the same token.
    func isAuthor(personID: RecordID<User>?, tokenID: RecordID<APITokenRecord>?) -> Bool {
        if let personID, personID == self.personID { return true }
        if let tokenID, tokenID == self.tokenID { return true }
        return false
    }
}
