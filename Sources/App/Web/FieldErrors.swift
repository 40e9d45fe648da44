/// Messages for the fields of a form that failed validation, keyed by field name. Thrown by
/// services and caught by controllers, which re-render the form with the entered values and
/// each message beside its field.
struct FieldErrors: Error, Sendable, Equatable {
    private(set) var messages: [String: String] = [:]

    init() {}

    init(_ field: String, _ message: String) {
        messages[field] = message
    }

    var isEmpty: Bool { messages.isEmpty }

    subscript(_ field: String) -> String? {
        get { messages[field] }
        set { messages[field] = newValue }
    }

    /// Throws self when any field failed, so a validator can collect every problem first.
    func throwIfAny() throws(FieldErrors) {
        if !isEmpty { throw self }
    }
}
