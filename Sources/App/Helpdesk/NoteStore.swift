import Domain
import Foundation
import Storage

/// Notes on devices: anyone who reads logs writes them; the author and admins change or
/// remove one. Every change is audited with the text before and after.
struct NoteStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    static let maximumLength = 10_000

    /// Why a note was not saved: the text, beside its field.
    struct Invalid: Error, Equatable {
        let message: String
    }

    /// The note's text, trimmed, or why it cannot be stored.
    static func validated(_ body: String) throws(Invalid) -> String {
        let text = body.trimmingWhitespace()
        if text.isEmpty { throw Invalid(message: "Write the note first.") }
        // Counted as sent and in code points, as the API document's maxLength counts.
        let length = PlainText.length(body)
        if length > maximumLength { throw Invalid(message: "Keep a note under \(maximumLength.formatted()) characters; this one has \(length.formatted()).") }
        if let problem = PlainText.problem(text, lines: .multiple) { throw Invalid(message: problem) }
        return text
    }

    /// Whether `principal` may change or remove `note`: its author — the person, or the token
    /// it was written through — or an admin. A note whose author is gone is the admins' alone.
    static func mayChange(_ note: DeviceNoteRecord, by principal: Principal) -> Bool {
        principal.user.role.includes(.admin) || principal.isAuthor(personID: note.authorID, tokenID: note.authorTokenID)
    }

    @discardableResult
    func add(_ body: String, to deviceID: RecordID<DeviceRecord>, by author: Principal) async throws -> DeviceNoteRecord {
        let text = try Self.validated(body)
        let time = now()
        return try await database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            let note = try connection.insert(DeviceNoteRecord(deviceID: deviceID, authorID: author.personID, authorTokenID: author.tokenID,
                                                              authorEmail: author.user.email, body: text, createdAt: time, updatedAt: time))
            try connection.audit(.noteAdded, subject: device.name, by: Actor(author.user), after: Self.excerpt(text), at: time)
            return note
        }
    }

    func edit(_ noteID: RecordID<DeviceNoteRecord>, of deviceID: RecordID<DeviceRecord>, to body: String, by principal: Principal) async throws {
        let text = try Self.validated(body)
        let time = now()
        try await database.write { connection in
            var note = try Self.note(noteID, of: deviceID, changeableBy: principal, in: connection)
            guard note.body != text else { return }
            let before = note.body
            (note.body, note.updatedAt) = (text, time)
            try connection.update(note)
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            try connection.audit(.noteEdited, subject: device.name, by: Actor(principal.user), before: Self.excerpt(before), after: Self.excerpt(text), at: time)
        }
    }

    func remove(_ noteID: RecordID<DeviceNoteRecord>, of deviceID: RecordID<DeviceRecord>, by principal: Principal) async throws {
        let time = now()
        try await database.write { connection in
            let note = try Self.note(noteID, of: deviceID, changeableBy: principal, in: connection)
            try connection.delete(DeviceNoteRecord.self, id: noteID)
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            try connection.audit(.noteDeleted, subject: device.name, by: Actor(principal.user), before: Self.excerpt(note.body), at: time)
        }
    }

    /// The device's note, if `principal` may change it; a note of another device is not found.
    private static func note(_ id: RecordID<DeviceNoteRecord>, of deviceID: RecordID<DeviceRecord>, changeableBy principal: Principal,
                             in connection: Connection) throws -> DeviceNoteRecord {
        guard let note = try connection.find(DeviceNoteRecord.self, id: id), note.deviceID == deviceID else { throw StorageError.notFound(table: DeviceNoteRecord.tableName) }
        guard mayChange(note, by: principal) else { throw AccessDenied.insufficientRole }
        return note
    }

    /// The audit log keeps the start of long notes.
    static func excerpt(_ text: String) -> String {
        text.count > 500 ? String(text.prefix(500)) + "…" : text
    }
}
