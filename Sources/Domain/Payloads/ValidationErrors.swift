/// Messages for the fields of a payload (or other domain value) that failed validation, keyed
/// by a field path such as "app", "apps.2" or "areas.0.radius".
public struct ValidationErrors: Error, Sendable, Equatable {
    public private(set) var messages: [String: String] = [:]

    public init() {}

    public subscript(field: String) -> String? {
        get { messages[field] }
        set { messages[field] = newValue }
    }

    public var isEmpty: Bool { messages.isEmpty }

    /// Adds `other`'s messages; on the same field, the existing message stays.
    public mutating func merge(_ other: ValidationErrors) {
        messages.merge(other.messages) { existing, _ in existing }
    }
}
