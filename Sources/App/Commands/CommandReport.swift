import Domain

/// What a device said about a command it was sent: the status it reported, the answer in
/// words, and what it reported beside them (each app's feedback, for a feedback request).
struct CommandReport: Sendable {
    var status: CommandStatus
    var summary: String
    var feedback: [String: [String: JSONValue]]? = nil
    /// The device's whole report as it sent it (an MDM client's XML), kept beside the words.
    var raw: String? = nil
}
